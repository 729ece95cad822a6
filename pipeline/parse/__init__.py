"""The `parse` stage: words, UPOS, XPOS, FEATS, lemma, HEAD and DEPREL for every restored
sentence, with UD-Kanbun (`udkanbun`: its MeCab dictionary for words and tags, its UDPipe
model, trained on the UD Classical Chinese Kyoto treebank, for the trees; both ship in the
wheel, nothing is downloaded).

    parser = ParseStage.load()            # loads UD-Kanbun once per process
    doc = parser(doc)                     # fills unit.words (pipeline.model.Word) of every text unit

What we feed it, per restored sentence (pipeline.model.Sentence; a unit that was not segmented
is one sentence):

- the sentence's characters in NFC (a CJK compatibility ideograph is parsed as its unified
  character; Word.form keeps the NFC form, the offsets keep pointing into the original text);
- the words only: our restored marks are not given to UDPipe (the treebank it learnt from
  has no punctuation); each becomes a PUNCT token (`，` `、` … tagged as MeCab tags them), a
  `punct` leaf attached without crossing an arc (`_attach_marks`), never a root or a head;
- a sentence longer than MAX_PARSE_TOKENS in pieces cut at a mark (a clause), the later
  pieces' roots attached to the first's as `parataxis`;
- layout whitespace (the U+3000 of header lines) is not a word: it is left out;
- a Kanripo character (`&KRnnnn;`, a private-use character in unit text) is one NOUN word;
- word boundaries at every edge of an entity of the tag stage; with `merge_names` (the
  default) the characters of a multi-character entity are one word (a name is a word, as the
  treebank's multi-character names are), so a ritual name is never split across subtrees.
  `split_names` in pipeline/evaluate/parse.py measures how often UD-Kanbun splits them when
  they are not merged (docs/parsing.md).
"""

from __future__ import annotations

import unicodedata
from bisect import bisect_left, bisect_right
from dataclasses import dataclass

from pipeline.model import SENTENCE_FINAL, Document, Unit, Word, sentences_of
from pipeline.pua import has_kanripo, is_kanripo_char
from pipeline.stage import Stage

# XPOS (UD-Kanbun's 4-field tags) of what MeCab cannot tag for us
PUNCT_XPOS = {True: "s,記号,句点,*", False: "s,記号,読点,*"}  # sentence-final or not
PUA_TAGS = ("NOUN", "n,名詞,*,*")
NAME_TAGS = {  # a merged entity: NOUN with the treebank's tag for that kind of noun
    "ROLE": ("NOUN", "n,名詞,人,役割"),
    "PLACE": ("NOUN", "n,名詞,固定物,建造物"),
    "OBJECT": ("NOUN", "n,名詞,可搬,道具"),
    "MUSIC": ("NOUN", "n,名詞,制度,儀礼"),
}
# the longest stretch given to UDPipe as one sentence: its parse time grows with the square
# of the length, and a long sentence leaves UDPipe slower for every later one in the process
# (after the unsegmented 3,470-character prefaces of 禮記註疏 juan 0, every later juan parsed
# 2.6x slower, measured)
MAX_PARSE_TOKENS = 100
PLACEHOLDER = "物"  # what MeCab sees for a Kanripo character (its tags are then replaced)


@dataclass
class Token:
    """A word before parsing: span in unit text, NFC form and tags."""

    start: int
    end: int
    form: str
    lemma: str
    upos: str
    xpos: str
    feats: str


