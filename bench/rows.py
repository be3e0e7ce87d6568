"""Measure digest rows against reference rows: hard-fact recall, row length, grounding.

    .venv/bin/python bench/rows.py --digest out/ascend/digest.json \
        [--world worlds/ascend-2026-09] [--seed ../shared/seed/ascend-digest-16-2026-09.txt] [--show 10] \
        [--split tune|heldout|all]
    .venv/bin/python bench/rows.py --reference bench/reference/npu-threads.yaml \
        --reference-digest out/npu/digest.json [--split tune|heldout|all]
    .venv/bin/python bench/rows.py --llm-script [--world worlds/ascend-2026-09] [--out DIR]

With `--llm-script` it runs the world itself, offline and then against a scripted loopback stand-in
for a model (not a model: see bench/rows_llm.py), and prints the same measures for both, with what
the grounding check caught, what was repaired, what fell back and the disclosure's wording.

Two references: the seed digest's 50 rows (ascend-2026-09), and hand-written rows for 27 issues of
npu-threads (`bench/reference/npu-threads.yaml`, naming its world, each row with its hard facts
listed and a `split`).
Both are measured the same way; given both, both are printed. Both are measured per split
(`--split`, default `tune`): the hand-written rows by their `split`, the seed's rows by the split the
world's truth gives the issue, or the SHA-1 rule of worldgen/seed_twin.py where it names none
(ascend-2026-09; bench/splits.py). Only `tune` is shown row by row; `heldout` and `all` print
figures only (no rows, no misses), so measuring them does not show what to fit.

For each of the seed digest's rows (a repo section's table: "#N" then the problem and answer cells,
run together in the text export) it takes the row's *hard facts* and checks which of them our
digest row for the same issue carries (problem + answer cells, compared after folding case and
width). A hard fact is one of:

- a PR or issue reference: `!795`, `#498`, or `PR 986` (the seed writes both; compared as `!N`/`#N`
  on the number alone, because our rows write GitCode PRs as `!N`);
- a version: three or more dot-separated numbers, or two with a `v` prefix or an rc/post suffix
  (`3.2.2`, `26.2.0`, `0.23.0rc1`, `2.7.1.post4`; a bare `5.1` is too often a score or a ratio);
- a code identifier or config key: an ASCII word with `_`, a `.` between letters, a `--` prefix,
  an inner capital (`lora_save_only`, `config.toml`, `--timeout`, `VllmCommand`);
- a measured number: a number with a unit (`36G`, `0.25%`, `1.3×`, `30s`, `2 分钟`).

The hand-written reference lists its hard facts; one that is none of these kinds (an error code
such as `LNK2038`, a name such as `300IDuo`) is matched as written. Dates, plain counts and prose are not counted: the point is the facts a reader acts on.
Printed: recall over all seed facts (micro) and per row (median), per kind; the median length of
our rows (problem + answer, characters); and grounding: the share of the same kinds of facts in
OUR rows that occur in the case's sources (the world's issue, comments and the PRs of the case's
candidates, with their commits and files), with the ungrounded ones listed. Any digest.json from
`fixlore run` can be measured, so the offline analyst and an LLM run are compared the same way.

The seed is one real run's output (the spec by example); it is used here to measure, never to
tune a rule. Nothing leaves the machine.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import unicodedata
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
from splits import SPLITS, Splits  # noqa: E402  (bench/ is a folder of scripts, not a package)

ROOT = Path(__file__).resolve().parents[1]
# beside the checkout, or beside the folder of worktrees (/work/wt/<name> next to /work/shared)
DEFAULT_SEED = next((p for p in (ROOT.parent / "shared" / "seed" / "ascend-digest-16-2026-09.txt",
                                 ROOT.parents[1] / "shared" / "seed" / "ascend-digest-16-2026-09.txt") if p.exists()),
                    ROOT.parent / "shared" / "seed" / "ascend-digest-16-2026-09.txt")
DEFAULT_WORLD = ROOT / "worlds" / "ascend-2026-09"

TABLE_HEADER = "编号Issue"
# ASCII word classes on purpose: in CJK text a reference or identifier touches a Han character
# ("失败!870修"), which \w would count as part of a word.
W = "A-Za-z0-9_"
REF = re.compile(rf"(?:(?<![{W}])(?P<sigil>[!#])|(?<![{W}])PR\s*)(?P<num>\d{{2,6}})(?!\.\d)(?![{W}.])")
VERSION = re.compile(
    rf"(?<![{W}.])(?:v\d+(?:\.\d+){{1,3}}|\d+(?:\.\d+){{2,3}}|\d+\.\d+(?:rc|\.?post)\d+)(?:rc\d+|\.?post\d+)?(?![{W}.])", re.I
)
IDENT = re.compile(rf"(?<![{W}./-])(?:--)?[A-Za-z_][{W}]*(?:[./][A-Za-z_][{W}]*)*")
MEASURE = re.compile(
    rf"(?<![{W}.])\d+(?:\.\d+)?\s?(?:%|×|倍|秒|分钟|小时|天|(?:x|[KMGT]i?B?|ms|s)(?![{W}]))", re.I
)


def fold(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold()


@dataclass(frozen=True)
class Fact:
    kind: str  # ref | version | ident | measure
    key: str  # normalised form used for matching


def _is_identifier(word: str) -> bool:
    bare = word.lstrip("-")
    if len(bare) < 3:
        return False
    if word.startswith("--"):
        return True
    if "_" in bare.strip("_") or re.search(r"[a-z][A-Z]", bare):
        return True
    return bool(re.search(r"[A-Za-z]\.[A-Za-z]", bare))


def facts_in(text: str) -> set[Fact]:
    """The hard facts a row's text states (see the module docstring for the kinds)."""
    text = unicodedata.normalize("NFKC", text)
    found: set[Fact] = set()
    for m in REF.finditer(text):
        found.add(Fact("ref", m.group("num")))
    versions = {m.group(0).lstrip("vV") for m in VERSION.finditer(text)}
    found |= {Fact("version", fold(v)) for v in versions}
    for m in IDENT.finditer(text):
        word = m.group(0)
        if _is_identifier(word):
            found.add(Fact("ident", fold(word)))
    for m in MEASURE.finditer(text):
        found.add(Fact("measure", re.sub(r"\s+", "", fold(m.group(0)))))
    return found


