"""Write the *hostile* world: the demo world with hostile text planted in its issues, comments
and pull requests, for the end-to-end checks of issue text as hostile input.

    .venv/bin/python worldgen/hostile.py TARGET        # e.g. a test's temporary folder

What is planted, deterministically (every third issue, every comment of those, every PR):
NUL and other control characters (ANSI colours, OSC 8 hyperlinks and window titles, DEL, C1),
right-to-left overrides and isolates ("\\u202egnp.exe" that shows as "exe.png"), zero-width
characters and a byte-order mark, console markup (``[bold red]``, ``[link=...]``), script and
event-handler markup, ``javascript:`` links in HTML and Markdown, entity-encoded tags, Markdown
tables, rules, heading marks and code fences and an HTML table, and one 1 MB issue body.
Original texts stay after the planted ones, so the links and the funnel still have their
signals. Nothing is committed: the demo world (itself written by ``worldgen/demo.py``) is
the input, and the output is the same byte for byte on every run.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "worlds" / "demo"

CONTROL = "\x00\x01\x07\x08\x0b\x0c\x1b[31mred\x1b[0m\x7f\x85\x9b"
TERMINAL = ("\x1b]8;;http://evil.example/\x1b\\click\x1b]8;;\x1b\\ \x1b]0;PWNED title\x07 \x1b[2J\x1b[1A"
            "\x9d0;PWNED\x9c \rover")
BIDI = "\u202egnp.exe \u202ax\u202c \u202bx\u202c \u202dx\u202c \u2066iso\u2069 \u2067x\u2069 \u2068x\u2069"
INVISIBLE = "zero\u200bwidth\u200djoin\ufeffbom\u2060wj\u200esoft\u00adhy\U000e0041tag"
CONSOLE = "[bold red]ALERT[/bold red] [link=http://evil.example/]open[/link] [blink]x[/]"
# Markdown and HTML layout: table pipes, the header rule, heading marks, a rule, a code fence
LAYOUT = ("## 环境\n\n| 参数 | 值 |\n| --- | --- |\n| batch | ## |\n| --- | --- |\n\n---\n\n"
          "```bash\n$ run --it\n```\n\n<table><tr><td>cell</td><th>head</th></tr></table>\n\n***\n")
MARKUP = (
    "<script>document.title='PWNED'</script>",
    "<img src=x onerror=\"document.title='PWNED'\">",
    "<a href=\"javascript:document.title='PWNED'\">click</a>",
    "[click me](javascript:document.title='PWNED') ![logo](javascript:alert(1))",
    "<svg onload=\"document.title='PWNED'\"><iframe src=\"javascript:alert(1)\"></iframe></svg>",
    "<div style=\"background:url(javascript:alert(1))\" onmouseover=\"alert(1)\">hover</div>",
    "&lt;img src=x onerror=alert(1)&gt; <IMG SRC=\"jav&#x09;ascript:alert(1)\">",
    "<body onload=alert(1)><style>*{display:none}</style><meta http-equiv=refresh content=0;url=javascript:alert(1)>",
)
BIG_BODY_BYTES = 1_000_000


def _hostile(i: int) -> str:
    return (f"{CONTROL} {TERMINAL} {BIDI} {INVISIBLE} {CONSOLE}\n{MARKUP[i % len(MARKUP)]}\n"
            f"{MARKUP[(i + 3) % len(MARKUP)]}\n{LAYOUT}")


def _big(text: str) -> str:
    line = "[INFO] worker 3 step 120 loss=nan grad_norm=inf <img src=x onerror=alert(1)> \u202egol.exe\x00\n"
    filler = line * (BIG_BODY_BYTES // len(line) + 1)
    return text + "\n" + filler


def _load(path: Path):
    return json.loads(path.read_text(encoding="utf-8"))


def _dump(path: Path, data) -> None:
    path.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")


def _selected(root: Path) -> list[Path]:
    """The issue files of the cases the world's truth keeps: the 1 MB body goes through every stage."""
    truth = yaml.safe_load((root / "truth.yaml").read_text(encoding="utf-8"))
    return [root / "repos" / row["repo"] / "issues" / f"{row['number']}.json"
            for row in truth["issues"] if row["funnel"] == "selected"]


def poison(root: Path) -> dict[str, int]:
    counts = {"issues": 0, "comments": 0, "pulls": 0, "big": 0}
    big = _selected(root)[0]
    issue_files = sorted(p for p in root.glob("repos/*/*/issues/*.json") if p.stem.isdigit())
    for i, path in enumerate(issue_files):
        if i % 3 and path != big:
            continue
        issue = _load(path)
        if issue.get("title"):
            issue["title"] = f"{issue['title']} \u202egnp.exe \u200b[bold red]ALERT[/bold red]\x1b]0;PWNED\x07"
        issue["body"] = _hostile(i) + (issue.get("body") or "")
        if path == big:
            issue["body"] = _big(issue["body"])
            counts["big"] += 1
        _dump(path, issue)
        counts["issues"] += 1
        comments = path.with_name(f"{path.stem}.comments.json")
        if comments.is_file():
            rows = _load(comments)
            for j, row in enumerate(rows):
                row["body"] = f"{row.get('body') or ''}\n{_hostile(i + j + 1)}"
                counts["comments"] += 1
            _dump(comments, rows)
    for k, path in enumerate(sorted(p for p in root.glob("repos/*/*/pulls/*.json") if p.stem.isdigit())):
        pull = _load(path)
        pull["title"] = f"{pull.get('title') or ''} \u202etxt.exe \ufeff[link=http://evil.example/]x[/link]"
        pull["body"] = f"{_hostile(k)}{pull.get('body') or ''}"
        _dump(path, pull)
        counts["pulls"] += 1
    return counts


def write(target: Path) -> dict[str, int]:
    if target.exists():
        if any(target.iterdir()) and not (target / "world.yaml").is_file():
            raise SystemExit(f"{target} is not empty and not a world; refusing to overwrite it")
        shutil.rmtree(target)
    shutil.copytree(SOURCE, target)
    return poison(target)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit("usage: worldgen/hostile.py TARGET")
    print(json.dumps(write(Path(sys.argv[1]))))
