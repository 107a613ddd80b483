"""simstats.stats.normal: scipy.stats.norm's values, bit for bit, without its argument handling."""
import numpy as np
from scipy import stats

from simstats.stats.normal import norm_isf, norm_pdf


def test_norm_pdf_is_scipys_bit_for_bit_with_and_without_location_and_scale():
    rng = np.random.default_rng(3)
    z = np.concatenate([rng.normal(0, 3, 10_000), [0.0, -0.0, 1e-300, 38.0, -40.0, np.inf, -np.inf]])
    assert np.array_equal(norm_pdf(z), stats.norm.pdf(z))
    for loc, scale in ((0.31, 0.0123), (-2.0, 7.5), (1e3, 1e-3)):
        x = loc + scale * rng.normal(0, 4, 5_000)
        assert np.array_equal(norm_pdf((x - loc) / scale) / scale, stats.norm.pdf(x, loc, scale))


def test_norm_isf_is_scipys_bit_for_bit():
    rng = np.random.default_rng(4)
    q = np.concatenate([rng.random(10_000), [0.0, 1.0, 1e-300, 1 - 1e-16, 0.05, 0.025]])
    assert np.array_equal(norm_isf(q), stats.norm.isf(q))
    assert norm_isf(np.array([0.5]))[0] == 0.0          # up to the sign of the zero


def test_seed_quadrature_weights_do_not_import_scipy_stats():
    # the noise study's summary jobs need nothing else from scipy.stats (import cost ~0.45 s per job)
    import subprocess
    import sys
    code = ("import sys, yaml; from simstats.sim.scenario import parse_scenarios; "
            "from simstats.sim.noise import seed_quadrature; "
            "sc = parse_scenarios({'t': {'metric': 'f1', 'target': 0.8, 'dev': {'gold': 100}, 'test': {'gold': 100}, "
            "'sigma_seed': 0.03, 'seed_distribution': {'family': 'failure_mixture', 'failure_prob': 0.1, "
            "'failure_shift': -1, 'failure_sd': 0.2}}})['t']; seed_quadrature(sc, 'A'); "
            "print('scipy.stats' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