def carried(fact: Fact, text: str) -> bool:
    """Whether a folded row text states the fact (refs by number with a sigil or 'PR')."""
    if fact.kind == "ref":
        return bool(re.search(rf"(?:[!#]|pr\s*){fact.key}(?!\d)", text))
    if fact.kind == "measure":
        return fact.key in re.sub(r"\s+", "", text)
    return fact.key in text


@dataclass
class SeedRow:
    repo: str
    number: int
    text: str
    facts: set[Fact] = field(default_factory=set)

    @property
    def key(self) -> str:
        return f"{self.repo}#{self.number}"


def world_issue_numbers(world: Path) -> dict[str, set[int]]:
    numbers: dict[str, set[int]] = {}
    for path in world.glob("repos/*/*/issues/*.json"):
        if path.stem.isdigit():
            numbers.setdefault(path.parent.parent.name, set()).add(int(path.stem))
    return numbers


def parse_seed(text: str, known: dict[str, set[int]]) -> list[SeedRow]:
    """The seed's table rows. The text export runs the cells together ("#4434fdcdefb 后…" is
    #443 then "4fdcdefb"), so the issue number is the longest digit prefix the world knows."""
    lines = text.splitlines()
    rows: list[SeedRow] = []
    repo = ""
    for i, line in enumerate(lines):
        if line.startswith(TABLE_HEADER):
            heading = next((lines[j] for j in range(i - 1, -1, -1)
                            if lines[j].strip() and "（" in lines[j] and not lines[j].startswith("#")), "")
            repo = heading.split("（", 1)[0].strip()
            continue
        if not repo or not line.startswith("#"):
            if not line.strip() or line.startswith("#"):
                continue
            if "（" in line and not line.startswith(" "):
                repo = ""  # a new section heading: the table ended
            continue
        digits = re.match(r"#(\d+)", line).group(1)
        numbers = known.get(repo, set())
        cut = next((n for n in range(len(digits), 0, -1) if int(digits[:n]) in numbers), len(digits))
        row = SeedRow(repo, int(digits[:cut]), line[1 + cut:])
        row.facts = facts_in(row.text)
        rows.append(row)
    return rows


def hard_fact(text: str) -> Fact:
    """One listed hard fact of the hand-written reference: its kind when it is one, else literal."""
    found = facts_in(text)
    return next(iter(found)) if len(found) == 1 else Fact("literal", fold(text))


def reference_world(path: Path) -> Path:
    """The world a hand-written reference was written from (its `world:` key, a folder of worlds/)."""
    return ROOT / "worlds" / str(yaml.safe_load(path.read_text(encoding="utf-8"))["world"])


def parse_reference(path: Path, split: str) -> list[SeedRow]:
    """The hand-written reference rows of one split (`all` for every row), keyed by full repo name."""
    rows = []
    for entry in yaml.safe_load(path.read_text(encoding="utf-8"))["rows"]:
        if split != "all" and entry["split"] != split:
            continue
        row = SeedRow(entry["repo"], int(entry["number"]), f"{entry['problem']}\n{entry['answer']}")
        row.facts = {hard_fact(str(h)) for h in entry["hard"]}
        rows.append(row)
    return rows


