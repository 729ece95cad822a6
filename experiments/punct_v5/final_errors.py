"""Where the default's sentence F1 is lost, tune juan: a sentence-final mark of ours where the edition
has a non-final mark (class) or none (break), an edition's final mark where ours is non-final
(class) or missing (break); and the sentence F1 our breaks would have with every mark's class
taken from the edition (docs/segmentation.md, "Stop 38"). Reads no dev juan.

    python experiments/punct_v5/final_errors.py [SEGMENTER_DIR]
"""
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "experiments/punct_v4"))

from context_prior_tune import tune_records  # noqa: E402

from pipeline import paths  # noqa: E402
from pipeline.evaluate.segment import record_passages  # noqa: E402
from pipeline.model import SENTENCE_FINAL  # noqa: E402
from pipeline.segment import load_segmenter  # noqa: E402
from pipeline.segment.data import record_kind  # noqa: E402

seg = load_segmenter(Path(sys.argv[1]) if len(sys.argv) > 1 else paths.SEGMENTER_DEFAULT)
for name in ("KR1d0003", "KR1d0053", "KR1d0030"):
    recs = tune_records(name)
    pred = seg.predict([r["text"] for r in recs], [record_kind(r) for r in recs], books=[name]*len(recs), passages=record_passages(recs))
    c = Counter()
    for r, p in zip(recs, pred):
        n = len(r["text"]); g = {int(k): v for k, v in r["marks"].items() if 0 < int(k) < n}
        p = {int(k): v for k, v in p.items() if 0 < int(k) < n}
        gf = {k for k, v in g.items() if v in SENTENCE_FINAL}; pf = {k for k, v in p.items() if v in SENTENCE_FINAL}
        c["tp"] += len(gf & pf); c["gold"] += len(gf); c["pred"] += len(pf)
        for k in pf - gf:
            c["fp_class" if k in g else "fp_nobreak"] += 1
        for k in gf - pf:
            c["fn_class" if k in p else "fn_nobreak"] += 1
        # oracle class on our breaks: finals where both break and gold final
        c["oracle_class_tp"] += len(gf & set(p)); c["oracle_class_pred"] += len({k for k in p if k in gf} | (pf - set(g)))
    f1 = 2*c["tp"]/(c["gold"]+c["pred"])
    oc = 2*c["oracle_class_tp"]/(c["gold"]+c["oracle_class_pred"])
    print(name, dict(c), f"sentF1 {f1:.4f} oracle-class-on-our-breaks {oc:.4f}")
