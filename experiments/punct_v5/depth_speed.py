"""Stop 35: speed of a 3-layer BiLSTM against v4 (2 layers) on the 周禮注疏 dev split, one thread:
the 3-layer net here has random weights in v4's shape (speed does not depend on the weights), so the
ratio can be read before a 3-layer model is trained."""
import copy, time, torch, os
from pipeline import paths
from pipeline.segment import read_segmenter
from pipeline.segment.data import read_records, MARKER_KIND
torch.set_num_threads(1)
v4 = read_segmenter(paths.MODELS / "segmenter-v5")  # measured at stop 35 with segmenter-v4: the same 2x192 shape
m = v4.backend.model
v3 = copy.copy(v4); v3.backend = copy.copy(v4.backend); v3.backend.model = copy.deepcopy(m)
r = m.rnn
v3.backend.model.rnn = torch.nn.LSTM(r.input_size, r.hidden_size, num_layers=3, bidirectional=True, batch_first=True).eval()
recs = [r for r in read_records(paths.DATA / "punct" / "KR1d0003.punct.jsonl", split="dev") if r["text"]]
texts = [r["text"] for r in recs][:600]
kinds = ["base" if r["kind"] == "base" else MARKER_KIND.get(r.get("marker") or "", "note") for r in recs][:600]
bs = ["KR1d0003"] * len(texts); n = sum(map(len, texts))
best = {"2": 0, "3": 0}
for _ in range(3):
    for name, s in (("2", v4), ("3", v3)):
        t0 = time.perf_counter(); s.predict(texts, kinds, books=bs); best[name] = max(best[name], n / (time.perf_counter() - t0))
print(n, {k: round(v) for k, v in best.items()}, round(best["3"] / best["2"], 3), os.getloadavg()[0])