def our_rows(digest: dict, lang: str = "zh") -> dict[str, str]:
    """Our rows by case key, each under the digest's key ("vllm-omni#2323") and the full repo name
    ("vllm-project/vllm-omni#2323")."""
    rows: dict[str, str] = {}
    for repo in digest["digests"][lang]["repos"]:
        for row in repo["rows"]:
            text = f"{row.get('problem', '')}\n{row.get('answer', '')}"
            rows[row["case"]] = text
            rows[f"{repo['full_name']}#{row['case'].rpartition('#')[2]}"] = text
    return rows


def case_pulls(case: dict) -> set[tuple[str, int]]:
    pulls = {(c["repo"], c["number"]) for c in case.get("candidates", [])}
    return pulls | {(f["repo"], f["number"]) for key in ("fix", "pending_fix") for f in case.get(key, [])}


def pipeline_facts(case: dict) -> str:
    """What the pipeline itself states about the case (cited documents with their scores, fix PRs,
    the close's lag): grounded in the run's own data rather than in the thread's text."""
    parts = [f"{ref.get('doc', '')} {ref.get('chunk', '')} {ref.get('score', '')}" for ref in case.get("kb_refs", [])]
    parts += [f"!{n} #{n}" for _, n in case_pulls(case)]
    parts += [case.get("timing_note", "")] + [e.get("detail", "") for e in case.get("evidence", [])]
    lags = [case.get("lag_s")] + [int(n) for n in re.findall(r"(-?\d+) ?s\b", case.get("timing_note", ""))]
    for lag in (abs(x) for x in lags if isinstance(x, int)):
        parts += [f"{lag}秒 {lag}s {lag // 60}分{lag % 60}秒 {lag // 60}分{lag % 60:02d}秒 {lag // 60}分钟 {lag / 3600:.1f}小时 {lag // 3600}小时 "
                  f"{lag / 86400:.1f}天 {round(lag / 86400)}天 {lag // 86400}天"]
    return fold(" ".join(parts))


def case_sources(world: Path, case: dict) -> str:
    """Every text the case's analyst could have read: the issue with its comments and the PRs
    among its candidates and fixes, with their commits and changed files; and the pipeline's
    own facts about the case."""
    owner, name = case["repo"].split("/", 1)
    base = world / "repos" / owner / name
    parts = [p.read_text(encoding="utf-8") for p in base.glob(f"issues/{case['number']}.*json")]
    for repo, number in sorted(case_pulls(case)):
        o, n = repo.split("/", 1)
        parts += [p.read_text(encoding="utf-8") for p in (world / "repos" / o / n).glob(f"pulls/{number}.*json")]
    # The world is JSON: undo escapes so identifiers and CJK compare as written.
    text = "\n".join(parts)
    text = re.sub(r"\\u([0-9a-fA-F]{4})", lambda m: chr(int(m.group(1), 16)), text)
    return fold(text.replace("\\n", "\n").replace('\\"', '"')) + "\n" + pipeline_facts(case)


