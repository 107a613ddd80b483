# Competition study.  Each job gets only its own parsed settings: editing
# another design (or example) does not rerun it.


def competition_example(wildcards):
    examples = SETTINGS.competition.examples
    return parsed(examples[wildcards.case]) if wildcards.case in examples else None


def competition_example_population(wildcards):
    competition = SETTINGS.competition
    if wildcards.case not in competition.examples:
        return None
    return parsed(competition.populations[competition.examples[wildcards.case].population])


def competition_case_metric(wildcards):
    """The metric named on the case's figures (the CompStats data: weighted F1)."""
    competition = SETTINGS.competition
    if wildcards.case not in competition.examples:
        return "weighted_f1"
    return competition.populations[competition.examples[wildcards.case].population].metric_object().name


def competition_case_input(wildcards):
    return "resources/realdata/compstats_competition_data.csv" if wildcards.case == "compstats" else []


def competition_design(wildcards):
    return parsed(SETTINGS.competition.designs[wildcards.design])


def competition_design_population(wildcards):
    competition = SETTINGS.competition
    return parsed(competition.populations[competition.designs[wildcards.design].population])


def competition_chunk_replicates(wildcards):
    """The replicates of one job (every cell of the design): replicate r is keyed by r, so the
    results do not depend on the chunking."""
    return SETTINGS.competition.study_chunks()[int(wildcards.chunk)]


def competition_study_designs():
    """The designs in name order (reordering the YAML is no change)."""
    return dict(sorted(SETTINGS.competition.designs.items()))


def competition_study_populations():
    """The populations the designs use, in name order."""
    competition = SETTINGS.competition
    used = {design.population for design in competition.designs.values()}
    return {name: population for name, population in sorted(competition.populations.items()) if name in used}


def competition_case_widths(wildcards):
    """An example compared with a paper column waits for its width band (widths.csv), so that the
    ledger, which runs after every case report, finds it."""
    example = COMPETITION.examples.get(wildcards.case) if COMPETITION else None
    return [f"{RESULTS}/competition/{wildcards.case}/widths.csv"] if example is not None and example.language else []


def competition_outputs():
    if SETTINGS.competition is None:
        return []
    return [
        f"{RESULTS}/competition/table5_check.csv",
        f"{RESULTS}/competition/study/summary.csv",
        *expand(f"{RESULTS}/competition/{{case}}/{{case}}_report.md", case=COMPETITION_CASES),
        *[f"{RESULTS}/competition/{case}/widths.csv" for case in COMPETITION_CASES
          if SETTINGS.competition.examples.get(case) is not None and SETTINGS.competition.examples[case].language],
        *expand(
            f"{FIGURES}/competition/{{case}}_{{fig}}.{{ext}}",
            case=COMPETITION_CASES,
            fig=COMPETITION_CASE_FIGURES,
            ext=["png", "pdf"],
        ),
        *expand(f"{FIGURES}/competition/study_{{fig}}.{{ext}}", fig=COMPETITION_STUDY_FIGURES, ext=["png", "pdf"]),
    ]


STUDY_OUTPUTS['competition'] = competition_outputs
