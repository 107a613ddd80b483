# Dror study


def dror_outputs():
    if SETTINGS.dror is None:
        return []
    return [
        f"{RESULTS}/dror/real_data_cases.md",
        f"{RESULTS}/dror/synthetic_cases.md",
        f"{RESULTS}/dror/noise_analyses.md",
        f"{RESULTS}/dror/noise_ukp.md",
        f"{RESULTS}/dror/size_power.md",
        f"{RESULTS}/dror/paper_cases.md",
        f"{RESULTS}/dror/conventions.md",
        f"{RESULTS}/dror/so_readings.md",
        *expand(
            f"{FIGURES}/dror/{{fig}}.{{ext}}",
            fig=["real_data_eps", "synthetic_eps", "noise_eps", "size_power"],
            ext=["png", "pdf"],
        ),
    ]


STUDY_OUTPUTS['dror'] = dror_outputs
