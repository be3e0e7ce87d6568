"""Cut a document into passages small enough to cite and to embed.

Prose (Markdown, reStructuredText, plain text) is cut at headings, then packed paragraph
by paragraph up to `max_chars`, with a short overlap (the tail of the previous passage)
between consecutive passages of the same section. Code is cut at top-level definitions
(functions, classes, types, top-level YAML keys, shell functions) and packed the same way.
Each passage carries its heading path ("Install > Docker"; for code the file and the
definition). Ids are positional, ``part0000``, ``part0001`` ..., so the same text always
gives the same ids.

Markdown is read by markdown-it-py (CommonMark): a heading is what the parser calls a top-level
heading (never a line inside a code fence or an HTML block), a fenced block is one paragraph
however many blank lines it holds, and a heading's text is its inline content as plain text.
Only the structure is taken from the parser: a passage keeps the document's own lines.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import PurePosixPath

from markdown_it import MarkdownIt
from markdown_it.token import Token

MAX_CHARS = 1200
OVERLAP_CHARS = 160
MIN_CHARS = 20

PROSE_EXT = {".md": "md", ".markdown": "md", ".mdx": "md", ".rst": "rst", ".txt": "txt", ".text": "txt"}
CODE_EXT = {
    ".py": "py", ".pyi": "py",
    ".c": "c", ".cc": "c", ".cpp": "c", ".cxx": "c", ".h": "c", ".hh": "c", ".hpp": "c", ".cu": "c",
    ".java": "c", ".js": "c", ".ts": "c", ".rs": "c", ".go": "go", ".scala": "c", ".kt": "c",
    ".sh": "sh", ".bash": "sh",
    ".yaml": "yaml", ".yml": "yaml", ".toml": "ini", ".ini": "ini", ".cfg": "ini", ".json": "txt",
    ".cmake": "sh", ".proto": "c",
}
SPECIAL_NAMES = {"Makefile": "sh", "Dockerfile": "sh", "CMakeLists.txt": "sh", "README": "txt"}


@dataclass(frozen=True, slots=True)
class Chunk:
    chunk: str        # "part0003"
    heading: str      # "Install > Docker" (prose) or "src/x.py > def route" (code)
    text: str


def file_format(path: str) -> str | None:
    """The chunking format of a file by its name, or None when the knowledge base does not read it."""
    p = PurePosixPath(path)
    if p.name in SPECIAL_NAMES:
        return SPECIAL_NAMES[p.name]
    ext = p.suffix.lower()
    return PROSE_EXT.get(ext) or CODE_EXT.get(ext)


def kind_of(fmt: str) -> str:
    return "doc" if fmt in ("md", "rst", "txt") else "code"


def chunk_document(text: str, fmt: str, path: str = "", *, max_chars: int = MAX_CHARS,
                   overlap: int = OVERLAP_CHARS) -> list[Chunk]:
    """Passages of one document, numbered part0000.. in reading order."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if fmt == "md":
        sections = _markdown_sections(text)
    else:
        if fmt == "rst":
            cut = _rst_sections(text)
        elif fmt == "txt":
            cut = [((), text)]
        else:
            cut = _code_sections(text, fmt, path)
        split = _paragraphs if fmt in ("rst", "txt") else _code_blocks
        sections = [(heading_path, split(body)) for heading_path, body in cut]
    pieces: list[tuple[str, str]] = []
    for heading_path, blocks in sections:
        heading = " > ".join(h for h in heading_path if h)
        for packed in _pack(blocks, max_chars, overlap):
            pieces.append((heading, packed))
    pieces = [(h, t) for h, t in pieces if len(t.strip()) >= MIN_CHARS or (h and t.strip())]
    if not pieces and text.strip():
        pieces = [("", text.strip()[:max_chars])]
    return [Chunk(chunk=f"part{i:04d}", heading=h, text=t) for i, (h, t) in enumerate(pieces)]


# ---------------------------------------------------------------------------
# sections

_FENCE = re.compile(r"^\s*(```|~~~)")       # rst, plain text and code: a Markdown fence met in passing
_MD = MarkdownIt("commonmark").enable("table")


def _front_matter_end(lines: list[str]) -> int:
    """The first line after a YAML front matter block ("---" ... "---" or "..."), else 0."""
    if lines and lines[0].strip() == "---":
        for j in range(1, min(len(lines), 60)):
            if lines[j].strip() in ("---", "..."):
                return j + 1
    return 0


def _plain(inline: Token) -> str:
    """A heading's inline content as the reader sees it: link and emphasis marks gone, code kept."""
    parts: list[str] = []
    for child in inline.children or []:
        if child.type in ("text", "code_inline"):
            parts.append(child.content)
        elif child.type in ("softbreak", "hardbreak"):
            parts.append(" ")
        elif child.type == "image":
            parts.append(_plain(child))
    return " ".join("".join(parts).split())[:120]


