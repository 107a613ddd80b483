"""Readers of evaluation outputs: one module per format, one table shape out.

Every reader returns a long table with the columns of :data:`COLUMNS`: the model, the task, the
item id, the item's score (one sample), the sample's epoch (repeat), the item's cluster and, where
the format has one, the item's content hash.  :func:`simstats.readers.paired.paired_scores` turns
such a table into the per-item statistics the tests take.
"""
from __future__ import annotations

#: The columns every reader returns (``cluster`` and ``item_hash`` may be empty).
COLUMNS = ("model", "task", "item", "score", "epoch", "cluster", "item_hash")
