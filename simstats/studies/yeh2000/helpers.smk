# Yeh study


def yeh_differences(wildcards):
    """Only this metric's true differences (editing another metric's does not rerun these cells)."""
    return SETTINGS.yeh.differences[wildcards.metric]


def yeh_outputs():
    if SETTINGS.yeh is None:
        return []
    return [
        f"{RESULTS}/yeh/size_power.md",
        f"{RESULTS}/yeh/sd_ratio.md",
        f"{RESULTS}/yeh/clusters.md",
        f"{RESULTS}/yeh/squad_summary.md",
        f"{RESULTS}/yeh/example.md",
        *expand(f"{FIGURES}/yeh/{{fig}}.{{ext}}", fig=YEH_FIGURES, ext=["png", "pdf"]),
    ]


STUDY_OUTPUTS['yeh'] = yeh_outputs
