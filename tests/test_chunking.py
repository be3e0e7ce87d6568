"""Markdown passages from generated documents: headings (ATX and setext), fenced blocks that hold
heading-like and fence-like lines, lists and paragraphs. Every content line lands in exactly one
passage, under the heading that stands above it; a line inside a fence never opens a section."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from fixlore.retrieval.chunking import chunk_document

FILL = "lorem ipsum dolor sit amet"


class Doc:
    """A generated document: its text, each content line with the heading title above it, and its fences."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.content: dict[str, str] = {}      # content line -> title of the section it belongs to
        self.fences: list[str] = []
        self.title = ""
        self.n = 0

    def line(self, prefix: str = "") -> str:
        self.n += 1
        text = f"{prefix}line{self.n:04d} {FILL}"
        self.content[text] = self.title
        return text

    def heading(self, kind: str, level: int) -> None:
        self.n += 1
        self.title = f"Title{self.n:04d}"
        if kind == "atx":
            self.lines += ["#" * level + " " + self.title, ""]
        else:
            self.lines += [self.title, "=" * 5 if level == 1 else "-" * 5, ""]

    def paragraph(self, size: int) -> None:
        self.lines += [self.line() for _ in range(size)] + [""]

    def items(self, size: int, nested: bool) -> None:
        for k in range(size):
            self.lines.append(self.line("  - " if nested and k % 2 else "- "))
        self.lines.append("")

    def fence(self, marker: str, inner: list[str]) -> None:
        body = [marker + "text"]
        for kind in inner:
            if kind == "blank":
                body.append("")
            elif kind == "heading":
                body.append(self.line("# "))             # a heading in a fence is code, not a heading
            elif kind == "setext":
                body += [self.line(), "-----"]
            elif kind == "other-fence":                  # ``` inside ~~~ (and back) closes nothing
                body.append(("~~~" if marker.startswith("`") else "```") + "sh")
            else:
                body.append(self.line("    "))
        body.append(marker)
        self.lines += body + [""]
        self.fences.append("\n".join(body))


blocks = st.one_of(
    st.tuples(st.just("heading"), st.sampled_from(["atx", "setext"]), st.integers(1, 4)),
    st.tuples(st.just("paragraph"), st.integers(1, 4)),
    st.tuples(st.just("list"), st.integers(1, 5), st.booleans()),
    st.tuples(st.just("fence"), st.sampled_from(["```", "~~~", "````"]),
              st.lists(st.sampled_from(["blank", "heading", "setext", "other-fence", "code"]), max_size=6)),
)


def build(spec: list[tuple]) -> Doc:
    doc = Doc()
    for block in spec:
        if block[0] == "heading":
            level = block[2] if block[1] == "atx" else min(block[2], 2)
            doc.heading(block[1], level)
        elif block[0] == "paragraph":
            doc.paragraph(block[1])
        elif block[0] == "list":
            doc.items(block[1], block[2])
        else:
            doc.fence(block[1], block[2])
    return doc


@settings(max_examples=150, deadline=None)
@given(st.lists(blocks, min_size=1, max_size=14), st.sampled_from([240, 600, 5000]))
def test_every_content_line_lands_in_one_passage_under_its_heading(spec, max_chars):
    doc = build(spec)
    chunks = chunk_document("\n".join(doc.lines), "md", "gen.md", max_chars=max_chars, overlap=0)
    where: dict[str, list[str]] = {}
    for ch in chunks:
        for line in ch.text.split("\n"):
            if line in doc.content:
                where.setdefault(line, []).append(ch.heading)
    assert sorted(where) == sorted(doc.content)                       # no content line lost
    for line, headings in where.items():
        assert len(headings) == 1, line                               # nor repeated
        title = doc.content[line]
        assert headings[0].split(" > ")[-1] == title, (line, headings[0])
    # a heading-like line inside a fence never became a heading, and a fence is never cut in two
    assert all("line" not in ch.heading for ch in chunks)
    for fence in doc.fences:
        if len(fence) <= max_chars // 2 and any(ln in doc.content for ln in fence.split("\n")):
            assert sum(fence in ch.text for ch in chunks) == 1, fence


@settings(max_examples=60, deadline=None)
@given(st.lists(blocks, min_size=1, max_size=10))
def test_the_same_document_gives_the_same_passages_made_of_its_own_text(spec):
    text = "\n".join(build(spec).lines)
    first, again = chunk_document(text, "md", "gen.md", max_chars=300), chunk_document(text, "md", "gen.md", max_chars=300)
    assert first == again
    assert [c.chunk for c in first] == [f"part{i:04d}" for i in range(len(first))]
    assert all(ln in text for c in first for ln in c.text.split("\n"))     # the overlap repeats, never invents


def test_a_heading_after_another_fence_marker_inside_a_fence_stays_code():
    # the line-based reading this replaces took the inner ``` for the fence's end, and the
    # "# Not a heading" after it for a heading
    text = ("# Setup\n\nRun the installer with the defaults first.\n\n~~~text\n```\n# Not a heading, a comment\n"
            "make install PREFIX=/opt/x\n~~~\n\nThen check the version it printed.\n")
    chunks = chunk_document(text, "md", "setup.md")
    assert [c.heading for c in chunks] == ["Setup"]
    assert "# Not a heading, a comment" in chunks[0].text and "Then check" in chunks[0].text


def test_a_heading_inside_an_html_block_or_a_list_item_opens_no_section():
    text = ("# Guide\n\nThe guide's introduction, long enough to keep.\n\n<details>\n# Hidden answer line\n"
            "</details>\n\n- # item heading written in a list item\n")
    chunks = chunk_document(text, "md", "g.md")
    assert {c.heading for c in chunks} == {"Guide"}
    assert "# Hidden answer line" in chunks[0].text and "- # item heading" in chunks[0].text


def test_heading_text_is_its_inline_content_as_plain_text():
    text = "# Use `npu-smi` with [the driver](http://x/y) **first**\n\nBody of the section, long enough.\n"
    assert chunk_document(text, "md", "h.md")[0].heading == "Use npu-smi with the driver first"
    text = "## C# and F# bindings ##\n\nBody of the section, long enough.\n"
    assert chunk_document(text, "md", "h.md")[0].heading == "C# and F# bindings"
