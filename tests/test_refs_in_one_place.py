"""Every regular expression that reads an issue/PR reference lives in `fixlore.rules.refs`.

What counts as a regex: the pattern argument of every `re.compile`, `re.search`, `re.match`,
`re.fullmatch`, `re.findall`, `re.finditer`, `re.sub`, `re.subn` and `re.split` call in
src/fixlore, module level or inside functions, with the flags given beside it. A pattern that is a
string literal is read from the source; one built from module constants (an f-string over `_HOSTS`,
say) is evaluated in its module; one built at run time from data (`re.escape(label)`) cannot be
known here and is left out (`test_dynamic_patterns_are_few` keeps that set small and named).

What counts as reading a reference: on some sample below (one reference as people write it:
`#123`, `!45`, `Ascend/mindie#7`, `fixes #12`, an issue or PR URL, `修复 #5`, a task-list line...),
some match of the pattern covers the reference's number together with the mark right before
it (the sigil, the `/` of a URL path, the last letter of `PR`), AND the same pattern finds no such
match once the number's digits are replaced by letters. The first half leaves out patterns that
never touch the number (a Markdown heading `^#+ `, a keyword list, `\\D`, a bare digit run `\\d+`
that does not reach the sigil); the second leaves out patterns that swallow the reference as any
other text (a URL `https?://\\S+`, a token `^[\\w.+#-]+$`): they would match `#abc` as well, so they
do not read a number behind a mark.
"""

from __future__ import annotations

import ast
import functools
import importlib
import re
from dataclasses import dataclass
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = SRC / "fixlore"
HOME = PACKAGE / "rules" / "refs.py"

_FUNCS = {"compile": 1, "search": 2, "match": 2, "fullmatch": 2, "findall": 2, "finditer": 2,
          "sub": 4, "subn": 4, "split": 3}          # the position of `flags` in each signature

# Each sample names one reference; its number is the last run of digits in it.
SAMPLES = (
    "#123", "＃123", "!45", "！45", "Ascend/mindie#7", "Ascend/mindie!7", "fixes #12", "Fixes #12",
    "closes !8", "Resolved: #5", "修复 #5", "解决了 #6", "关闭 !9", "PR 986", "PR#826", "MR !4", "issue #44",
    "https://gitcode.com/o/r/issues/3", "https://gitcode.com/o/r/merge_requests/4", "https://gitcode.com/o/r/pulls/5",
    "https://github.com/o/r/pull/9", "https://github.com/o/r/issues/10",
    "https://api.github.com/repos/o/r/issues/11", "closes o/r#13", "duplicate of #14", "tracked in issue #15",
    "- [ ] #16", "- [x] o/r#17", "Reverts o/r#18", "see #19", "o/r # 20",
)


@dataclass(frozen=True)
class Pattern:
    module: str          # path below src/fixlore
    line: int
    pattern: str
    flags: int


class _Dynamic(Exception):
    """A pattern or its flags come from a function's run-time data."""


def _value(node: ast.expr | None, path: Path, default: object) -> object:
    """The value of a pattern or flags argument: a literal as written, else evaluated in its module."""
    if node is None:
        return default
    if isinstance(node, ast.Constant):
        return node.value
    module = importlib.import_module(_module_name(path))
    try:
        return eval(compile(ast.Expression(node), str(path), "eval"), vars(module))   # noqa: S307 (our own source)
    except NameError as e:
        raise _Dynamic from e


def _module_name(path: Path) -> str:
    return ".".join(path.relative_to(SRC).with_suffix("").parts)


@functools.cache
def _collect() -> tuple[tuple[Pattern, ...], tuple[str, ...]]:
    """(every pattern known before run time, every pattern built at run time as 'module:line');
    worked out once for the file's tests (a parse of the package costs ~0.6 s of CPU)."""
    known: list[Pattern] = []
    dynamic: list[str] = []
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        where = str(path.relative_to(PACKAGE))
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and isinstance(node.func.value, ast.Name) and node.func.value.id == "re"
                    and node.func.attr in _FUNCS):
                continue
            keywords = {k.arg: k.value for k in node.keywords}
            at = _FUNCS[node.func.attr]
            try:
                pattern = _value(node.args[0] if node.args else keywords.get("pattern"), path, None)
                flags = _value(node.args[at] if len(node.args) > at else keywords.get("flags"), path, 0)
            except _Dynamic:
                dynamic.append(f"{where}:{node.lineno}")
                continue
            assert isinstance(pattern, str) and isinstance(flags, int), f"{where}:{node.lineno}"
            known.append(Pattern(where, node.lineno, pattern, int(flags)))
    return tuple(known), tuple(dynamic)


def _number_span(sample: str) -> tuple[int, int]:
    *_, m = re.finditer(r"\d+", sample)
    return m.span()


