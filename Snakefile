# simstats: simulation studies of significance testing for ML/NLP system comparisons.
from snakemake.utils import min_version

min_version("9.0")


configfile: "config/config.yaml"


# common.smk checks the configuration first, once: simstats.config.validate_config applies the
# JSON schema (types, ranges and defaults) plus the cross-field checks, with one-line errors
# naming the field, and the rules read the parsed settings it returns.  It also holds the
# helper functions the rules call.
include: "workflow/rules/common.smk"


# every registered study (simstats.studies.STUDIES) brings its helpers and rules in its package
for study in STUDIES:

    include: study.directory / "helpers.smk"


for study in STUDIES:

    include: study.directory / "rules.smk"


include: "workflow/rules/report.smk"


rule all:
    input:
        study_outputs(),
        f"{RESULTS}/fidelity.csv",
        f"{RESULTS}/fidelity.md",
        f"{RESULTS}/REPORT.md",
    default_target: True
