# simstats: simulation studies of significance testing for ML/NLP system comparisons.
from snakemake.utils import min_version, validate

from simstats.config import SCHEMA_PATH

min_version("9.0")


configfile: "config/config.yaml"


# common.smk checks the configuration first: simstats.config.validate_config applies the JSON
# schema (simstats/data/config.schema.yaml, the single source of types, ranges and defaults)
# plus the cross-field checks, with one-line errors naming the field.  Snakemake's validate
# then fills the schema's defaults into `config` as well; the rules use the parsed settings.
include: "workflow/rules/common.smk"


validate(config, str(SCHEMA_PATH))


include: "workflow/rules/noise.smk"


include: "workflow/rules/competition.smk"


include: "workflow/rules/yeh.smk"


include: "workflow/rules/dror.smk"


include: "workflow/rules/reimers.smk"


include: "workflow/rules/approaches.smk"


include: "workflow/rules/report.smk"


rule all:
    input:
        noise_outputs(),
        competition_outputs(),
        yeh_outputs(),
        dror_outputs(),
        reimers_outputs(),
        approaches_outputs(),
        f"{RESULTS}/fidelity.csv",
        f"{RESULTS}/fidelity.md",
        f"{RESULTS}/REPORT.md",
    default_target: True
