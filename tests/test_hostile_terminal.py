"""Hostile text on terminals and in theme words (issue #21): what `explain`, `cases status`,
`cases search` and `cases related` print holds no control, escape sequence, bidi control or
zero-width character of the issues, console markup in an issue is shown and never obeyed, and
no theme word, headline or bullet is made of Markdown or HTML layout."""

from __future__ import annotations

import json
import re
import sys
import unicodedata
from pathlib import Path

import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from typer.testing import CliRunner

from fixlore.cli.commands import app
from fixlore.core.model import Case
from fixlore.rules.topics import is_word, prose, topic_words
from fixlore.wording.terminal import json_text, plain, text
from fixlore.core.textclean import VISIBLE_MARK, for_terminal, rendered


RICH_STYLE = re.compile(r"\x1b\[[0-9;]*m")        # what rich itself writes with FORCE_COLOR
LAYOUT_TOKENS = ("---", "##", "|", "```", "<td", "<table", "<th", "***")
MARKUP_WORDS = {"---", "##", "|", "td", "th", "tr", "table", "bold", "red", "link", "blink", "```", "***"}


def _unsafe(ch: str) -> bool:
    """A character a terminal obeys or that a reader cannot see."""
    cat = unicodedata.category(ch)
    return (cat == "Cc" and ch not in "\t\n") or cat in ("Cf", "Cs", "Zl", "Zp")


# ---------------------------------------------------------------- the cleaner


@given(st.text(alphabet=st.characters(codec=None, min_codepoint=0, max_codepoint=0x10FFFF)))
def test_terminal_text_has_no_control_bidi_or_invisible_character(value):
    out = for_terminal(value)
    assert not any(_unsafe(ch) for ch in out), [hex(ord(ch)) for ch in out if _unsafe(ch)]
    assert set(out) <= set(value) | {VISIBLE_MARK, "\n"}          # nothing is made up
    assert for_terminal(out) == out


@given(st.text(alphabet=st.characters(codec=None, exclude_categories=("Cc", "Cf", "Cs", "Zl", "Zp"))))
def test_printable_text_passes_unchanged(value):
    assert for_terminal(value) == value and rendered(value) == value


def test_every_format_character_is_removed_or_shown():
    formats = [chr(c) for c in range(sys.maxunicode + 1) if unicodedata.category(chr(c)) == "Cf"]
    assert len(formats) > 150
    for ch in formats:
        out = rendered(f"a{ch}b")
        assert out in ("ab", f"a{VISIBLE_MARK}b"), hex(ord(ch))


@pytest.mark.parametrize("hostile, shown", [
    ("a\x1b[31mred\x1b[0m b", "ared b"),                                        # SGR colours
    ("x\x1b]8;;http://evil.example/\x1b\\click\x1b]8;;\x1b\\ y", "xclick y"),    # OSC 8 hyperlink (ST)
    ("\x1b]0;PWNED title\x07after", "after"),                                    # window title (BEL)
    ("\x1b[2J\x1b[1Aclear", "clear"),                                            # screen and cursor
    ("c1\x9b31m \x9d0;PWNED\x9cend", "c1 end"),                                  # 8-bit CSI and OSC
    ("keep\x1b] not ended, the rest stays", "keep not ended, the rest stays"),  # unterminated OSC
    ("z\u200bw\u200dj\ufeffb\u2060w\u00ads\U000e0041t", "zwjbwst"),             # zero-width, BOM, tags
    ("\u2066iso\u2069 \u202egnp.exe", f"{VISIBLE_MARK}iso{VISIBLE_MARK} {VISIBLE_MARK}gnp.exe"),
    ("line\roverwritten", "line\noverwritten"),
    ("[bold red]ALERT[/bold red] [link=http://e/]x[/link]", "[bold red]ALERT[/bold red] [link=http://e/]x[/link]"),
])
def test_the_terminal_sees_the_text_not_the_trick(hostile, shown):
    assert plain(hostile) == shown


def test_rich_shows_console_markup_in_issue_text_as_written():
    from rich.console import Console

    console = Console(force_terminal=True, color_system="truecolor", width=200, record=True)
    console.print(text("[link=http://evil.example/]open[/link] [bold red]ALERT[/bold red]\u202e"))
    out = console.export_text(styles=True)
    assert "[link=http://evil.example/]open[/link] [bold red]ALERT[/bold red]" in out
    assert "\x1b]8" not in out and "\u202e" not in out


@given(st.dictionaries(st.text(max_size=5), st.text(alphabet=st.characters(codec=None)), max_size=4))
@example({"": "\ud800", "b": "x\udfff"})    # lone surrogates: broken UTF-16 from a platform
def test_json_for_a_terminal_is_the_same_data_and_holds_nothing_unsafe(data):
    out = json_text(data)
    assert json.loads(out) == data
    assert not any(_unsafe(ch) for ch in out if ch != "\n")


# ---------------------------------------------------------------- theme words

TABLE_REPORT = ("## 环境\n\n| 参数 | 值 |\n| --- | --- |\n| batch | ## |\n\n---\n\n```bash\n$ run --it\n```\n"
                "<table><tr><td>cell</td></tr></table>\n\n***\n> quoted\n[bold red]ALERT[/bold red] 量化校准报错 NaN")


