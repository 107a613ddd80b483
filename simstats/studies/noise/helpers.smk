# Noise study


def noise_scenario(wildcards):
    """Only this scenario's parsed settings (editing another scenario does not rerun its jobs)."""
    return parsed(SETTINGS.scenarios[wildcards.scenario])


def noise_from_reimers(scenario):
    """Whether the scenario's noise-study models are read from the Reimers study's chunks.

    The study describes models 0 .. n_models-1 of each scenario.  The Reimers study simulates the
    same models of its tasks (same stream and item sets), and its chunk jobs write this study's
    tables of them; a scenario the Reimers study covers with at least as many models (in blocks of
    even size) is read from there, the others get their own chunk jobs."""
    reimers = SETTINGS.reimers
    return (reimers is not None and scenario in reimers.tasks and scenario in SETTINGS.noise.scenarios
            and reimers.holds_noise_models(SETTINGS.noise.n_models))


def _noise_chunks(scenario, suffix):
    """The chunk files holding a scenario's models (suffix "" for scores, ".pairs" for r12)."""
    noise = SETTINGS.noise
    if noise_from_reimers(scenario):
        reimers = SETTINGS.reimers
        chunks = [c for c in range(reimers.n_chunks) if reimers.chunk_range(c)[0] < noise.n_models]
        return expand(f"{RESULTS}/reimers/{scenario}/chunks/{{chunk}}.noise{suffix}.parquet", chunk=chunks)
    return expand(f"{RESULTS}/noise/{scenario}/chunks/{{chunk}}{suffix}.parquet", chunk=range(noise.n_chunks))


def noise_score_chunks(wildcards):
    """Input function: the chunk files of a scenario's scores."""
    return _noise_chunks(wildcards.scenario, "")


def noise_pair_chunks(wildcards):
    """Input function: the chunk files of a scenario's item-level correlations of two runs."""
    return _noise_chunks(wildcards.scenario, ".pairs")


def noise_outputs():
    scenarios = SETTINGS.noise.scenarios
    return [
        f"{RESULTS}/noise/summary.csv",
        f"{RESULTS}/noise/summary.md",
        *expand(f"{RESULTS}/noise/{{scenario}}/scores.parquet", scenario=scenarios),
        *expand(f"{FIGURES}/noise/{{scenario}}_dev_vs_test.{{ext}}", scenario=scenarios, ext=["png", "pdf"]),
    ]


STUDY_OUTPUTS['noise'] = noise_outputs
