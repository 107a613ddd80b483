"""simstats: when can comparisons of ML/NLP systems be trusted?  Validated tests and simulations.

The public API, in the style of scipy.stats: one function per test, result objects with
``statistic``, ``pvalue``, ``confidence_interval``, ``alternative`` and ``method``;
``alternative`` defaults to "two-sided"; every resampling test takes a seeded ``rng``.
Layers: :mod:`simstats.stats` (paper-agnostic tests), :mod:`simstats.sim` (simulation),
:mod:`simstats.studies` (the paper replications), :mod:`simstats.report`.
"""
from simstats.stats.lazy import lazy_module

# The public names are imported on first use (PEP 562), so that `import simstats.io` in a workflow
# job does not pay for scipy, statsmodels and pandas imports it does not need.
_EXPORTS = {
    "TestResult": "simstats.stats.results",
    "BootstrapResult": "simstats.stats.results",
    "RandomizationResult": "simstats.stats.results",
    "ClassicalTestResult": "simstats.stats.results",
    "ConfidenceInterval": "simstats.stats.results",
    "Scenario": "simstats.sim.scenario",
    "ScenarioError": "simstats.sim.scenario",
    "parse_scenario": "simstats.sim.scenario",
    "parse_scenarios": "simstats.sim.scenario",
    "ApproachComparisonResult": "simstats.stats.approaches",
    "compare_approaches": "simstats.stats.approaches",
    "approach_bootstrap": "simstats.stats.approaches",
    "ApproachTTestResult": "simstats.stats.approaches",
    "approach_t_test": "simstats.stats.approaches",
    "approach_margin_test": "simstats.stats.approaches",
    "paired_margin_test": "simstats.stats.approaches",
    "MarginTestResult": "simstats.stats.approaches",
    "ASOResult": "simstats.stats.aso",
    "SmallSampleWarning": "simstats.stats.aso",
    "aso": "simstats.stats.aso",
    "cos_verdict": "simstats.stats.aso",
    "multi_aso": "simstats.stats.aso",
    "violation_ratio": "simstats.stats.aso",
    "bootstrap_score_matrix": "simstats.stats.bootstrap",
    "bootstrap_scores": "simstats.stats.bootstrap",
    "paired_bootstrap": "simstats.stats.bootstrap",
    "mann_whitney_test": "simstats.stats.classical",
    "mcnemar_counts": "simstats.stats.classical",
    "mcnemar_test": "simstats.stats.classical",
    "paired_t_test": "simstats.stats.classical",
    "precision_chi2_test": "simstats.stats.classical",
    "sign_test": "simstats.stats.classical",
    "two_proportion_z_test": "simstats.stats.classical",
    "two_sample_t_test": "simstats.stats.classical",
    "welch_t_test": "simstats.stats.classical",
    "wilcoxon_test": "simstats.stats.classical",
    "CompetitionAnalysis": "simstats.stats.competition",
    "analyse_competition": "simstats.stats.competition",
    "Metric": "simstats.stats.metrics",
    "accuracy": "simstats.stats.metrics",
    "classification_f1": "simstats.stats.metrics",
    "custom_metric": "simstats.stats.metrics",
    "f1": "simstats.stats.metrics",
    "get_metric": "simstats.stats.metrics",
    "register_metric": "simstats.stats.metrics",
    "metric_names": "simstats.stats.metrics",
    "label_statistics": "simstats.stats.metrics",
    "mae": "simstats.stats.metrics",
    "precision": "simstats.stats.metrics",
    "recall": "simstats.stats.metrics",
    "mean_with_se": "simstats.stats.montecarlo",
    "proportion_with_se": "simstats.stats.montecarlo",
    "adjust_pvalues": "simstats.stats.multitest",
    "randomization_test": "simstats.stats.randomization",
    "approximate_randomization": "simstats.stats.randomization",
    "exact_randomization": "simstats.stats.randomization",
    "exact_stratified_randomization": "simstats.stats.randomization",
    "ScoreIntervals": "simstats.stats.results",
    "proportion_interval": "simstats.stats.analytic",
    "mean_interval": "simstats.stats.analytic",
    "paired_difference": "simstats.stats.analytic",
    "item_means": "simstats.stats.analytic",
}

__all__ = [
    # resampling tests
    "paired_bootstrap", "bootstrap_scores", "bootstrap_score_matrix",
    "randomization_test", "ScoreIntervals",
    # approaches over seeds x items
    "approach_t_test", "ApproachTTestResult", "approach_margin_test", "paired_margin_test", "MarginTestResult", "compare_approaches", "approach_bootstrap", "ApproachComparisonResult",
    # classical tests (scipy / statsmodels underneath)
    "mcnemar_test", "mcnemar_counts", "sign_test", "wilcoxon_test", "paired_t_test", "two_sample_t_test",
    "welch_t_test", "mann_whitney_test", "two_proportion_z_test", "precision_chi2_test",
    # score distributions
    "aso", "multi_aso", "violation_ratio", "cos_verdict", "ASOResult", "SmallSampleWarning",
    # metrics
    "Metric", "accuracy", "recall", "precision", "f1", "mae", "get_metric", "register_metric", "metric_names", "classification_f1", "custom_metric",
    "label_statistics",
    # analytic standard errors and intervals
    "proportion_interval", "mean_interval", "paired_difference", "item_means",
    # corrections, competitions, Monte Carlo summaries
    "adjust_pvalues", "analyse_competition", "CompetitionAnalysis", "proportion_with_se", "mean_with_se",
    # results
    "TestResult", "BootstrapResult", "RandomizationResult", "ClassicalTestResult", "ConfidenceInterval",
    # scenarios
    "Scenario", "ScenarioError", "parse_scenario", "parse_scenarios",
]
__version__ = "0.3.0"


def __getattr__(name: str):
    if name in _EXPORTS:
        value = getattr(lazy_module(_EXPORTS[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'simstats' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(__all__))
