"""`zhushu train segmenter` for the GPU machine, without the CLI module (whose imports need the
export stage's packages, not in that machine's image): the same overrides the CLI builds for
--recipe v2/v3 --layers --hidden --zhushu-frac --outside-frac --epochs --batch-chars --device
--outside --time-limit --stop-after."""

import argparse
import json
import sys

from pipeline.train.segment import V2_OVERRIDES, V3_OVERRIDES, train_segmenter

ap = argparse.ArgumentParser()
ap.add_argument("--recipe", choices=["v2", "v3"], default="v3")
ap.add_argument("--out", required=True)
ap.add_argument("--layers", type=int, default=None)
ap.add_argument("--hidden", type=int, default=None)
ap.add_argument("--zhushu-frac", type=float, default=None)
ap.add_argument("--outside-frac", type=float, default=None)
ap.add_argument("--epochs", type=int, default=None)
ap.add_argument("--batch-chars", type=int, default=None)
ap.add_argument("--device", default=None)
ap.add_argument("--outside", default=None)
ap.add_argument("--time-limit", type=float, default=None)
ap.add_argument("--stop-after", type=int, default=None)
a = ap.parse_args()
overrides = dict(V3_OVERRIDES if a.recipe == "v3" else V2_OVERRIDES)
arch = {k: v for k, v in (("layers", a.layers), ("hidden", a.hidden)) if v}
if arch:
    overrides["arch"] = arch
for key, value in (("zhushu_frac", a.zhushu_frac), ("outside_frac", a.outside_frac), ("epochs", a.epochs),
                   ("batch_chars", a.batch_chars), ("device", a.device), ("outside_file", a.outside),
                   ("time_limit", a.time_limit), ("stop_after", a.stop_after)):
    if value is not None:
        overrides[key] = value
cfg = train_segmenter(a.out, "bilstm", log=lambda m: print(m, file=sys.stderr, flush=True), **overrides)
print(json.dumps({k: v for k, v in cfg.items() if k not in ("chars", "bigrams")}, ensure_ascii=False))
