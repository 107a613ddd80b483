"""Reading users' tables and evaluation logs, checking them, and writing outputs.

Reading (every problem raises :class:`simstats.io.checks.InputError` with a one-line message naming the
file, column, value and row):

- :mod:`simstats.io.tables`: a table of predictions, statistics or scores from CSV, TSV or parquet;
- :mod:`simstats.io.predictions`: per-item statistics from predictions and gold labels, or from a long
  table of statistics, and the items' cluster ids;
- :mod:`simstats.io.runs`: runs of approaches (several seeds per system);
- :mod:`simstats.io.suite`: a suite of tasks (runs, scores or items per model and task);
- the readers of evaluation logs, one module per format, one table shape out
  (:data:`simstats.io.formats.COLUMNS`): :mod:`~simstats.io.lm_eval` (lm-evaluation-harness),
  :mod:`~simstats.io.inspect` (inspect_ai), :mod:`~simstats.io.helm` (HELM), :mod:`~simstats.io.mt`
  (translations scored by sacrebleu), :mod:`~simstats.io.scores` (a long table of item scores);
  :mod:`~simstats.io.formats` recognises a log's format, and :mod:`~simstats.io.paired` joins the
  models on the items of a task;
- :mod:`simstats.io.checks`: the input checks and :class:`~simstats.io.checks.InputError`.

Writing: :mod:`simstats.io.write` (atomic files, Markdown tables, figures, job logs) and
:mod:`simstats.io.competition` (a competition's tables, report and figures).
"""