class Parser:
    """UD-Kanbun's MeCab (words, tags) and UDPipe (trees), loaded once."""

    def __init__(self, merge_names: bool = True):
        import udkanbun

        self.udkanbun_version = getattr(udkanbun, "VERSION", None) or _version("udkanbun")
        lzh = udkanbun.load(MeCab=True, Danku=False)
        self._lzh = lzh  # keeps UDPipe's Model alive: the Pipeline does not own it (freeing it segfaults)
        self.mecab = lzh.mecab
        self.udpipe = lzh.udpipe  # ufal.udpipe.Pipeline(model, "conllu", tagger "none", parser default)
        self.merge_names = merge_names
        self._tags: dict[tuple[str | None, str, bool], tuple[str, str, str, str, str]] = {}  # _token's, by its input

    # -- words -------------------------------------------------------------------------------

    def tokenize(self, text: str, start: int, end: int, cuts: set[int], names: list[tuple[int, int, str]]) -> list[Token]:
        """Words of text[start:end] (whitespace left out), cut at `cuts` (unit offsets), the
        `names` spans (start, end, label) merged into one word each when merge_names."""
        span = text[start:end]
        if any(map(str.isspace, span)):
            chars = [(k, text[k]) for k in range(start, end) if not text[k].isspace()]
        else:  # (most sentences: no layout whitespace)
            chars = list(zip(range(start, end), span))
        if not chars:
            return []
        kanripo = has_kanripo(span)  # (most sentences have none)
        if unicodedata.is_normalized("NFC", span):
            nfc = [ch for _, ch in chars]
        else:
            nfc = [unicodedata.normalize("NFC", ch) for _, ch in chars]
        if kanripo:
            fed = "".join(PLACEHOLDER if is_kanripo_char(ch) else n for (_, ch), n in zip(chars, nfc))
        else:
            fed = "".join(nfc)
        analysed: list[tuple[str, str]] = []  # surface, MeCab's feature string
        for line in self.mecab.parse(fed).split("\n"):
            if not line or line == "EOS" or "\t" not in line:
                continue
            surface, feats = line.split("\t", 1)
            analysed.append((surface, feats))
        pieces: list[tuple[int, int, str | None]] = []  # char index range into `chars`, MeCab's features
        pos = 0
        if "".join(s for s, _ in analysed) == fed:
            for surface, f in analysed:
                pieces.append((pos, pos + len(surface), f))
                pos += len(surface)
        else:  # MeCab changed the string (should not happen): characters, untagged
            pieces = [(i, i + 1, None) for i in range(len(chars))]
        # cut at entity edges, Kanripo characters, sentence-internal marks and whitespace gaps
        bounds = set(cuts)
        if kanripo or len(chars) != end - start:
            for i, (k, ch) in enumerate(chars):
                if is_kanripo_char(ch):
                    bounds |= {k, k + 1}
                if i and chars[i - 1][0] != k - 1:
                    bounds.add(k)
        tokens: list[Token] = []
        token = self._token
        for a, b, f in pieces:
            if b == a + 1:  # one character (most words): nothing to cut
                tokens.append(token(chars, a, b, nfc[a], f, True, kanripo))
                continue
            seg = [a]
            for i in range(a + 1, b):
                if chars[i][0] in bounds:
                    seg.append(i)
            seg.append(b)
            whole = len(seg) == 2
            for x, y in zip(seg, seg[1:]):
                form = "".join(nfc[x:y])
                tokens.append(token(chars, x, y, form, f, whole, kanripo))
        if self.merge_names:
            tokens = _merge(tokens, names, text)
        return tokens

    def _token(self, chars, x: int, y: int, form: str, features: str | None, whole: bool, kanripo: bool = True) -> Token:
        s, e = chars[x][0], chars[y - 1][0] + 1
        if kanripo and y - x == 1 and is_kanripo_char(chars[x][1]):
            return Token(s, e, chars[x][1], chars[x][1], PUA_TAGS[0], PUA_TAGS[1], "_")
        key = (features, form, whole)
        tags = self._tags.get(key)
        if tags is None:  # (a few thousand keys a book: most words recur)
            tags = self._tags[key] = _tags(form, features.split(",") if features is not None else None, whole)
        return Token(s, e, *tags)

    # -- trees -------------------------------------------------------------------------------

    def parse_unit(self, unit: Unit, entities: bool = True) -> list[Word]:
        """The words of every sentence of a unit, parsed in one UDPipe call."""
        sents: list[tuple[int, list[Token | str]]] = []  # sentence index, tokens with marks (str) at their places
        names = [(e.start, e.end, e.label) for e in unit.entities] if entities else []
        marks = sorted(unit.marks)
        name_edges = {k for s, e, _ in names for k in (s, e)}
        for si, sent in enumerate(sentences_of(unit)):
            inner = marks[bisect_right(marks, sent.start) : bisect_left(marks, sent.end)]
            cuts = set(inner) | name_edges
            sn = [n for n in names if sent.start <= n[0] and n[1] <= sent.end and not any(n[0] < k < n[1] for k in inner)]
            toks = self.tokenize(unit.text, sent.start, sent.end, cuts, sn)
            if not toks:
                continue
            seq: list = []  # the words, each mark (offset, mark) after the word it follows
            placed = set()
            for tok in toks:
                seq.append(tok)
                if tok.end in unit.marks and (tok.end in inner or tok.end == sent.end):
                    seq.append((tok.end, unit.marks[tok.end]))
                    placed.add(tok.end)
            # a mark after whitespace (no word ends there): after the word before it
            for k in sorted((set(inner) | ({sent.end} & set(unit.marks))) - placed):
                at = max((i for i, x in enumerate(seq) if not isinstance(x, tuple) and x.end <= k), default=None)
                if at is not None:
                    while at + 1 < len(seq) and isinstance(seq[at + 1], tuple):
                        at += 1
                    seq.insert(at + 1, (k, unit.marks[k]))
            sents.append((si, seq))
        if not sents:
            return []
        # UDPipe gets the words only (the treebank it was trained on has no punctuation), in
        # pieces of at most MAX_PARSE_TOKENS; our marks are attached afterwards (_attach_marks)
        plan = [[p for p in ([x for x in piece if not isinstance(x, tuple)] for piece in _pieces(seq, MAX_PARSE_TOKENS)) if p]
                for _si, seq in sents]
        trees = iter(self.parse_conllu(_conllu([p for ps in plan for p in ps])))
        words: list[Word] = []
        for (si, seq), ps in zip(sents, plan):
            tree: list[tuple[int, str]] = []  # over the words of the sentence
            root = 0  # the first piece's root (1-based)
            for piece in ps:
                got = next(trees, None)
                if got is None or len(got) != len(piece):  # UDPipe returned another tokenization (should not happen): flat
                    got = [(0, "root")] + [(1, "dep")] * (len(piece) - 1)
                offset = len(tree)
                for h, rel in got:
                    if h == 0 and root:  # a later piece's root: parataxis under the first piece's
                        tree.append((root, "parataxis"))
                    else:
                        tree.append((h + offset if h else 0, rel))
                root = root or next((i + 1 for i, (h, _) in enumerate(tree) if h == 0), 0)
            words.extend(_words(si, seq, _attach_marks(seq, tree)))
        return words

    def parse_conllu(self, text: str) -> list[list[tuple[int, str]]]:
        """(head, deprel) of every token of every sentence of a CoNLL-U string."""
        out: list[list[tuple[int, str]]] = []
        cur: list[tuple[int, str]] = []
        for line in self.udpipe.process(text).split("\n"):
            if not line:
                if cur:
                    out.append(cur)
                    cur = []
                continue
            if line.startswith("#"):
                continue
            cols = line.split("\t")
            if "-" in cols[0] or "." in cols[0]:
                continue
            cur.append((int(cols[6]), cols[7]))
        if cur:
            out.append(cur)
        return out


