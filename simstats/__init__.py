"""simstats: when can comparisons of ML/NLP systems be trusted?  Validated tests and simulations.

The public API, in the style of scipy.stats: one function per test, result objects with
``statistic``, ``pvalue``, ``confidence_interval``, ``alternative`` and ``method``;
``alternative`` defaults to "two-sided"; every resampling test takes a seeded ``rng``.
Layers: :mod:`simstats.stats` (paper-agnostic tests), :mod:`simstats.sim` (simulation),
:mod:`simstats.studies` (the paper replications), :mod:`simstats.report`.
"""
from simstats.sim.scenario import Scenario, ScenarioError, parse_scenario, parse_scenarios
from simstats.stats.approaches import ApproachComparisonResult, compare_approaches
from simstats.stats.aso import ASOResult, SmallSampleWarning, aso, cos_verdict, multi_aso, violation_ratio
from simstats.stats.bootstrap import bootstrap_score_matrix, bootstrap_scores, paired_bootstrap
from simstats.stats.classical import (mann_whitney_test, mcnemar_counts, mcnemar_test, paired_t_test,
                                      precision_chi2_test, sign_test, two_proportion_z_test, two_sample_t_test,
                                      welch_t_test, wilcoxon_test)
from simstats.stats.competition import CompetitionAnalysis, analyse_competition
from simstats.stats.metrics import (Metric, accuracy, classification_f1, custom_metric, f1, get_metric,
                                    label_statistics, mae, precision, recall)
from simstats.stats.montecarlo import mean_with_se, proportion_with_se
from simstats.stats.multitest import adjust_pvalues
from simstats.stats.randomization import (approximate_randomization, exact_randomization,
                                          exact_stratified_randomization)
from simstats.stats.results import (BootstrapResult, ClassicalTestResult, ConfidenceInterval, RandomizationResult,
                                    TestResult)

__all__ = [
    # resampling tests
    "paired_bootstrap", "bootstrap_scores", "bootstrap_score_matrix",
    "approximate_randomization", "exact_randomization", "exact_stratified_randomization",
    # approaches over seeds x items
    "compare_approaches", "ApproachComparisonResult",
    # classical tests (scipy / statsmodels underneath)
    "mcnemar_test", "mcnemar_counts", "sign_test", "wilcoxon_test", "paired_t_test", "two_sample_t_test",
    "welch_t_test", "mann_whitney_test", "two_proportion_z_test", "precision_chi2_test",
    # score distributions
    "aso", "multi_aso", "violation_ratio", "cos_verdict", "ASOResult", "SmallSampleWarning",
    # metrics
    "Metric", "accuracy", "recall", "precision", "f1", "mae", "get_metric", "classification_f1", "custom_metric",
    "label_statistics",
    # corrections, competitions, Monte Carlo summaries
    "adjust_pvalues", "analyse_competition", "CompetitionAnalysis", "proportion_with_se", "mean_with_se",
    # results
    "TestResult", "BootstrapResult", "RandomizationResult", "ClassicalTestResult", "ConfidenceInterval",
    # scenarios
    "Scenario", "ScenarioError", "parse_scenario", "parse_scenarios",
]
__version__ = "0.1.0"