def measure(title: str, refs: list[SeedRow], digest: dict, world: Path, show: int, rows_shown: bool = True) -> None:
    """Print recall of `refs`' hard facts in our rows, our rows' median length and grounding."""
    ours = our_rows(digest)
    cases = {f"{c['repo']}#{c['number']}": c for c in digest.get("cases", [])}
    full = {k: v for k, v in ours.items() if k.count("/") and k in cases}   # each row once

    total, hit = Counter(), Counter()
    per_row: list[tuple[float, SeedRow, list[Fact]]] = []
    missing_rows = [r.key for r in refs if r.key not in ours]
    both_total = both_hit = 0          # on the rows both digests publish (selection set aside)
    for row in refs:
        text = fold(ours.get(row.key, ""))
        misses = []
        for fact in row.facts:
            total[fact.kind] += 1
            both_total += row.key in ours
            if carried(fact, text):
                hit[fact.kind] += 1
                both_hit += 1
            else:
                misses.append(fact)
        if row.facts:
            per_row.append((1 - len(misses) / len(row.facts), row, misses))

    n_total, n_hit = sum(total.values()), sum(hit.values())
    print(f"== {title}")
    # which rows lack one of ours names cases: shown on the tune split only (held-out: the count)
    print(f"reference rows: {len(refs)}; with a row of ours: {len(refs) - len(missing_rows)}"
          + (f" (missing: {', '.join(missing_rows)})" if missing_rows and rows_shown else ""))
    print(f"fact recall: {n_hit}/{n_total} = {n_hit / max(n_total, 1):.3f} (micro); "
          f"median per row {statistics.median([r for r, _, _ in per_row] or [0]):.3f}; on the rows both publish "
          f"{both_hit}/{both_total} = {both_hit / max(both_total, 1):.3f}")
    for kind in ("ref", "ident", "version", "measure", "literal"):
        if total[kind]:
            print(f"  {kind:8s} {hit[kind]:4d}/{total[kind]:<4d} = {hit[kind] / total[kind]:.3f}")
    keys = {r.key for r in refs}
    lengths = [len(t.replace("\n", "")) for k, t in full.items()]
    mine = [len(ours[k].replace("\n", "")) for k in keys if k in ours]
    print(f"our rows: {len(lengths)}; median length (problem + answer) {statistics.median(lengths or [0]):.0f} chars "
          f"({statistics.median(mine or [0]):.0f} on the reference's issues); "
          f"reference rows' median {statistics.median([len(r.text.replace(chr(10), '')) for r in refs] or [0]):.0f}")

    grounded = ungrounded = 0
    unsupported: list[str] = []
    for key, text in sorted(full.items()):
        case = cases[key]
        sources = case_sources(world, case)
        for fact in sorted(facts_in(text), key=lambda f: (f.kind, f.key)):
            if carried(fact, sources) or (fact.kind == "ref" and fact.key == str(case["number"])):
                grounded += 1
            else:
                ungrounded += 1
                unsupported.append(f"{key}: {fact.kind} {fact.key}")
    print(f"facts in our rows found in the case's sources: {grounded}/{grounded + ungrounded} = "
          f"{grounded / max(grounded + ungrounded, 1):.3f}")
    for line in unsupported[: show]:
        print(f"  ungrounded  {line}")
    if not rows_shown:
        return
    print(f"rows with the lowest recall (first {show}):")
    for score, row, misses in sorted(per_row, key=lambda t: t[0])[: show]:
        print(f"  {row.key:24s} {score:.2f}  missing: {', '.join(sorted(f.key for f in misses))[:110]}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--digest", type=Path, help="digest.json of a fixlore run of the seed's world")
    ap.add_argument("--world", type=Path, default=DEFAULT_WORLD, help="the world that run harvested")
    ap.add_argument("--seed", type=Path, default=DEFAULT_SEED, help="the seed digest (text export)")
    ap.add_argument("--reference", type=Path, help="hand-written reference rows (bench/reference/*.yaml)")
    ap.add_argument("--reference-digest", type=Path, help="digest.json of a run of the reference's world")
    ap.add_argument("--split", choices=SPLITS, default="tune",
                    help="which rows of the seed and of the hand-written reference (heldout, all: figures only)")
    ap.add_argument("--show", type=int, default=10, help="how many rows / ungrounded facts to list")
    ap.add_argument("--llm-script", action="store_true",
                    help="run --world offline and against a scripted stand-in for a model, and measure both")
    ap.add_argument("--out", type=Path, help="where --llm-script writes its two runs (default /tmp/rows-llm-<world>)")
    args = ap.parse_args(argv)
    if args.llm_script:
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        import rows_llm

        return rows_llm.main(args, sys.modules[__name__])
    if not args.digest and not (args.reference and args.reference_digest):
        print("bench/rows.py: give --digest, or --reference with --reference-digest", file=sys.stderr)
        return 2
    paths = [args.digest, args.seed, args.world] if args.digest else []
    paths += [args.reference, args.reference_digest] if args.reference else []
    for path in paths:
        if path is None or not path.exists():
            print(f"bench/rows.py: {path} does not exist (--reference needs --reference-digest)", file=sys.stderr)
            return 2
    if args.digest:
        digest = json.loads(args.digest.read_text(encoding="utf-8"))
        known = world_issue_numbers(args.world)
        seed = parse_seed(args.seed.read_text(encoding="utf-8"), known)
        # a world that encodes part of the seed's increment (worlds/seed-twin) is measured on its part
        encoded = [r for r in seed if r.number in known.get(r.repo, set())]
        if len(encoded) < len(seed):
            print(f"{args.world.name} encodes {len(encoded)} of the seed's {len(seed)} rows: measured on those")
        splits = Splits(args.world)
        encoded = [r for r in encoded if splits.keep(r.repo, r.number, args.split)]
        measure(f"seed digest ({args.seed.name}, split {args.split}: {len(encoded)} rows) on {args.world.name}",
                encoded, digest, args.world, args.show if args.split == "tune" else 0, rows_shown=args.split == "tune")
    if args.reference:
        try:
            world = reference_world(args.reference)
            refs = parse_reference(args.reference, args.split)
        except (yaml.YAMLError, KeyError, TypeError, ValueError) as exc:
            print(f"bench/rows.py: {args.reference} is not a reference file ({type(exc).__name__}: "
                  f"{str(exc).splitlines()[0] if str(exc) else 'a row lacks a field'})", file=sys.stderr)
            return 2
        digest = json.loads(args.reference_digest.read_text(encoding="utf-8"))
        measure(f"hand-written reference ({args.reference.name}, split {args.split}) on {world.name}", refs, digest,
                world, args.show if args.split == "tune" else 0, rows_shown=args.split == "tune")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