def _version(dist: str) -> str | None:
    try:
        from importlib.metadata import version

        return version(dist)
    except Exception:
        return None


def _tags(form: str, f: list[str] | None, whole: bool) -> tuple[str, str, str, str, str]:
    """(form, lemma, upos, xpos, feats) of a word from MeCab's fields (None: MeCab gave none);
    `whole`: the word is MeCab's whole word, not a piece of it cut at one of our boundaries."""
    if f is None or len(f) < 9:
        return form, form, "X", "_", "_"
    lemma = f[6] if f[6] != "*" else form
    lemma = lemma.split("/")[0] if whole else form
    upos = f[7] if f[7] != "*" else "X"
    if upos == "PUNCT" or upos == "SYM":  # a character MeCab does not know, not a mark of ours
        upos = "X" if upos == "PUNCT" else upos
    feats = f[8].replace("*", "_") if whole else "_"
    return form, lemma or form, upos, ",".join(f[:4]), feats or "_"


def _merge(tokens: list[Token], names: list[tuple[int, int, str]], text: str) -> list[Token]:
    """Tokens inside each multi-token name span merged into one word."""
    if not names:  # (most sentences)
        return tokens
    out: list[Token] = []
    by_start: dict[int, list[tuple[int, int, str]]] = {}
    for n in sorted(names):
        by_start.setdefault(n[0], []).append(n)
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        starting = by_start.get(tok.start)
        span = next((n for n in starting if n[1] > tok.end), None) if starting else None
        if span is not None:
            j = i
            while j + 1 < len(tokens) and tokens[j + 1].end <= span[1]:
                j += 1
            if j > i and tokens[j].end == span[1]:
                group = tokens[i : j + 1]
                form = "".join(t.form for t in group)
                upos, xpos = NAME_TAGS.get(span[2], ("NOUN", "n,名詞,*,*"))
                out.append(Token(tok.start, span[1], form, form, upos, xpos, "_"))
                i = j + 1
                continue
        out.append(tok)
        i += 1
    return out


