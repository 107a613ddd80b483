# Many models over a suite of tasks
def suite_variant_settings(wildcards):
    """One variant's settings (editing another variant reruns nothing of this one)."""
    return parsed(SETTINGS.suite.for_variant(wildcards.variant))


def suite_chunk_replicates(wildcards):
    """The replicates of one job of a variant."""
    return SETTINGS.suite.chunks()[int(wildcards.chunk)]


def suite_outputs():
    if SETTINGS.suite is None:
        return []
    return [
        f"{RESULTS}/suite/validation.csv",
        f"{RESULTS}/suite/validation.md",
        f"{FIGURES}/suite/validation.png",
        f"{FIGURES}/suite/validation.pdf",
    ]


STUDY_OUTPUTS['suite'] = suite_outputs