def _markdown_sections(text: str) -> list[tuple[tuple[str, ...], list[str]]]:
    """(heading path, paragraphs) per section, from markdown-it's block tokens: each top-level
    heading opens a section; the lines between headings are cut at blank lines outside fences."""
    lines = text.split("\n")
    first = _front_matter_end(lines)
    tokens = _MD.parse("\n".join(lines[first:]))
    headings: dict[int, tuple[int, int, str]] = {}        # first line -> (line after it, level, title)
    fenced: set[int] = set()
    for i, tok in enumerate(tokens):
        if tok.map is None:
            continue
        begin, end = tok.map[0] + first, tok.map[1] + first
        if tok.type == "heading_open" and tok.level == 0:
            headings[begin] = (end, int(tok.tag[1:]), _plain(tokens[i + 1]))
        elif tok.type == "fence":
            fenced.update(range(begin, end))
    sections: list[tuple[tuple[str, ...], list[str]]] = []
    stack: list[tuple[int, str]] = []
    blocks: list[str] = []
    cur: list[str] = []

    def cut() -> None:
        if cur:
            blocks.append("\n".join(cur))
            cur.clear()

    def flush() -> None:
        cut()
        if blocks:
            sections.append((tuple(h for _, h in stack), blocks.copy()))
        blocks.clear()

    i = first
    while i < len(lines):
        if i in headings:
            end, level, title = headings[i]
            flush()
            while stack and stack[-1][0] >= level:
                stack.pop()
            stack.append((level, title))
            i = end
            continue
        if lines[i].strip() or i in fenced:
            cur.append(lines[i])
        else:
            cut()
        i += 1
    flush()
    return sections


_RST_UNDER = re.compile(r"^([=\-~^\"'`#*+:.])\1{2,}\s*$")


def _rst_sections(text: str) -> list[tuple[tuple[str, ...], str]]:
    lines = text.split("\n")
    sections: list[tuple[tuple[str, ...], str]] = []
    styles: list[str] = []          # adornment styles in order of first appearance = levels
    stack: list[tuple[int, str]] = []
    body: list[str] = []

    def flush() -> None:
        if any(ln.strip() for ln in body):
            sections.append((tuple(h for _, h in stack), "\n".join(body).strip("\n")))
        body.clear()

    i = 0
    while i < len(lines):
        line = lines[i]
        over = _RST_UNDER.match(line)
        if (over and i + 2 < len(lines) and lines[i + 1].strip() and _RST_UNDER.match(lines[i + 2])
                and lines[i + 2].strip()[0] == line.strip()[0]):
            style, title, step = "o" + line.strip()[0], lines[i + 1].strip(), 3
        elif (line.strip() and not line.startswith((" ", "\t")) and i + 1 < len(lines)
              and _RST_UNDER.match(lines[i + 1]) and len(lines[i + 1].strip()) >= len(line.strip()) * 0.6):
            style, title, step = "u" + lines[i + 1].strip()[0], line.strip(), 2
        else:
            body.append(line)
            i += 1
            continue
        if style not in styles:
            styles.append(style)
        level = styles.index(style) + 1
        flush()
        while stack and stack[-1][0] >= level:
            stack.pop()
        stack.append((level, _clean_heading(title)))
        i += step
    flush()
    return sections


def _clean_heading(title: str) -> str:
    title = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", title)     # [text](link) -> text
    title = re.sub(r"(`|\*{1,3})([^`*]+?)\1", r"\2", title)
    return re.sub(r"\s+", " ", title).strip()[:120]


_PY_DEF = re.compile(r"^(?:async\s+def|def|class)\s+([A-Za-z_]\w*)")
_GO_DEF = re.compile(r"^(?:func|type|var|const)\s*(?:\([^)]*\)\s*)?([A-Za-z_]\w*)")
_SH_DEF = re.compile(r"^(?:function\s+)?([A-Za-z_][\w\-]*)\s*\(\)\s*\{?")
_YAML_KEY = re.compile(r"^([A-Za-z_][\w.\-]*)\s*:")
_C_DEF = re.compile(r"^[A-Za-z_][\w:<>,*&\s~]*?\b([A-Za-z_~][\w:~]*)\s*\([^;]*$")
_C_TYPE = re.compile(r"^(?:template\s*<[^>]*>\s*)?(?:class|struct|enum|union|namespace|interface)\s+([A-Za-z_]\w*)")


def _definition_name(line: str, fmt: str) -> str | None:
    if fmt == "py":
        m = _PY_DEF.match(line)
        return m.group(1) if m else None
    if fmt == "go":
        m = _GO_DEF.match(line)
        return m.group(1) if m else None
    if fmt == "sh":
        m = _SH_DEF.match(line)
        return m.group(1) if m else None
    if fmt in ("yaml", "ini"):
        if fmt == "ini" and line.startswith("["):
            return line.strip().strip("[]")
        m = _YAML_KEY.match(line)
        return m.group(1) if m else None
    if fmt == "c":
        m = _C_TYPE.match(line) or _C_DEF.match(line)
        if m and not line.lstrip().startswith(("return", "if", "for", "while", "switch", "else", "#")):
            return m.group(1)
    return None