def _pieces(seq: list, limit: int) -> list[list]:
    """`seq` cut into pieces of at most `limit` tokens, each ending at a mark where one falls
    within the limit (a clause), else at a word boundary."""
    out: list[list] = []
    while len(seq) > limit:
        cut = max((i + 1 for i in range(limit // 2, limit) if isinstance(seq[i], tuple)), default=limit)
        out.append(seq[:cut])
        seq = seq[cut:]
    return out + [seq] if seq else out


def _field(s: str) -> str:
    if "\t" in s or "\n" in s:
        s = s.replace("\t", " ").replace("\n", " ")
    return s or "_"


def _conllu(pieces: list[list[Token]]) -> str:
    lines: list[str] = []
    for piece in pieces:
        for j, x in enumerate(piece, start=1):
            form = x.form
            if has_kanripo(form):
                form = "".join(PLACEHOLDER if is_kanripo_char(ch) else ch for ch in form)
            lines.append(f"{j}\t{_field(form)}\t{_field(x.lemma if form == x.form else form)}\t{x.upos}\t{x.xpos}\t{x.feats}\t_\t_\t_\t_")
        lines.append("")
    return "\n".join(lines) + "\n"


def _attach_marks(seq: list, word_tree: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """The tree over `seq` (words and marks) from the tree over its words: each mark a `punct`
    leaf under the highest word it can hang from without crossing an arc (as udapi's
    ud.FixPunct does): climbing from the word before it while that word's subtree stays left
    of the mark and its head is too, the same from the word after it, and of the two the
    lower (the left one when neither is below the other)."""
    pos = [i for i, x in enumerate(seq) if not isinstance(x, tuple)]  # word index -> seq index
    n = len(seq)
    head = [-1] * n  # seq index of the head, -1: the root
    for w, (h, _) in enumerate(word_tree):
        head[pos[w]] = pos[h - 1] if h else -1
    lo, hi = list(range(n)), list(range(n))  # the span of each word's subtree
    for i in pos:
        j, seen = head[i], 0
        while j >= 0 and seen < n:
            lo[j], hi[j] = min(lo[j], i), max(hi[j], i)
            j, seen = head[j], seen + 1
    tree: list[tuple[int, str]] = [(0, "punct")] * n
    for w, (h, rel) in enumerate(word_tree):
        tree[pos[w]] = (pos[h - 1] + 1 if h else 0, rel)
    word_before: list[int | None] = []  # the nearest word left of each position
    last = None
    for k in range(n):
        word_before.append(last)
        if not isinstance(seq[k], tuple):
            last = k
    word_after: list[int | None] = [None] * n  # the nearest word right of each position
    last = None
    for k in range(n - 1, -1, -1):
        word_after[k] = last
        if not isinstance(seq[k], tuple):
            last = k
    for k in range(n):
        if not isinstance(seq[k], tuple):
            continue
        left, right = word_before[k], word_after[k]
        lpath, rpath = [], []
        if left is not None:
            lpath.append(left)
            while 0 <= head[left] < k and hi[left] < k and len(lpath) <= n:
                left = head[left]
                lpath.append(left)
        if right is not None:
            rpath.append(right)
            while head[right] > k and lo[right] > k and len(rpath) <= n:
                right = head[right]
                rpath.append(right)
        if left is None or right is None:
            cand = left if right is None else right
        elif right in lpath:
            cand = right
        else:
            cand = left
        tree[k] = (cand + 1, "punct") if cand is not None else (0, "punct")
    return tree


def _words(si: int, seq: list, tree: list[tuple[int, str]]) -> list[Word]:
    """Words of one sentence, the tree repaired so that our marks are `punct` leaves and the
    root is a word (UDPipe's trees are otherwise kept as they are)."""
    n = len(seq)
    if len(tree) != n:  # UDPipe returned another tokenization (should not happen): a flat fallback
        tree = [(0, "root")] + [(1, "dep")] * (n - 1)
    heads = [h for h, _ in tree]
    rels = [r for _, r in tree]
    is_punct = [isinstance(x, tuple) for x in seq]
    if all(is_punct):
        return []
    # the root must be a word: a punct root hands the root to its first non-punct dependent (or word)
    roots = [i for i in range(n) if heads[i] == 0]
    root = next((i for i in roots if not is_punct[i]), None)
    if root is None:
        root = next((i for i in range(n) if not is_punct[i] and heads[i] - 1 in roots), None)
        if root is None:
            root = next(i for i in range(n) if not is_punct[i])
    for i in range(n):
        if i == root:
            heads[i], rels[i] = 0, "root"
        elif heads[i] == 0:
            heads[i], rels[i] = root + 1, ("punct" if is_punct[i] else "parataxis")
    # punct is never a head: its dependents go to the punct's own head (or the root)
    for i in range(n):
        h = heads[i] - 1
        guard = 0
        while h >= 0 and is_punct[h] and guard < n:
            h = heads[h] - 1 if heads[h] else root
            guard += 1
        if h >= 0 and is_punct[h]:
            h = root
        if i != root:
            heads[i] = h + 1 if h != i else root + 1
    # a cycle (could only come from the repairs above) is broken at the root
    reaches = [False] * n  # known to reach the root (what a later walk may stop at)
    reaches[root] = True
    for i in range(n):
        seen, j = set(), i
        while not reaches[j] and j not in seen:
            seen.add(j)
            j = heads[j] - 1
        if not reaches[j]:
            heads[i] = root + 1
        else:  # (every node walked reaches the root: their heads do not change later)
            for k in seen:
                reaches[k] = True
        reaches[i] = True
    words: list[Word] = []
    for i, x in enumerate(seq):
        if is_punct[i]:
            k, mark = x
            words.append(Word(si, i + 1, k, k, mark, mark, "PUNCT", PUNCT_XPOS[mark in SENTENCE_FINAL], "_", heads[i], "punct"))
        else:
            rel = rels[i] if rels[i] != "punct" else "dep"
            if i == root:
                rel = "root"
            words.append(Word(si, i + 1, x.start, x.end, x.form, x.lemma, x.upos, x.xpos, x.feats, heads[i], rel))
    return words


def parse_document(doc: Document, parser: Parser) -> Document:
    for unit in doc.units:
        unit.words = parser.parse_unit(unit) if unit.text else []
    return doc


class ParseStage(Stage):
    name = "parse"
    requires = ("sentences",)  # after segment; entities of the tag stage are used when present
    provides = ("words",)
    default_model = None  # UD-Kanbun's model ships in its wheel

    @classmethod
    def load_model(cls, path):
        return Parser()

    def __call__(self, doc: Document) -> Document:
        return parse_document(doc, self.model)
