"""A Stanza tokenizer (Qi et al. 2018: character conv + BiLSTM with a second "hierarchical" RNN)
trained here as a clause/sentence breaker: the second model family of the hybrid segmenter.

Stanza labels each character 0 (inside), 1 (token end) or 2 (sentence end). A "token" here is a
clause: a character followed by 。？！ is labelled 2, one followed by any other mark 1. Each unit
is one paragraph, so nothing crosses units. Training is Stanza's own loop
(`stanza.models.tokenizer`, CPU, from files written here; nothing is downloaded), seeded.
Requires the optional dependency `stanza` (`pip install -e ".[stanza]"`).
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import numpy as np

from pipeline.model import SENTENCE_FINAL
from pipeline.segmenter_data import LABELS, labels_of

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


class StanzaBreaker:
    """A trained Stanza tokenizer: per character, P(no break), P(clause end), P(sentence end)."""

    name = "stanza"

    def __init__(self, model_file: str | Path):
        try:
            from stanza.models.tokenization.trainer import Trainer
        except ImportError as err:  # an optional dependency: say how to get it
            raise ImportError(f"{model_file} is a Stanza model: pip install -e \".[stanza]\"") from err

        self.trainer = Trainer(model_file=str(model_file), device="cpu")
        self.args = dict(self.trainer.args)

    def probs(self, texts: list[str]) -> list[np.ndarray]:
        """(n, 3) per text, from the model's log-probabilities; batched by Stanza's sorted loader."""
        import torch
        from stanza.models.tokenization.data import SortedDataset, TokenizationDataset
        from torch.utils.data import DataLoader

        out: list[np.ndarray] = [np.zeros((0, 3), dtype=np.float32)] * len(texts)
        idx = [i for i, t in enumerate(texts) if t]
        if not idx:
            return out
        data = TokenizationDataset(self.args, input_text="\n\n".join(texts[i] for i in idx), vocab=self.trainer.vocab,
                                   evaluation=True, dictionary=self.trainer.dictionary)
        ordered = SortedDataset(data)
        probs = []
        with torch.inference_mode():
            for batch in DataLoader(ordered, batch_size=self.args["batch_size"], collate_fn=ordered.collate):
                p = np.exp(self.trainer.predict(batch))
                for j, para in enumerate(batch[3]):
                    para = list(para)
                    probs.append(p[j, : para.index("<PAD>") if "<PAD>" in para else len(para)])
        probs = ordered.unsort(probs)
        if len(probs) != len(idx):
            raise RuntimeError(f"stanza returned {len(probs)} paragraphs for {len(idx)} units")
        for i, p in zip(idx, probs):
            if len(p) != len(texts[i]):
                raise RuntimeError(f"stanza returned {len(p)} positions for a unit of {len(texts[i])} characters")
            out[i] = p
        return out

    def predict(self, texts: list[str], kinds: list[str]) -> list[dict[int, str]]:
        """Marks on their own (， for a clause end, 。 for a sentence end): the benchmark's view."""
        out = []
        for p in self.probs(texts):
            lab = p.argmax(axis=1)
            out.append({i + 1: ("。" if lab[i] == 2 else "，") for i in np.nonzero(lab)[0].tolist()})
        return out
