# Fitting the noise model to runs
def fit_variant_settings(wildcards):
    """One design's settings (editing another design reruns nothing of this one)."""
    return parsed(SETTINGS.fit.for_variant(wildcards.variant))


def fit_chunk_replicates(wildcards):
    """The replicates of one job of a design."""
    return SETTINGS.fit.chunks()[int(wildcards.chunk)]


def fit_outputs():
    if SETTINGS.fit is None:
        return []
    return [
        f"{RESULTS}/fit/validation.csv",
        f"{RESULTS}/fit/validation.md",
        f"{FIGURES}/fit/validation.png",
        f"{FIGURES}/fit/validation.pdf",
    ]


STUDY_OUTPUTS['fit'] = fit_outputs