def _code_sections(text: str, fmt: str, path: str) -> list[tuple[tuple[str, ...], str]]:
    """Top-level definitions as sections; the preamble (imports, licence) is its own section."""
    name = PurePosixPath(path).name if path else ""

    def is_definition(line: str) -> bool:
        return bool(line) and not line[0].isspace() and _definition_name(line, fmt) is not None

    def is_decorator(line: str) -> bool:
        return fmt == "py" and line.startswith("@") and _definition_name(line, fmt) is None

    sections = [((name, title) if title else (name,), body)
                for title, body in _split_at_definitions(text.split("\n"), is_definition, is_decorator)]
    if fmt == "py":
        sections = [sub for sec in sections for sub in _python_methods(sec)]
    return sections


_PY_METHOD = re.compile(r"^(\s+)(?:async\s+def|def)\s+([A-Za-z_]\w*)")


def _python_methods(section: tuple[tuple[str, ...], str]) -> list[tuple[tuple[str, ...], str]]:
    """A class too long for one passage is cut at its methods (heading: file > class > method)."""
    heading, body = section
    if len(heading) < 2 or not heading[-1].startswith("class ") or len(body) <= MAX_CHARS:
        return [section]
    lines = body.split("\n")
    indent = next((m.group(1) for ln in lines[1:] if (m := _PY_METHOD.match(ln))), None)
    if indent is None:
        return [section]

    def is_method(line: str) -> bool:
        m = _PY_METHOD.match(line)
        return m is not None and m.group(1) == indent

    return [(heading + ((sub,) if sub else ()), part)
            for sub, part in _split_at_definitions(lines, is_method, lambda line: line.startswith(indent + "@"))]


def _split_at_definitions(lines: list[str], is_definition: Callable[[str], bool],
                          is_decorator: Callable[[str], bool]) -> list[tuple[str, str]]:
    """(signature, text) of each stretch starting at a definition line, the decorators
    directly above it included; the stretch before the first one has signature ""."""
    out: list[tuple[str, str]] = []
    current: list[str] = []
    title = ""
    pending: list[str] = []
    for line in lines:
        if is_decorator(line):
            pending.append(line)
            continue
        if is_definition(line):
            if any(ln.strip() for ln in current):
                out.append((title, "\n".join(current).strip("\n")))
            current, pending = pending + [line], []
            title = _signature(line)
            continue
        current.extend(pending)
        pending = []
        current.append(line)
    current.extend(pending)
    if any(ln.strip() for ln in current):
        out.append((title, "\n".join(current).strip("\n")))
    return out


def _signature(line: str) -> str:
    sig = line.strip().rstrip("{:").strip()
    return sig[:100]


# ---------------------------------------------------------------------------
# blocks and packing

def _paragraphs(body: str) -> list[str]:
    """Blank-line separated paragraphs; a fenced code block stays one block."""
    blocks: list[str] = []
    cur: list[str] = []
    in_fence = False
    for line in body.split("\n"):
        if _FENCE.match(line):
            in_fence = not in_fence
        if not in_fence and not line.strip():
            if cur:
                blocks.append("\n".join(cur))
                cur = []
            continue
        cur.append(line)
    if cur:
        blocks.append("\n".join(cur))
    return blocks


def _code_blocks(body: str) -> list[str]:
    """Blank-line separated groups of a definition; the packer joins them back up to the cap."""
    return _paragraphs(body)


_SENTENCE_END = re.compile(r"(?<=[。！？；.!?;])\s*|\n")


def _split_long(block: str, max_chars: int) -> list[str]:
    """Cut a block longer than the cap at sentence ends or lines, hard-cut as a last resort."""
    if len(block) <= max_chars:
        return [block]
    parts: list[str] = []
    cur = ""
    for piece in _SENTENCE_END.split(block):
        if not piece:
            continue
        while len(piece) > max_chars:
            if cur:
                parts.append(cur)
                cur = ""
            parts.append(piece[:max_chars])
            piece = piece[max_chars:]
        sep = "\n" if cur and not cur.endswith(("。", "！", "？", "；")) else ""
        if len(cur) + len(sep) + len(piece) > max_chars and cur:
            parts.append(cur)
            cur = piece
        else:
            cur = cur + sep + piece if cur else piece
    if cur:
        parts.append(cur)
    return parts


def _tail(text: str, overlap: int) -> str:
    """The last `overlap` characters of a passage, starting at a line or sentence boundary."""
    if overlap <= 0 or len(text) <= overlap:
        return ""
    tail = text[-overlap:]
    m = re.search(r"[\n。！？.!?]\s*", tail)
    if m and m.end() < len(tail):
        tail = tail[m.end():]
    return tail.strip()


def _pack(blocks: list[str], max_chars: int, overlap: int) -> list[str]:
    pieces: list[str] = []
    for b in blocks:
        pieces.extend(_split_long(b, max(max_chars - overlap, max_chars // 2)))
    out: list[str] = []
    cur = ""
    for p in pieces:
        if not cur:
            cur = p
        elif len(cur) + 2 + len(p) <= max_chars:
            cur = cur + "\n\n" + p
        else:
            out.append(cur)
            tail = _tail(cur, overlap)
            cur = (tail + "\n\n" + p) if tail and len(tail) + 2 + len(p) <= max_chars else p
    if cur:
        out.append(cur)
    return out
