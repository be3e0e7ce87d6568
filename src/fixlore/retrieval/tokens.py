"""Tokens for the lexical index: jieba for Chinese, identifier-aware splitting for code words.

One `Tokenizer` per index directory. jieba's dictionary cache is written inside that
directory (never ``~`` or ``/tmp``), its logging is silenced, and a user dictionary of the
corpus' technical tokens (``all_to_all``, ``node_base_info``, ``Qwen3NextModel``, ``26.2.0``)
keeps jieba from cutting them apart.

Every token is lowercased. An identifier is kept whole *and* split into its parts
(``init_routing_v2`` -> ``init_routing_v2 init routing v2``; ``NodeAffinity`` ->
``nodeaffinity node affinity``), so a query may name either the whole or a part.
"""

from __future__ import annotations

import logging
import marshal
import re
import threading
from collections import Counter
from pathlib import Path
from typing import Iterable

import jieba

from fixlore.edges.atomicfile import write_atomic

_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
# Identifier-like runs in raw text: words joined by _ . - (not starting/ending with them).
_IDENT = re.compile(r"[A-Za-z0-9][A-Za-z0-9_]*(?:[.\-][A-Za-z0-9_]+)*")
_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")
_VERSION = re.compile(r"^v?\d+(?:\.\d+)+[A-Za-z0-9.]*$")
# What the FTS table may hold: letters (any script), digits and _ . - + #.
_TOKEN_OK = re.compile(r"^[\w.+#\-]+$")

USERDICT_NAME = "userdict.txt"
CACHE_NAME = "jieba.cache"
USERDICT_FREQ = 20000

# Common function words that carry no topic. IDF already discounts them; dropping them
# keeps query expressions short.
STOPWORDS = frozenset(
    """
    a an and are as at be but by for from has have if in into is it its of on or so that the their
    then there these this to was were will with not no can do does did how what when where which who
    why i we you he she they me my our your 的 了 和 是 在 有 也 就 都 而 及 与 或 一个 这个 那个 我们
    你们 他们 请问 是否 如何 怎么 什么 可以 需要 已经 没有 进行 使用 一下 问题 时候 但是 因为 所以 如果
    这 那 其 之 将 被 把 对 从 到 为 中 上 下 后 前 等 个 不 会 能 请 吗 呢 啊 吧
    """.split()
)


def is_identifier(token: str) -> bool:
    """A code-ish word: snake_case, dotted, dashed, CamelCase, mixed letters+digits, or a version."""
    if not token or _CJK.search(token):
        return False
    if any(ch in token for ch in "_.-") and re.search(r"[A-Za-z0-9]", token):
        return True
    if re.search(r"[a-z][A-Z]", token) or re.search(r"[A-Za-z]\d|\d[A-Za-z]", token):
        return True
    return False


def identifier_parts(token: str) -> list[str]:
    """Split an identifier on _ . - and camelCase boundaries; lowercase; parts of length >= 2."""
    parts: list[str] = []
    for piece in re.split(r"[_.\-]+", token):
        if not piece:
            continue
        for sub in _CAMEL.findall(piece) or [piece]:
            if len(sub) >= 2:
                parts.append(sub.lower())
    return parts


def technical_tokens(text: str) -> Counter:
    """Identifier-like tokens of `text` worth protecting from segmentation, with counts."""
    found: Counter = Counter()
    for m in _IDENT.finditer(text):
        tok = m.group(0)
        if len(tok) < 3 or len(tok) > 60:
            continue
        if _VERSION.match(tok) or is_identifier(tok):
            found[tok] += 1
    return found


# jieba's main dictionary as a prefix table, read once per process (~0.5 s from a cache file,
# ~1.5 s without one) and shared with jieba's own tokenizer, whichever reads it first; every
# Tokenizer then adds its own user words to a copy (~20 ms).
_MAIN: tuple[dict[str, int], int] | None = None
_MAIN_LOCK = threading.Lock()
# The table as a cache file holds it, made once per process: a run writes it into two new
# index folders, and marshalling the 350k entries costs more than the write (~0.2 s each).
_MAIN_FILE: bytes | None = None


def _main_dictionary(home: Path) -> tuple[dict[str, int], int]:
    """jieba's prefix table: from `home`'s cache file when it has a good one, else built."""
    global _MAIN, _MAIN_FILE
    with _MAIN_LOCK:
        if _MAIN is None:
            loaded, data = None, None
            cache = home / CACHE_NAME
            if cache.is_file():
                try:
                    data = cache.read_bytes()
                    loaded = marshal.loads(data)
                except (ValueError, EOFError, TypeError):
                    loaded = None            # a damaged cache is built again, as jieba does
            if isinstance(loaded, tuple) and len(loaded) == 2 and isinstance(loaded[0], dict):
                _MAIN_FILE = data
            elif _global_is_plain() and jieba.dt.initialized:
                loaded = (dict(jieba.dt.FREQ), jieba.dt.total)     # the same table, read already
            else:
                builder = jieba.Tokenizer()
                loaded = builder.gen_pfdict(builder.get_dict_file())
            _MAIN = (loaded[0], loaded[1])
            if _global_is_plain() and not jieba.dt.initialized:
                # jieba's own tokenizer (rules.text cuts with it) takes the table rather than
                # reading it again (~0.7 s a process from its cache, ~1.5 s without one)
                with jieba.dt.lock:
                    if not jieba.dt.initialized:
                        jieba.dt.FREQ, jieba.dt.total = dict(_MAIN[0]), _MAIN[1]
                        jieba.dt.initialized = True
        return _MAIN


