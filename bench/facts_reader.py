"""A reader's count of the hard facts: how many of the seed digest's facts a reader finds in our
digest, counted on the text the reader sees (issue #22's second measure, written from the issue's
description and independent of bench/rows.py: its own row reader, its own fact kinds; the two share
only the rule of which split a row is in, bench/splits.py).

    .venv/bin/python bench/facts_reader.py --digest OUT/digest.zh.md [--seed SEED.txt] [--world W]
        [--split tune|heldout|all] [--json]
    .venv/bin/python bench/facts_reader.py --digest NPU_OUT --reference bench/reference/npu-threads.yaml

Every figure is for one split (`--split`, default `tune`): the split the world's truth gives the
issue, or the SHA-1 rule of worldgen/seed_twin.py where it names none (ascend-2026-09). `--world`
(default worlds/ascend-2026-09) is the world the digest was run on: the seed rows it does not hold
are left out, and its truth gives the splits. Only `tune` lists the facts missed (`--show`); the
held-out rows are counted, never shown. With `--reference` the rows read are a hand-written
reference's (bench/reference/*.yaml: each row's problem and answer, its facts found by this reader's
kinds, not by the file's own list), on the world the file names.

The reader sees our Markdown, not our JSON: a table row "| [#N](url) | problem | answer |" is read
with each link as its text and code marks dropped, so a fact carried only by a URL or a tooltip does
not count. The seed (the plain-text export of no. 16) is read the same way: under each repository's
heading, a table line "#N<problem><answer>" is one row.

A hard fact is what a reader acts on or checks, of four kinds, each compared after folding width
and case:
- pr: a pull request or issue as "!N", "#N", "PR N", "PR#N" or "PR !N" (compared by number; the
  seed writes some repositories' PRs "#N");
- version: numbers joined by dots, with an optional rc/post/RC suffix ("3.2.2", "26.2.0",
  "0.23.0rc1", "24.1.RC2.7"), or a "v" and two numbers;
- ident: an ASCII token a reader would type: with "_", a "." between letters, a "--" prefix, or
  a capital after a small letter ("lora_save_only", "config.toml", "VllmCommand"); a path or a
  list with "/" is read part by part ("tmp/vllm/stop_vllm_process.sh" gives the script's name);
- number: a number of two or more digits or with a decimal point or a unit ("36G", "0.25%",
  "1.3×", "600s", "137"), not part of a version, an identifier, a date or the row's own number.
Dates are left out: the seed writes "2026-09-15 合并" where a reader of ours sees "09-15 合入"; so
are times of day, and the seed's retrieval score after a cited document ("（0.897）", "FAQ 0.924":
a bare decimal of three or four places below 1), a figure about our search, not about the issue.

Printed: the seed rows found in our digest (by repository and number), recall over all their facts
and the median of each row's recall, recall over every seed row (a row we do not publish missing
all its facts), recall per kind, the median visible length of our rows
(problem + answer), and with --show the facts missed per row. Nothing leaves the machine; the seed
is read to measure, never to tune a rule.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import unicodedata
from collections import Counter
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
from splits import SPLITS, Splits, by_hash  # noqa: E402  (bench/ is a folder of scripts, not a package)

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_WORLD = ROOT / "worlds" / "ascend-2026-09"
SEEDS = (ROOT.parent / "shared" / "seed" / "ascend-digest-16-2026-09.txt",
         ROOT.parents[1] / "shared" / "seed" / "ascend-digest-16-2026-09.txt")

_A = "A-Za-z0-9_"
_PR = re.compile(r"(?:PR\s*[#!]?\s*|(?<![A-Za-z0-9_&])[!#])(\d{1,6})(?![0-9])")
_VERSION = re.compile(rf"(?<![{_A}.])(?:v\d+\.\d+(?:\.\d+)*|\d+(?:\.\d+){{2,}}|\d+\.\d+(?:rc|post)\d+)"
                      rf"(?:\.?(?:rc|post|RC)\d+)*(?:\.\d+)*(?![{_A}])", re.I)
_IDENT = re.compile(rf"(?<![{_A}])(?:--)?[A-Za-z][{_A}]*(?:\.[A-Za-z_][{_A}]*)*(?![{_A}])")
_DATE = re.compile(r"(?<![\d.])(?:(?:\d{4}-)?\d{2}-\d{2}(?:\s*[~～-]\s*\d{2}(?:-\d{2})?)?|\d{1,2}:\d{2}(?::\d{2})?)(?![\d.])")
_NUMBER = re.compile(rf"(?<![{_A}.\-])\d+(?:\.\d+)?(?:\s?(?:%|×|x|倍|[KMGT]i?B?|ms|s|h|秒|分钟|小时|天))?(?![{_A}])")
_SCORE = re.compile(r"(?<![\d.])0\.\d{3,4}(?![\d.%×xX倍])")
_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
_MD_ROW = re.compile(r"^\|\s*\[#(\d+)\]\([^)]*\)\s*\|(.*)\|\s*$")
_SEED_ROW = re.compile(r"^#(\d+)(.+)$")


def fold(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold()


def visible(cell: str) -> str:
    """A Markdown cell as read: links as their text, code marks and escapes dropped."""
    text = _LINK.sub(r"\1", cell).replace("\\|", "|").replace("`", "").replace("**", "")
    return re.sub(r"\s+", " ", text).strip()


def facts(text: str, own: int | None = None) -> set[tuple[str, str]]:
    """The hard facts of `text` as (kind, value)."""
    text = _SCORE.sub(" ", unicodedata.normalize("NFKC", text))
    found: set[tuple[str, str]] = set()
    for m in _PR.finditer(text):
        found.add(("pr", str(int(m.group(1)))))
    text = _PR.sub(" ", text)
    for m in _VERSION.finditer(text):
        found.add(("version", fold(m.group(0)).lstrip("v")))
    text = _VERSION.sub(" ", text)
    for m in _IDENT.finditer(text):
        word = m.group(0)
        if word.startswith("--") or "_" in word or re.search(r"[a-z]\.[A-Za-z]|[a-z][A-Z]", word):
            found.add(("ident", fold(word)))
    text = _DATE.sub(" ", _IDENT.sub(" ", text))
    for m in _NUMBER.finditer(text):
        raw = re.sub(r"\s", "", m.group(0)).replace("x", "×")
        digits = re.match(r"[\d.]+", raw).group(0)
        if raw == digits and "." not in digits and len(digits) < 2:
            continue
        if own is not None and raw == str(own):
            continue
        found.add(("number", raw))
    return found


def seed_rows(text: str) -> dict[tuple[str, int], str]:
    """{(repo, number): row text} from the seed's plain-text export. The export runs the issue
    number into the problem ("#4434fdcdefb 后…" is #443, "#64326.0.0 分支…" is #643): a section's
    numbers have the length most of its rows show, one digit more where that would not be above
    the previous row's (the rows are in ascending order)."""
    sections: list[tuple[str, list[str]]] = []
    repo = ""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("编号Issue"):
            heading = next((lines[j] for j in range(i - 1, -1, -1) if "（" in lines[j] and not lines[j].startswith("#")), "")
            repo = heading.split("（", 1)[0].strip()
            sections.append((repo, []))
        elif repo and _SEED_ROW.match(line):
            sections[-1][1].append(line[1:])
        elif line.strip() and not line.startswith("#"):
            repo = ""
    rows: dict[tuple[str, int], str] = {}
    for repo, raw in sections:
        runs = [re.match(r"\d+", body).group(0) for body in raw]
        usual = Counter(len(r) for r in runs).most_common(1)[0][0]
        previous = 0
        for digits, body in zip(runs, raw):
            cut = min(usual, len(digits))
            while int(digits[:cut]) <= previous and cut < len(digits):
                cut += 1
            previous = int(digits[:cut])
            rows[(fold(repo), previous)] = body[cut:]
    return rows


def reference_rows(path: Path) -> tuple[str, dict[tuple[str, int], str], dict[tuple[str, int], str]]:
    """(world name, {(repo, number): problem + answer}, {(repo, number): split}) of a hand-written
    reference file; repo is the repository's name without its owner, as our digest's headings show it."""
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    rows, splits = {}, {}
    for entry in data["rows"]:
        key = (fold(str(entry["repo"]).rpartition("/")[2]), int(entry["number"]))
        rows[key] = f"{entry['problem']}\n{entry['answer']}"
        splits[key] = str(entry["split"])
    return str(data["world"]), rows, splits


def held_issues(world: Path) -> set[tuple[str, int]]:
    """(repo, number) of the issues a world holds."""
    return {(fold(p.parent.parent.name), int(p.stem)) for p in world.glob("repos/*/*/issues/*.json") if p.stem.isdigit()}


def our_rows(markdown: str) -> dict[tuple[str, int], str]:
    """{(repo, number): visible problem + answer} from our digest.zh.md."""
    rows: dict[tuple[str, int], str] = {}
    repo = ""
    for line in markdown.splitlines():
        if line.startswith("## "):
            repo = line[3:].split("（", 1)[0].split(" (", 1)[0].strip()
        elif repo and (m := _MD_ROW.match(line)):
            cells = re.split(r"(?<!\\)\|", m.group(2))
            rows[(fold(repo), int(m.group(1)))] = " ".join(visible(c) for c in cells)
    return rows


def measure(seed: dict[tuple[str, int], str], ours: dict[tuple[str, int], str]) -> dict:
    per_row, kinds, missed = [], {}, {}
    hit_all = total_all = unpublished = 0
    for key, text in seed.items():
        want = facts(text, key[1])
        if key not in ours:
            unpublished += len(want)
            continue
        if not want:
            continue
        have = facts(ours[key], key[1])
        hit = want & have
        hit_all, total_all = hit_all + len(hit), total_all + len(want)
        per_row.append(len(hit) / len(want))
        for kind, _ in want:
            k = kinds.setdefault(kind, [0, 0])
            k[1] += 1
        for kind, _ in hit:
            kinds[kind][0] += 1
        if want - hit:
            missed[f"{key[0]}#{key[1]}"] = sorted(v for _, v in want - hit)
    lengths = [len(t) for t in ours.values()]
    return {"seed_rows": len(seed), "matched": sum(1 for k in seed if k in ours), "facts": total_all,
            "recalled": hit_all, "recall": round(hit_all / total_all, 3) if total_all else 0.0,
            "facts_all_rows": total_all + unpublished,
            "recall_all_rows": round(hit_all / (total_all + unpublished), 3) if total_all + unpublished else 0.0,
            "median_row_recall": round(statistics.median(per_row), 3) if per_row else 0.0,
            "by_kind": {k: f"{h}/{n}" for k, (h, n) in sorted(kinds.items())},
            "median_visible_row": statistics.median(lengths) if lengths else 0, "missed": missed}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--digest", type=Path, required=True, help="our digest.zh.md (a run's folder is read for it)")
    ap.add_argument("--seed", type=Path, default=next((p for p in SEEDS if p.exists()), SEEDS[0]))
    ap.add_argument("--world", type=Path, help="the world the digest was run on (default worlds/ascend-2026-09; "
                    "with --reference, the world the file names)")
    ap.add_argument("--reference", type=Path, help="hand-written reference rows (bench/reference/*.yaml) instead of the seed")
    ap.add_argument("--split", choices=SPLITS, default="tune", help="which rows (heldout, all: figures only)")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    ap.add_argument("--show", action="store_true", help="list the facts missed per row (split tune only)")
    args = ap.parse_args(argv)
    path = args.digest / "digest.zh.md" if args.digest.is_dir() else args.digest
    try:
        ours = path.read_text(encoding="utf-8")
        if args.reference:
            world_name, wanted, named = reference_rows(args.reference)
            world = args.world or ROOT / "worlds" / world_name
            kept = {k: v for k, v in wanted.items() if args.split in ("all", named[k])}
            source = args.reference.name
        else:
            world = args.world or DEFAULT_WORLD
            held, splits = held_issues(world), Splits(world)
            kept = {k: v for k, v in seed_rows(args.seed.read_text(encoding="utf-8")).items()
                    if k in held and splits.keep(k[0], k[1], args.split)}
            source = args.seed.name
    except OSError as exc:
        print(f"error: {exc.filename}: {exc.strerror}", file=sys.stderr)
        return 2
    except (yaml.YAMLError, KeyError, TypeError, ValueError) as exc:
        print(f"error: {args.reference} is not a reference file ({type(exc).__name__})", file=sys.stderr)
        return 2
    result = measure(kept, our_rows(ours))
    result.update(split=args.split, world=world.name, rows_of=source)
    if args.split != "tune":
        result["missed"] = {}     # held-out rows are counted, never shown
    if args.json:
        print(json.dumps(result, ensure_ascii=False, indent=1))
        return 0
    print(f"{source} rows of split {args.split} that {world.name} holds: {result['seed_rows']}, "
          f"found in our digest {result['matched']}")
    print(f"hard-fact recall {result['recalled']}/{result['facts']} = {result['recall']} "
          f"(median row {result['median_row_recall']}); by kind {result['by_kind']}; over all its rows of the split, "
          f"the unpublished ones' facts missed: {result['recalled']}/{result['facts_all_rows']} = {result['recall_all_rows']}")
    print(f"median visible row (problem + answer) {result['median_visible_row']} characters")
    if args.show and args.split == "tune":
        for key, values in result["missed"].items():
            print(f"  {key}: {', '.join(values)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
