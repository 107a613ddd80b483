# What can I trust, per scenario
def trust_simulation_settings(wildcards):
    """The settings a scenario's simulation uses (adding or excluding another scenario reruns nothing of it)."""
    return parsed(dataclasses.replace(SETTINGS.trust, scenarios=(wildcards.scenario,), mdd_seeds=(), mdd_items=()))


def trust_page_settings(wildcards):
    """The settings of a scenario's page (another scenario's page changes nothing here)."""
    return parsed(dataclasses.replace(SETTINGS.trust, scenarios=(wildcards.scenario,)))


def trust_reimers_inputs(wildcards):
    """The Reimers tables and runs needed, when the Reimers study evaluates this scenario (else none)."""
    if SETTINGS.reimers is None or wildcards.scenario not in SETTINGS.reimers.tasks:
        return []
    return [f"{RESULTS}/reimers/tables.csv", f"{RESULTS}/reimers/power_runs_needed.csv"]


def trust_outputs():
    if SETTINGS.trust is None:
        return []
    return expand(
        [
            f"{RESULTS}/trust/{{scenario}}.md",
            f"{RESULTS}/trust/{{scenario}}/summary.csv",
            f"{FIGURES}/trust/{{scenario}}.png",
            f"{FIGURES}/trust/{{scenario}}.pdf",
        ],
        scenario=SETTINGS.trust.scenarios,
    )


STUDY_OUTPUTS['trust'] = trust_outputs