def test_theme_words_are_words_not_layout():
    words = topic_words(TABLE_REPORT, 12)
    assert words and all(is_word(w) for w in words)
    assert not set(words) & MARKUP_WORDS, words
    assert "量化" in words or "校准" in words
    left = prose(TABLE_REPORT)
    assert not any(tok in left for tok in ("|", "---", "```", "<td", "[bold red]", "## 环境", "***", "> quoted")), left
    assert all(w in left for w in ("环境", "参数", "batch", "cell", "quoted", "ALERT", "NaN"))   # the words stay
    assert not is_word("---") and not is_word("##") and not is_word("3.2") and is_word("量化") and is_word("w8a8")


def test_a_theme_headline_is_never_made_of_markup():
    from fixlore.compose.editorial import headline, shared_words
    from fixlore.compose.figures import Refs

    cases = [Case(repo="o/r", number=n, title=f"量化校准报错 {n}", url=f"https://gitcode.com/o/r/issues/{n}",
                  problem=TABLE_REPORT) for n in (1, 2, 3)]
    words = shared_words(cases, 4)
    assert words and not set(words) & MARKUP_WORDS, words
    ref = Refs(cases)
    for lang in ("zh", "en"):
        line = headline(1, cases, ref, lang, [])
        assert not any(tok in line for tok in ("---", "##", "td", "|", "bold", "```")), line


def test_theme_names_hold_no_layout_words():
    from fixlore.analyse.themes import assign_themes

    cases = [Case(repo="o/r", number=n, title=f"量化校准报错 {n}", url="", problem=TABLE_REPORT) for n in (1, 2)]
    themes = assign_themes(cases)
    parts = {p for name in themes for p in name.split("-")}
    assert parts and not parts & MARKUP_WORDS, themes


# ---------------------------------------------------------------- the commands on the hostile world


def _hostile_key(run) -> str:
    cases = [json.loads(line) for line in (run / "cases.jsonl").read_text(encoding="utf-8").splitlines()]
    case = next(c for c in cases if c["funnel"] == "selected" and "\u202e" in c["title"])
    return f"{case['repo']}#{case['number']}"


def _invoke(args: list[str]) -> str:
    result = CliRunner().invoke(app, args, env={"FORCE_COLOR": "1", "COLUMNS": "200", "NO_COLOR": ""})
    assert result.exit_code == 0, (args, result.output[-2000:])
    return result.output


def _assert_clean(out: str, where: str) -> None:
    body = RICH_STYLE.sub("", out)
    assert "\x1b" not in body, (where, body[body.index("\x1b") - 40:body.index("\x1b") + 40])
    assert not any(_unsafe(ch) for ch in body), (where, sorted({hex(ord(ch)) for ch in body if _unsafe(ch)}))
    assert "PWNED" not in body and "evil.example" not in body.replace("[link=http://evil.example/]", ""), where


@pytest.fixture(scope="module")
def sqlite_run(hostile_sqlite_run) -> Path:
    return hostile_sqlite_run


def test_explain_and_the_cases_commands_print_no_hostile_character(sqlite_run):
    key = _hostile_key(sqlite_run)
    out = ["--out", str(sqlite_run)]
    shown = {
        "explain": _invoke(["explain", key, *out]),
        "cases status": _invoke(["cases", "status", key, *out]),
        "cases search": _invoke(["cases", "search", "服务进程崩溃 gnp.exe", "-k", "5", *out]),
        "cases related": _invoke(["cases", "related", key, *out]),
    }
    for where, printed in shown.items():
        _assert_clean(printed, where)
    # the title's console markup is printed as written: it was never read as markup
    for where in ("explain", "cases status"):
        assert "[bold red]ALERT[/bold red]" in RICH_STYLE.sub("", shown[where]), where
        assert VISIBLE_MARK + "gnp.exe" in RICH_STYLE.sub("", shown[where]), where


def test_the_json_forms_escape_what_a_terminal_would_obey(sqlite_run):
    key = _hostile_key(sqlite_run)
    out = ["--out", str(sqlite_run), "--json"]
    for args in (["explain", key], ["cases", "status", key], ["cases", "search", "服务进程崩溃", "-k", "3"]):
        printed = _invoke([*args, *out])
        assert not any(_unsafe(ch) for ch in printed if ch != "\n"), args
        data = json.loads(printed)
        assert "\u202e" in json.dumps(data, ensure_ascii=False), args      # the data itself is whole


def test_the_digest_themes_hold_no_markup(sqlite_run):
    digest = json.loads((sqlite_run / "digest.json").read_text(encoding="utf-8"))
    for lang, d in digest["digests"].items():
        assert d["themes"], lang
        for theme in d["themes"]:
            head = theme["headline"]
            assert not any(tok in head for tok in (*LAYOUT_TOKENS, "[bold", "[/", "[link")), (lang, head)
            words = set(re.split(r"[\s、，,:：。]+", head.lower()))
            assert not words & MARKUP_WORDS, (lang, head)
            for bullet in theme["bullets"]:
                for field in ("problem", "text"):
                    assert not any(tok in bullet[field] for tok in LAYOUT_TOKENS), (lang, bullet[field])


def test_a_warning_quoting_issue_text_reaches_stderr_cleaned(capsys):
    import logging

    from fixlore.edges import logs
    logs.configure(0)
    try:
        logging.getLogger("fixlore.test").warning("title %s", "x\u202egnp.exe\x1b]0;PWNED\x07\u200b")
    finally:
        logs.configure(0)
    err = capsys.readouterr().err
    assert f"title x{VISIBLE_MARK}gnp.exe" in err and "PWNED" not in err and "\u200b" not in err
