# simstats: simulation studies of significance testing for ML/NLP system comparisons.
from snakemake.utils import min_version, validate

min_version("9.0")


configfile: "config/config.yaml"


# common.smk checks the configuration first (one-line errors naming the field), then the
# JSON schema validates it again and fills in defaults.
include: "workflow/rules/common.smk"


validate(config, "workflow/schemas/config.schema.yaml")


include: "workflow/rules/noise.smk"


include: "workflow/rules/competition.smk"


include: "workflow/rules/yeh.smk"


include: "workflow/rules/dror.smk"


include: "workflow/rules/reimers.smk"


include: "workflow/rules/report.smk"


rule all:
    input:
        noise_outputs(),
        competition_outputs(),
        yeh_outputs(),
        dror_outputs(),
        reimers_outputs(),
        f"{RESULTS}/REPORT.md",
    default_target: True
