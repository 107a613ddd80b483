"""Per-sentence BLEU statistics of the 16 WMT17 en-de systems that ship with sacrebleu's sources.

    python tests/data/wmt17_en_de_bleu.py path/to/sacrebleu-2.6.0.tar.gz   # about 20 s

Reads ``sacrebleu-2.6.0/test/wmt17_en_de_systems.pkl.bz2`` from the sacrebleu source
distribution (``pip download --no-binary :all: --no-deps sacrebleu==2.6.0``; the extracted
``.pkl.bz2`` itself may be given instead) and rewrites, next to this script:

* ``wmt17_en_de_bleu_statistics.csv.gz``: the ``simstats compare --statistics --metric bleu``
  table, one row per system and sentence: ``system,item,sys_len,ref_len,correct_1..4,total_1..4``
  (integers), from ``sacrebleu.metrics.BLEU()._extract_corpus_statistics(hyps, [refs])`` with
  sacrebleu's defaults (tokenizer 13a, 4-grams, case-sensitive); gzip level 9, mtime 0.
* ``wmt17_en_de_bleu_reference.csv``: per system sacrebleu's ``BLEU().corpus_score(hyps,
  [refs]).score`` and sacrebleu's paired-bootstrap p-value (``PairedTest(..., test_type="bs",
  n_samples=1000)``, ``SACREBLEU_SEED=12345``, i.e. ``sacrebleu --paired-bs``) against the
  first system of the pickle, the baseline of sacrebleu's own test/test_significance.py.

The installed sacrebleu must be the version of the sdist (checked). See wmt17_en_de_bleu.md.
"""
from __future__ import annotations

import bz2
import csv
import gzip
import hashlib
import io
import os
import pickle
import sys
import tarfile
from pathlib import Path

MEMBER = "test/wmt17_en_de_systems.pkl.bz2"
#: sha256 of the member in sacrebleu 2.6.0's sdist (sacrebleu-2.6.0.tar.gz, sha256 91499b6c...c566).
MEMBER_SHA256 = "14832609e37173f0c603a1e27d8fe7af46bcbe6ac0b2a894605d6db98ee117e3"
SACREBLEU_VERSION = "2.6.0"
HERE = Path(__file__).resolve().parent
STATISTICS_CSV = HERE / "wmt17_en_de_bleu_statistics.csv.gz"
REFERENCE_CSV = HERE / "wmt17_en_de_bleu_reference.csv"
COLUMNS = ["sys_len", "ref_len", *(f"correct_{n}" for n in range(1, 5)), *(f"total_{n}" for n in range(1, 5))]
BS_SEED, BS_SAMPLES = "12345", 1000


class _PlainUnpickler(pickle.Unpickler):
    """Lists, tuples and strings only: the pickle may not import anything."""

    def find_class(self, module, name):
        raise pickle.UnpicklingError(f"refusing to load {module}.{name} from the WMT17 pickle")


def read_pickle_bytes(path: Path) -> bytes:
    """The bz2-compressed pickle, from the sdist (.tar.gz) or the extracted .pkl.bz2."""
    if path.name.endswith(".pkl.bz2"):
        return path.read_bytes()
    with tarfile.open(path, "r:gz") as tar:
        member = next((m for m in tar.getmembers() if m.name.split("/", 1)[-1] == MEMBER), None)
        if member is None:
            raise SystemExit(f"{path}: no {MEMBER} in the archive")
        return tar.extractfile(member).read()


def load_systems(raw: bytes):
    """([(name, hypotheses)] x 16, references): the pickle is 16 (name, lines) pairs, then
    ("reference", [lines]) - one reference stream, as sacrebleu's test_significance.py pops it."""
    data = _PlainUnpickler(io.BytesIO(bz2.decompress(raw))).load()
    ref_name, refs = data[-1]
    assert ref_name == "reference" and len(refs) == 1, (ref_name, len(refs))
    systems = [(name, list(hyps)) for name, hyps in data[:-1]]
    assert len(systems) == 16 and all(len(h) == len(refs[0]) for _, h in systems)
    return systems, refs[0]


def main(argv: list[str]) -> None:
    if len(argv) != 1:
        raise SystemExit(__doc__)
    import sacrebleu
    from sacrebleu.metrics import BLEU
    from sacrebleu.significance import PairedTest

    if sacrebleu.__version__ != SACREBLEU_VERSION:
        raise SystemExit(f"sacrebleu {sacrebleu.__version__} is installed; the fixture is from {SACREBLEU_VERSION}")
    raw = read_pickle_bytes(Path(argv[0]))
    digest = hashlib.sha256(raw).hexdigest()
    if digest != MEMBER_SHA256:
        raise SystemExit(f"{MEMBER}: sha256 {digest}, expected {MEMBER_SHA256}")
    systems, refs = load_systems(raw)

    text = io.StringIO()
    out = csv.writer(text, lineterminator="\n")
    out.writerow(["system", "item", *COLUMNS])
    scores = {}
    for name, hyps in systems:
        rows = BLEU()._extract_corpus_statistics(hyps, [refs])
        assert len(rows) == len(hyps) and all(len(r) == len(COLUMNS) for r in rows)
        for item, row in enumerate(rows):
            assert all(float(v) == int(v) >= 0 for v in row)
            out.writerow([name, item, *(int(v) for v in row)])
        scores[name] = BLEU().corpus_score(hyps, [refs]).score
        # the summed statistics give sacrebleu's own corpus score (sacrebleu's path, not simstats')
        sums = [sum(int(r[k]) for r in rows) for k in range(len(COLUMNS))]
        assert BLEU()._compute_score_from_stats(sums).score == scores[name], name

    buffer = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=buffer, compresslevel=9, mtime=0) as gz:
        gz.write(text.getvalue().encode("utf-8"))
    STATISTICS_CSV.write_bytes(buffer.getvalue())

    os.environ["SACREBLEU_SEED"] = BS_SEED
    _, bs = PairedTest(systems, {"BLEU": BLEU()}, references=[refs], test_type="bs", n_samples=BS_SAMPLES)()
    assert list(bs["System"]) == [name for name, _ in systems]
    baseline = systems[0][0]
    with REFERENCE_CSV.open("w", newline="") as f:
        out = csv.writer(f, lineterminator="\n")
        out.writerow(["system", "bleu", "bs_baseline", "bs_pvalue"])
        for (name, _), result in zip(systems, bs["BLEU"]):
            assert abs(result.score - scores[name]) < 1e-9
            out.writerow([name, repr(scores[name]), "" if name == baseline else baseline,
                          "" if result.p_value is None else repr(result.p_value)])
    for path in (STATISTICS_CSV, REFERENCE_CSV):
        print(f"{path.relative_to(HERE.parent.parent)}: {path.stat().st_size} bytes")
    print(REFERENCE_CSV.read_text())


if __name__ == "__main__":
    main(sys.argv[1:])