def _global_is_plain() -> bool:
    """Does jieba's own tokenizer use its bundled dictionary (the table `_main_dictionary` holds)?"""
    return jieba.dt.dictionary == jieba.DEFAULT_DICT


def _main_dictionary_file() -> bytes:
    """The cache file's bytes for the table `_main_dictionary` holds."""
    global _MAIN_FILE
    with _MAIN_LOCK:
        if _MAIN_FILE is None:
            assert _MAIN is not None, "the table is read before its file is written"
            _MAIN_FILE = marshal.dumps(_MAIN)
        return _MAIN_FILE


class Tokenizer:
    """jieba with its cache and user dictionary living in `home` (the index directory)."""

    def __init__(self, home: Path):
        self.home = Path(home)
        self.home.mkdir(parents=True, exist_ok=True)
        jieba.setLogLevel(logging.WARNING)
        logging.getLogger("jieba").setLevel(logging.WARNING)
        self._jieba = jieba.Tokenizer()
        self._jieba.tmp_dir = str(self.home)
        self._jieba.cache_file = CACHE_NAME
        # jieba's global tokenizer would write its cache to /tmp; if nobody in this process
        # chose a place for it yet, it goes next to ours.
        if getattr(jieba.dt, "tmp_dir", None) is None and not getattr(jieba.dt, "initialized", False):
            jieba.dt.tmp_dir = str(self.home)
            jieba.dt.cache_file = CACHE_NAME
        self._user_words: set[str] = set()
        self._ready = False

    @property
    def userdict_path(self) -> Path:
        return self.home / USERDICT_NAME

    def _ensure(self) -> None:
        if self._ready:
            return
        freq, total = _main_dictionary(self.home)
        self._jieba.FREQ, self._jieba.total = dict(freq), total      # its own copy: user words go in
        cache = self.home / CACHE_NAME
        if not cache.exists():          # the folder carries its cache, for the next process that opens it
            write_atomic(cache, _main_dictionary_file())
        self._jieba.initialized = True
        self._ready = True
        if self.userdict_path.exists():
            words = [ln.split(" ")[0] for ln in self.userdict_path.read_text("utf-8").splitlines() if ln.strip()]
            self._add_words(words)

    def _add_words(self, words: Iterable[str]) -> None:
        for w in words:
            if w and w not in self._user_words:
                self._jieba.add_word(w, freq=USERDICT_FREQ)
                self._user_words.add(w)

    def learn(self, texts: Iterable[str]) -> int:
        """Add the technical tokens of `texts` to the user dictionary (saved in `home`). Returns new words."""
        self._ensure()
        counts: Counter = Counter()
        for t in texts:
            counts.update(technical_tokens(t))
        new = sorted(w for w in counts if w not in self._user_words)
        if not new:
            return 0
        self._add_words(new)
        # the whole file again, never appended to: a kill mid-append would leave half a word
        before = self.userdict_path.read_text("utf-8") if self.userdict_path.exists() else ""
        write_atomic(self.userdict_path, before + "".join(f"{w} {USERDICT_FREQ}\n" for w in new))
        return len(new)

    def tokens(self, text: str, *, for_query: bool = False) -> list[str]:
        """Lowercased tokens of `text`: jieba words (search mode when indexing) plus identifier parts."""
        self._ensure()
        cut = self._jieba.cut(text) if for_query else self._jieba.cut_for_search(text)
        out: list[str] = []
        for raw in cut:
            tok = raw.strip()
            if not tok:
                continue
            if _CJK.search(tok):
                if _TOKEN_OK.match(tok):
                    out.append(tok.lower())
                continue
            if not re.search(r"[A-Za-z0-9]", tok):
                continue
            self._emit_word(tok, out)
        # Identifiers jieba does not know (not in the user dictionary) come out cut at "_";
        # keep their whole form too so a query naming them matches as one term.
        for m in _IDENT.finditer(text):
            tok = m.group(0)
            if ("_" in tok or "." in tok or "-" in tok) and tok not in self._user_words and len(tok) <= 60:
                out.append(tok.lower())
        return out

    @staticmethod
    def _emit_word(tok: str, out: list[str]) -> None:
        tok = tok.strip("._-+#")
        if not tok or not _TOKEN_OK.match(tok):
            for m in _IDENT.finditer(tok):
                Tokenizer._emit_word(m.group(0), out)
            return
        low = tok.lower()
        out.append(low)
        if is_identifier(tok) and not _VERSION.match(tok):
            parts = identifier_parts(tok)
            if len(parts) > 1:
                out.extend(parts)


_BARE_NUMBER = re.compile(r"^\d+(?:[.,]\d+)?$")


def is_query_term(token: str) -> bool:
    """Worth asking the index for: not a stopword, at least two characters (single CJK characters
    are nearly all function words), not a bare number (log values, counts)."""
    return len(token) >= 2 and token not in STOPWORDS and not _BARE_NUMBER.match(token)


def fts_escape(token: str) -> str:
    """A token as an FTS5 string literal (double quotes doubled)."""
    return '"' + token.replace('"', '""') + '"'
