# Comparing models from harness logs
def harness_variant_settings(wildcards):
    """One variant's settings (editing another variant reruns nothing of this one)."""
    return parsed(SETTINGS.harness.for_variant(wildcards.variant))


def harness_chunk_replicates(wildcards):
    """The replicates of one job of a variant."""
    return SETTINGS.harness.chunks()[int(wildcards.chunk)]


def harness_outputs():
    if SETTINGS.harness is None:
        return []
    return [
        f"{RESULTS}/harness/validation.csv",
        f"{RESULTS}/harness/validation.md",
        f"{FIGURES}/harness/validation.png",
        f"{FIGURES}/harness/validation.pdf",
    ]


STUDY_OUTPUTS['harness'] = harness_outputs
