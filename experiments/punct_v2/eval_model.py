"""Dev table row of a model folder: python experiments/punct_v2/eval_model.py DIR NAME [--float]"""
import sys

from common import ROOT, NeuralSegmenter, dev_table, short

folder, name = sys.argv[1], sys.argv[2]
seg = NeuralSegmenter.load(folder, quantize="--float" not in sys.argv)
print(short(dev_table(seg, name, ROOT / "experiments/punct_v2/results.jsonl")))
