# Approach-level study


def approaches_variant_settings(wildcards):
    """Only this variant's cells (editing another variant does not rerun this one)."""
    return parsed(SETTINGS.approaches.for_variant(wildcards.variant))


def approaches_chunk_replicates(wildcards):
    """The replicates of one job of a variant (replicate r is keyed by r: chunk-invariant)."""
    return SETTINGS.approaches.chunks()[int(wildcards.chunk)]


def approaches_variant_chunks(wildcards):
    """The simulated chunks of one variant."""
    return [f"{RESULTS}/approaches/variants/{wildcards.variant}/chunks/{chunk}.parquet"
            for chunk in range(len(SETTINGS.approaches.chunks()))]


def approaches_outputs():
    if SETTINGS.approaches is None:
        return []
    return [
        f"{RESULTS}/approaches/validation.md",
        f"{RESULTS}/approaches/which_test.csv",
        f"{FIGURES}/approaches/validation.png",
        f"{FIGURES}/approaches/validation.pdf",
    ]


STUDY_OUTPUTS['approaches'] = approaches_outputs
