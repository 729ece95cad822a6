"""Carry a BiLSTM segmenter folder back from the GPU machine within its limits on returned files
(at most 16 MiB a file, 64 MiB together): `pack DIR OUTDIR NAME` writes the folder's config.json
(xz) and its weights with every float tensor in float16 (the embeddings are saved so already; the
LSTM's float32 weights are rounded), cut into pieces of 16 MB; `unpack OUTDIR NAME DIR` joins
them into a folder the pipeline loads, the LSTM back in float32 (the rounded values: what is
measured here is that model).

    python experiments/punct_gpu/transport.py pack  runs/A  $OUT A
    python experiments/punct_gpu/transport.py unpack FILES_AT A models/segmenter-gpu-A
"""

from __future__ import annotations

import io
import lzma
import sys
from pathlib import Path

import torch

PIECE = 16_000_000  # under the 16 MiB a returned file may have


def pack(folder: Path, out: Path, name: str) -> None:
    sd = torch.load(folder / "weights.pt", map_location="cpu", weights_only=True)
    half = {k: (v.half() if v.is_floating_point() else v) for k, v in sd.items()}
    buf = io.BytesIO()
    torch.save(half, buf)
    data = buf.getvalue()
    for i in range(0, len(data), PIECE):
        (out / f"{name}.weights.{i // PIECE:02d}").write_bytes(data[i:i + PIECE])
    (out / f"{name}.config.json.xz").write_bytes(lzma.compress((folder / "config.json").read_bytes()))


def unpack(src: Path, name: str, folder: Path) -> None:
    ref = torch.load(io.BytesIO(b"".join(p.read_bytes() for p in sorted(src.glob(f"{name}.weights.*")))),
                     map_location="cpu", weights_only=True)
    folder.mkdir(parents=True, exist_ok=True)
    # as NeuralSegmenter.save writes them: the embeddings float16, the rest float32
    sd = {k: (v if "char.weight" in k or "bigram.weight" in k else v.float()) if v.is_floating_point() else v
          for k, v in ref.items()}
    torch.save(sd, folder / "weights.pt")
    (folder / "config.json").write_bytes(lzma.decompress((src / f"{name}.config.json.xz").read_bytes()))


if __name__ == "__main__":
    verb, a, b, c = sys.argv[1:5]
    if verb == "pack":
        pack(Path(a), Path(b), c)
    else:
        unpack(Path(a), b, Path(c))