def _mark_start(sample: str, number_start: int) -> int:
    i = number_start - 1
    while i > 0 and sample[i].isspace():
        i -= 1
    return i


def _reads_number_behind_mark(rx: re.Pattern[str], text: str, start: int, end: int) -> bool:
    return any(m.start() <= start and m.end() >= end for m in rx.finditer(text))


def reads_a_reference(p: Pattern) -> list[str]:
    """The samples `p` reads as references (see the module docstring)."""
    rx = re.compile(p.pattern, p.flags)
    read = []
    for sample in SAMPLES:
        a, b = _number_span(sample)
        mark = _mark_start(sample, a)
        if not _reads_number_behind_mark(rx, sample, mark, b):
            continue
        twin = sample[:a] + "abc" + sample[b:]
        if not _reads_number_behind_mark(rx, twin, mark, a + 3):
            read.append(sample)
    return read


@functools.cache
def _readers() -> dict[str, list[str]]:
    """Module:line -> what its pattern reads as a reference (once for the file's tests; read only)."""
    known, _ = _collect()
    out: dict[str, list[str]] = {}
    for p in known:
        samples = reads_a_reference(p)
        if samples:
            out.setdefault(f"{p.module}:{p.line}", []).append(f"{p.pattern[:60]!r} reads {samples[:3]}")
    return out


def _below_rules() -> list[str]:
    """The packages and modules the floors contract (.importlinter) puts below `fixlore.rules`."""
    config = (SRC.parent / ".importlinter").read_text(encoding="utf-8")
    floors = config.split("[importlinter:contract:floors]", 1)[1].split("[importlinter:", 1)[0]
    layers = floors.split("layers =", 1)[1].strip().splitlines()
    names = [[n.strip() for n in line.split(":")] for line in layers if line.strip()]
    at = next(i for i, layer in enumerate(names) if "fixlore.rules" in layer)
    return [n for layer in names[at + 1:] for n in layer]


def _module_of(where: str) -> str:
    return "fixlore." + where.split(":")[0].removesuffix(".py").removesuffix("/__init__").replace("/", ".")


def _can_import_rules(where: str) -> bool:
    module = _module_of(where)
    return not any(module == low or module.startswith(low + ".") for low in _below_rules())


def test_no_reference_regex_outside_rules_refs():
    outside = {k: v for k, v in _readers().items()
               if not k.startswith("rules/refs.py:") and _can_import_rules(k)}
    assert not outside, "\n".join(f"{k}: {v}" for k, v in sorted(outside.items()))


def test_readers_that_cannot_reach_rules_refs_are_known():
    """A module on a floor below `fixlore.rules` cannot call `rules.refs` (import-linter forbids it), so
    the test above passes it by; none may read references. (`wording.facts` did, reading `#N` and `!N`
    out of the linker's notes, until `rules` moved below the wording floor and the notes were read by
    `rules.refs.note_issue_numbers` / `note_pull_labels`.)"""
    below = sorted({_module_of(k) for k in _readers() if not _can_import_rules(k)})
    assert below == [], below


def test_rules_refs_reads_every_sample():
    """The criterion is not vacuous: the parser's own patterns read each sample form."""
    known, _ = _collect()
    home = [p for p in known if p.module == "rules/refs.py"]
    read = {s for p in home for s in reads_a_reference(p)}
    assert set(SAMPLES) - read == set()


def test_the_criterion_tells_readers_from_text_patterns():
    def reads(pattern: str, flags: int = 0) -> bool:
        return bool(reads_a_reference(Pattern("x", 0, pattern, flags)))

    assert reads(r"#(\d+)") and reads(r"(?:PR|MR)\s*#?\s*(\d+)", re.I) and reads(r"/issues/(\d+)")
    for text_pattern in (r"^#+ ", r"^(#{1,6})\s+(.+?)\s*#*\s*$", r"\d+", r"\D", r"https?://\S+",
                         r"^[\w.+#\-]+$", r"fix(?:es|ed)?|修复", r"[#!]"):
        assert not reads(text_pattern), text_pattern


def test_dynamic_patterns_are_few():
    """Patterns built from run-time data are out of this test's reach; each one is listed here, so a
    new one is looked at (is it a reference reader in disguise?) rather than slipping past."""
    _, dynamic = _collect()
    modules = sorted({d.split(":")[0] for d in dynamic})
    # compose/kinds.py: the mentions of one quoted name in a case's text (what the guide's step says of it)
    # rules/words.py: the cue words every stage reads, joined into one pattern (words, never references)
    assert modules == ["analyse/grounding.py", "analyse/llm.py", "compose/digest.py", "compose/kinds.py", "replay/server.py",
                       "rules/refs.py", "rules/words.py", "wording/htmlsafe.py"], dynamic
