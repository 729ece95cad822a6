"""A Stanza tokenizer (Qi et al. 2018: character conv + BiLSTM with a second "hierarchical" RNN)
trained here as a clause/sentence breaker: the second model family of the hybrid segmenter.

Stanza labels each character 0 (inside), 1 (token end) or 2 (sentence end). A "token" here is a
clause: a character followed by 。？！ is labelled 2, one followed by any other mark 1. Each unit
is one paragraph, so nothing crosses units. Training is Stanza's own loop
(`stanza.models.tokenizer`, CPU, from files written here; nothing is downloaded), seeded.
Requires the optional dependency `stanza` (`pip install -e ".[stanza]"`).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np



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
