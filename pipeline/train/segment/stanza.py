"""Training the Stanza tokenizer of the hybrid segmenter (pipeline/segment/stanza.py), with
Stanza's own loop (`stanza.models.tokenizer`, CPU, from files written here; nothing is
downloaded), seeded; paths stripped from the saved file so that retrains are byte-identical."""

from __future__ import annotations

import tempfile
from pathlib import Path

from pipeline.model import SENTENCE_FINAL
from pipeline.segment.data import LABELS, labels_of


# Measured on the dev split (docs/segmentation.md): emb 64 / hidden 128 is 4.8 points of seg F1
# above Stanza's defaults (emb 32 / hidden 64); 8,000 steps of 32 x 100 characters.
STANZA_ARGS = {"steps": 8000, "hidden_dim": 128, "emb_dim": 64}


def stanza_labels(text: str, marks: dict[int, str]) -> str:
    """Stanza's label per character, from the BiLSTM's: no mark 0, 。？！ 2, any other mark 1."""
    return "".join("0" if lab == 0 else "2" if LABELS[lab] in SENTENCE_FINAL else "1" for lab in labels_of(text, marks))


def write_split(records: list[dict], stem: Path) -> None:
    """One unit a paragraph ("\\n\\n" between them), as Stanza's DataLoader reads them."""
    stem.with_suffix(".txt").write_text("\n\n".join(r["text"] for r in records) + "\n", encoding="utf-8")
    stem.with_suffix(".toklabels").write_text(
        "\n\n".join(stanza_labels(r["text"], r["marks"]) for r in records) + "\n", encoding="utf-8")


def _usable(records: list[dict]) -> list[dict]:
    # Stanza splits paragraphs on blank lines and strips whitespace: units must have none.
    return [r for r in records if r["text"] and r["text"].strip() == r["text"] and "\n" not in r["text"]]


def train_stanza(train_recs: list[dict], tune_recs: list[dict], model_file: str | Path, *, seed: int = 1234,
                 steps: int = STANZA_ARGS["steps"], hidden_dim: int = STANZA_ARGS["hidden_dim"],
                 emb_dim: int = STANZA_ARGS["emb_dim"], extra_args: list[str] | None = None) -> Path:
    """Train a tokenizer on train_recs (tune_recs: Stanza's dev set for checkpoint selection and
    its learning-rate schedule) and write it to model_file."""
    from stanza.models import tokenizer

    model_file = Path(model_file)
    model_file.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        write_split(_usable(train_recs), work / "train")
        write_split(_usable(tune_recs), work / "tune")
        (work / "mwt.json").write_text("[]\n", encoding="utf-8")  # no multi-word tokens; Stanza wants the file
        tokenizer.main(["--mode", "train", "--lang", "lzh", "--shorthand", "lzh_zhushu",
                        "--txt_file", str(work / "train.txt"), "--label_file", str(work / "train.toklabels"),
                        "--dev_txt_file", str(work / "tune.txt"), "--dev_label_file", str(work / "tune.toklabels"),
                        "--mwt_json_file", str(work / "mwt.json"), "--no_use_mwt",
                        "--save_dir", str(model_file.parent), "--save_name", model_file.name,
                        "--steps", str(steps), "--eval_steps", "500", "--seed", str(seed), "--device", "cpu",
                        "--hidden_dim", str(hidden_dim), "--emb_dim", str(emb_dim), *(extra_args or [])])
    _strip_paths(model_file)
    return model_file


def _strip_paths(model_file: Path) -> None:
    """Stanza saves its arguments with the model, among them the temporary training paths: keep
    only the file names, so that a retrain writes the same bytes."""
    import torch

    checkpoint = torch.load(model_file, map_location="cpu", weights_only=False)  # our own file, just written
    config = checkpoint["config"]
    for key in ("txt_file", "label_file", "mwt_json_file", "dev_txt_file", "dev_label_file", "save_name"):
        if isinstance(config.get(key), str):
            config[key] = Path(config[key]).name
    config["save_dir"] = "."  # the model's own folder
    torch.save(checkpoint, model_file)
