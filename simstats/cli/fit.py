"""``simstats fit``: the noise model fitted to a user's runs, as a scenario entry for the pipeline."""
from __future__ import annotations

from simstats.cli.output import emit

def run(args) -> int:
    """``simstats fit``: a scenario entry fitted to the user's runs."""
    from simstats.io.checks import InputError
    from simstats.io.tables import read_table
    from simstats.fit import FitOptions, fit_table

    if not 0 <= args.failure_alpha < 1:
        raise InputError(f"--failure-alpha must be in [0, 1), got {args.failure_alpha}")
    if args.n_resamples < 20:
        raise InputError(f"--n-resamples must be >= 20 (the intervals of the item and cluster shares come from the "
                         f"resamples' spread), got {args.n_resamples}")
    if not all(c.isalnum() or c in "_-" for c in args.name) or not args.name:
        raise InputError(f"--name uses letters, digits, '_' and '-' only, got {args.name!r}")
    spelled = {"confidence_level": "confidence", "rng": "seed"}       # the options' names on the command line
    options = FitOptions(**{name: getattr(args, spelled.get(name, name)) for name in FitOptions.__dataclass_fields__})
    fit = fit_table(read_table(args.table), options)
    if args.format == "yaml":
        print(fit.to_yaml(args.name, args.description), end="")
        return 0
    table = fit.table()
    table.attrs.update({"claim": f"{100 * args.confidence:g}% intervals of the noise model's parameters "
                                 "(latent units: total noise sd 1)", "data": fit.data["summary"]})
    emit(table, args.format, f"scenario {args.name!r} fitted to {fit.data['kind']}: {fit.data['summary']}\n"
                              f"family: {fit.family}; latent units: sigma_item^2 + sigma_c^2 + sigma_e^2 = 1\n"
          + "".join(f"note: {n}\n" for n in fit.notes))
    return 0


def add_parser(sub) -> None:
    p = sub.add_parser("fit", help="fit the noise model to your own runs: a scenario entry (YAML) for the "
                                   "pipeline, each parameter with an interval")
    p.add_argument("table", help="CSV/TSV/parquet (optionally compressed): item-level rows (seed, item, correct or "
                                 "pred and gold, optionally split dev/test) or run-level scores (columns test and "
                                 "optionally dev, or rows seed, split, score)")
    p.add_argument("--name", default="my_task", help="scenario name (default: my_task)")
    p.add_argument("--description", default="", help="scenario description (default: what was fitted)")
    p.add_argument("--where", action="append", metavar="COLUMN=VALUE",
                   help="keep only the rows where COLUMN equals VALUE; repeat for several (default: all rows)")
    p.add_argument("--run", metavar="COLUMN", help="run (seed) column (default: seed or run)")
    p.add_argument("--item", metavar="COLUMN", help="item id column of item-level rows (default: item)")
    p.add_argument("--split", metavar="COLUMN", help="split column, values dev and test (default: split; without "
                                                      "one every row is test)")
    p.add_argument("--outcome", metavar="COLUMN", help="0/1 correctness column of item-level rows (default: "
                                                       "correct, else --prediction compared with --gold)")
    p.add_argument("--prediction", metavar="COLUMN", help="prediction column (default: pred or prediction)")
    p.add_argument("--gold", metavar="COLUMN", help="gold label column (default: y or gold)")
    p.add_argument("--system", help="the system to fit, when the table has a system column with several")
    p.add_argument("--clusters", metavar="COLUMN", help="cluster (document) id of each item: sigma_c is fitted and "
                                                        "clusters are resampled (default: none)")
    p.add_argument("--test-column", metavar="COLUMN", help="run-level test score column (default: test)")
    p.add_argument("--dev-column", metavar="COLUMN", help="run-level dev score column (default: dev, if present)")
    p.add_argument("--score", metavar="COLUMN", help="score column of long run-level rows (default: score)")
    p.add_argument("--group", nargs="+", metavar="COLUMN",
                   help="run-level: columns whose values together name a configuration; variances are pooled "
                        "within configurations (default: all runs are one configuration)")
    p.add_argument("--metric", default="accuracy", choices=["accuracy", "recall", "precision", "f1"],
                   help="the scores' metric (item-level rows: accuracy) (default: accuracy)")
    p.add_argument("--test-size", type=int, help="run-level: test items (gold items for f1/precision/recall)")
    p.add_argument("--dev-size", type=int, help="run-level: dev items (default: --test-size)")
    p.add_argument("--assume-item-share", type=float, default=0.5,
                   help="run-level without dev scores: the share sigma_item^2 of the latent noise variance, which "
                        "test scores alone cannot identify (default: 0.5)")
    p.add_argument("--confidence", type=float, default=0.95, help="level of every interval (default: 0.95)")
    p.add_argument("--n-resamples", type=int, default=200,
                   help="item-level: bootstrap resamples of the item (cluster) correlations (default: 200)")
    p.add_argument("--failure-alpha", type=float, default=0.01,
                   help="level of the test that flags failed runs (generalised ESD); 0 turns it off (default: 0.01)")
    p.add_argument("--seed", type=int, default=0, help="seed of the bootstrap and pivotal draws (default: 0)")
    p.add_argument("--format", default="yaml", choices=["yaml", "table", "csv", "json"],
                   help="output: the scenario entry (YAML with comments), a Markdown table of the parameters, CSV "
                        "or JSON (default: yaml)")
    p.set_defaults(func=run)
