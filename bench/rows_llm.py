"""The LLM path of `fixlore run`, measured against a scripted stand-in for a model (`bench/rows.py --llm-script`).

    .venv/bin/python bench/rows.py --llm-script [--world worlds/ascend-2026-09] [--out /tmp/rows-llm]

It runs the world twice in this process: once offline, once with FIXLORE_LLM_BASE_URL pointing at
a loopback OpenAI-compatible server (`fixlore.replay.chatscript`). That server is NOT a model: it
writes each case's row from the material in the analyse request itself (the title as the problem,
the first sentence of the first fix PR's body as the mechanism, the PR's title as the fix, the
body's first error line as the symptom; it keeps a case with a fix PR or any discussion), so it
measures the plumbing around a model (request, JSON, grounding check, repair, fallback,
disclosure, run.json), not a model's quality. Four cases, picked in order from the offline run's
analysed cases that have a fix PR, are answered wrongly on purpose:

- `number`: the mechanism adds a measured number found nowhere in the material; the repair round
  gets the clean row, so the grounding check must catch it and the repair must pass;
- `pr`: the fix names a PR the material never mentions, in every reply, so the claim is dropped;
- `malformed`: a cut-off JSON object, so the case falls back to the offline analyst;
- `timeout`: no answer within the client's timeout, so the case falls back too.

The kb check and the editorial pass ask the same endpoint; the stand-in refuses them (HTTP 400,
not retried), so both keep their offline paths, which the digest discloses. `fixlore run` has no
setting for the model's timeout (60 s, 4 attempts): for this run the analyst's defaults are
shortened (`timeout`, 2 attempts) so the scripted timeout costs seconds, not minutes.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import sys
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

from fixlore.analyse.llm import LlmAnalyst
from fixlore.replay.chatscript import FakeOpenAI, Ok, Raw, Sleep, Status

MODEL = "scripted-stand-in"
WRONG_KINDS = ("number", "pr", "malformed", "timeout")
_ISSUE = re.compile(r"^ISSUE (\S+)\ntitle: (.*)$", re.M)
_HEADINGS = ("DISCUSSION", "FIX PULL REQUESTS", "REVIEW COMMENTS", "COMMIT MESSAGES", "CHANGED FILES")
_ERROR = re.compile(r"error|exception|traceback|failed|fatal|报错|失败|异常|崩溃|超时", re.I)
_TOKEN = re.compile(r"[A-Za-z0-9_.!#%×/-]")
_SENTENCE_END = re.compile(r"(?<=[。！？；])|(?<=[.!?;])\s+")


def section(user: str, heading: str) -> str:
    """One section of the analyse prompt's user message (`heading` up to the next known heading)."""
    start = user.find("\n" + heading)
    if start < 0:
        return ""
    body = user[user.find("\n", start + 1) + 1:]
    ends = [body.find("\n\n" + h) for h in _HEADINGS if body.find("\n\n" + h) >= 0]
    text = body[: min(ends)] if ends else body
    return "" if text.strip() == "(none)" else text.strip()


def fix_numbers(user: str) -> list[int]:
    """The fix PRs' numbers from the FACTS the pipeline put in the prompt."""
    m = re.search(r"FACTS[^\n]*\n(\{.*?\n\})\n", user, re.S)
    try:
        return [int(p["number"]) for p in json.loads(m.group(1)).get("fix_prs", [])] if m else []
    except (ValueError, KeyError, TypeError):
        return []


def first_sentence(text: str, limit: int = 160) -> str:
    """The first sentence of `text` that says something (not a heading, a link or a checkbox)."""
    for line in text.splitlines():
        line = line.strip(" -*#>\t")
        if len(line) < 8 or line.startswith(("http", "[", "|", "<!--")):
            continue
        sentence = next((s.strip() for s in _SENTENCE_END.split(line) if len(s.strip()) >= 8), "")
        if sentence:
            return cut(sentence, limit)
    return ""


def cut(text: str, limit: int) -> str:
    """`text` within `limit` characters, cut between words: half a number ("!6" of "!699") or
    half a name would be a claim the material never makes."""
    if len(text) <= limit:
        return text
    at = limit
    while at > 0 and _TOKEN.match(text[at - 1]) and _TOKEN.match(text[at]):
        at -= 1
    return text[:at].rstrip("，, （(")


def written_row(user: str) -> dict:
    """The stand-in's row for one analyse request: every value copied from the request's material."""
    m = _ISSUE.search(user)
    title = m.group(2).strip() if m else "-"
    body = user[m.end():] if m else user
    zh = bool(re.search(r"[\u3400-\u9fff]", title))
    pulls = section(user, "FIX PULL REQUESTS")
    pr_head = re.match(r"#(\d+) \[\w+\] (.*)", pulls)
    pr_body = pulls[pulls.find("\n") + 1:] if pr_head and "\n" in pulls else ""
    symptom = next((ln.strip() for ln in body.splitlines()[1:40] if _ERROR.search(ln) and len(ln.strip()) > 6), title)
    fixes = fix_numbers(user)
    answered = bool(fixes or pr_head or section(user, "DISCUSSION"))     # a fix, or someone answered
    row = {"problem": cut(title, 80), "mechanism": first_sentence(pr_body), "fix": pr_head.group(2).strip() if pr_head else "",
           "workaround": "", "scope": "", "numbers": [], "trap": "", "theme": "", "symptom": cut(symptom, 60),
           "first_action": ("升级到含该修复的版本" if zh else "Upgrade to a release with the fix") if fixes
           else ("按讨论中的说明处理" if zh else "Follow the answer in the discussion"),
           "keep": answered, "drop_reason": "" if answered else "no_fix_evidence",
           "notes": ["scripted stand-in: copied from the request"]}
    if not (row["mechanism"] or row["fix"]):
        row["mechanism"] = first_sentence(section(user, "DISCUSSION")) or title
    return row


def absent(user: str, candidates: Iterator[str]) -> str:
    """The first candidate that occurs nowhere in the material (so that a claim of it is invented)."""
    return next(c for c in candidates if c not in user)


class StandIn:
    """Answers analyse requests with `written_row`, the `wrong` cases (kind -> case key) wrongly as
    the module says, and every other request (kb check, editorial) with HTTP 400."""

    def __init__(self, wrong: dict[str, str], timeout: float):
        self.wrong = {key: kind for kind, key in wrong.items()}
        self.timeout = timeout
        self.invented: dict[str, str] = {}      # kind -> the invented claim, as written
        self.refused = 0
        self.first: dict[str, dict] = {}        # case key -> the first row written for it
        self._seen: dict[str, int] = {}
        self._lock = threading.Lock()

    def __call__(self, user: str) -> Any:
        m = _ISSUE.search(user)
        if not m or "\ntitle: " not in user:
            with self._lock:
                self.refused += 1
            return Status(400, message="the scripted stand-in answers case analyses only")
        key = m.group(1)
        with self._lock:
            n = self._seen[key] = self._seen.get(key, 0) + 1
        row, kind = written_row(user), self.wrong.get(key)
        if n == 1 and kind not in ("malformed", "timeout"):
            self.first[key] = row
        if kind == "number" and n == 1:
            value = absent(user, (f"{a}.{b}" for a in range(37, 99) for b in range(1, 10)))
            self.invented["number"] = f"{value}%"
            row["mechanism"] = (row["mechanism"].rstrip("。. ") + f"。实测吞吐下降 {value}%。").lstrip("。")
        elif kind == "pr":
            number = absent(user, (str(n) for n in range(97_301, 99_999, 7)))
            self.invented["pr"] = f"!{number}"
            row["fix"] = f"由 !{number} 修复"
        elif kind == "malformed":
            return Raw(f'{{"problem": {json.dumps(row["problem"], ensure_ascii=False)}, "mechanism": ')
        elif kind == "timeout":
            return Sleep(self.timeout + 1.5)
        return Ok(content=row, prompt_tokens=max(1, len(user) // 4), completion_tokens=len(json.dumps(row)) // 4)


@contextlib.contextmanager
def short_model_timeout(seconds: float) -> Iterator[None]:
    """Every LLM analyst built in this process waits `seconds` per answer and tries twice (`fixlore
    run` has no setting for either, whoever builds the analyst), then as before."""
    original = LlmAnalyst.__init__

    def shortened(self, *args: Any, **kwargs: Any) -> None:
        kwargs.update(timeout=seconds, attempts=2, backoff_base=0.05, backoff_max=0.2)
        original(self, *args, **kwargs)

    LlmAnalyst.__init__ = shortened
    try:
        yield
    finally:
        LlmAnalyst.__init__ = original


@contextlib.contextmanager
def environment(**values: str) -> Iterator[None]:
    saved = {k: os.environ.get(k) for k in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def fixlore_run(world: Path, out: Path) -> int:
    """`fixlore run --world W --out O` in this process, its console output in `O.log`; its exit code."""
    from fixlore.cli.commands import main

    out.parent.mkdir(parents=True, exist_ok=True)
    with open(out.with_suffix(".log"), "w", encoding="utf-8") as log, contextlib.redirect_stdout(log), \
            contextlib.redirect_stderr(log):
        try:
            main(["run", "--world", str(world), "--out", str(out)])
        except SystemExit as exc:
            return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    return 0


def pick_wrong(digest: dict) -> dict[str, str]:
    """Kind -> case key: analysed cases with a fix PR, in the digest's order, spread over the list."""
    keys = [f"{c['repo']}#{c['number']}" for c in digest["cases"] if c.get("fix")
            and c.get("funnel") in ("selected", "analysis")]
    if len(keys) < len(WRONG_KINDS):
        raise SystemExit(f"bench/rows.py: the world has {len(keys)} analysed cases with a fix PR; the script needs 4")
    step = len(keys) // len(WRONG_KINDS)
    return {kind: keys[i * step] for i, kind in enumerate(WRONG_KINDS)}


@dataclass
class ScriptedRun:
    offline_code: int
    llm_code: int
    offline_dir: Path
    llm_dir: Path
    wrong: dict[str, str]
    invented: dict[str, str]
    requests: int
    refused: int
    caught: dict[str, list[str]] = field(default_factory=dict)   # case key -> claims the check caught

    def digest(self, which: str = "llm") -> dict:
        return json.loads(((self.llm_dir if which == "llm" else self.offline_dir) / "digest.json").read_text("utf-8"))

    def analyse_summary(self) -> dict:
        run = json.loads((self.llm_dir / "run.json").read_text("utf-8"))
        return next(s["summary"] for s in run["stages"] if s["name"] == "analyse")


def run_scripted(world: Path, out: Path, timeout: float = 2.0) -> ScriptedRun:
    """The world run offline, then against the stand-in; both outputs under `out`."""
    offline_dir, llm_dir = out / "offline", out / "llm"
    offline_code = fixlore_run(world, offline_dir)
    wrong = pick_wrong(json.loads((offline_dir / "digest.json").read_text("utf-8")))
    stand_in = StandIn(wrong, timeout)
    with FakeOpenAI(default=stand_in) as server, short_model_timeout(timeout), \
            environment(FIXLORE_LLM_BASE_URL=server.base_url, FIXLORE_LLM_MODEL=MODEL):
        llm_code = fixlore_run(world, llm_dir)
        requests = len(server.requests)
        caught = caught_claims(server.requests, stand_in.first)
    return ScriptedRun(offline_code, llm_code, offline_dir, llm_dir, wrong, dict(stand_in.invented), requests,
                       stand_in.refused, caught)


def caught_claims(requests: list[dict], first: dict[str, dict]) -> dict[str, list[str]]:
    """Case key -> the claims of its first written row that the analyst's grounding rule finds
    nowhere in that request's material (the same rule, `analyse.llm`, applied again to show them)."""
    from fixlore.analyse.llm import LlmReply, _unfounded

    out: dict[str, list[str]] = {}
    for req in requests:
        messages = req["body"].get("messages", [])
        user = next((m["content"] for m in messages if m.get("role") == "user"), "")
        m = _ISSUE.search(user)
        if not m or m.group(1) not in first or m.group(1) in out or len(messages) != 2:
            continue
        known = frozenset([int(m.group(1).rpartition("#")[2])] + fix_numbers(user))
        # the PRs the prompt gives as the fix are the ones this row may credit
        bad = _unfounded(LlmReply.model_validate(first[m.group(1)]), "\n".join(x["content"] for x in messages), known,
                         known)
        if bad:     # a PR both absent and credited as the fix is one claim to show
            out[m.group(1)] = list(dict.fromkeys(str(c) for c in bad))
    return out


def rows_text(digest: dict) -> str:
    """Every problem and answer cell of the digest, both languages."""
    return "\n".join(f"{r.get('problem', '')}\n{r.get('answer', '')}" for lang in digest["digests"].values()
                     for repo in lang["repos"] for r in repo["rows"])


def disclosure(digest: dict, lang: str, label: str) -> str:
    return next((i["text"] for i in digest["digests"][lang]["disclosure"] if i["label"] == label), "")


def report(result: ScriptedRun, measure, seed_rows, world: Path, show: int) -> None:
    """Print the measures for both runs and what the grounding check and the fallback did."""
    for which in ("offline", "llm"):
        title = f"{'offline analyst' if which == 'offline' else 'scripted LLM stand-in'} on {world.name}"
        measure(title, seed_rows, result.digest(which), world, show, rows_shown=False)
    summary, llm_digest = result.analyse_summary(), result.digest("llm")
    llm = summary.get("llm", {})
    cases = {f"{c['repo']}#{c['number']}": c for c in llm_digest["cases"]}
    rows = rows_text(llm_digest)
    print("== what the stand-in got wrong on purpose, and what became of it")
    print(f"exit codes: offline {result.offline_code}, llm {result.llm_code}; requests to the stand-in "
          f"{result.requests} ({result.refused} kb-check / editorial requests refused)")
    for kind, key in result.wrong.items():
        claim = result.invented.get(kind, "")
        where = ("in the rows!" if claim and claim.lstrip("!") in rows else "not in the rows") if claim else ""
        print(f"  {kind:9s} {key:34s} {claim:8s} {where:16s} analysed_by: {cases.get(key, {}).get('analysed_by', '?')}")
    for key, claims in sorted(result.caught.items()):
        print(f"  caught    {key:34s} {', '.join(claims)[:100]}")
    print(f"grounding: {llm.get('grounding')}; failures: {llm.get('llm_failures')}; "
          f"fallbacks: {summary.get('fallbacks')}; tokens: {llm.get('tokens')}; requests: {llm.get('requests')}")
    for lang, label in (("zh", "分析方式"), ("en", "Analysis")):
        print(f"disclosure ({lang}): {disclosure(llm_digest, lang, label)}")


def main(args, measures) -> int:
    """`bench/rows.py --llm-script`: run, then print (given the parsed arguments and rows.py itself)."""
    out = args.out or Path("/tmp") / f"rows-llm-{args.world.name}"
    result = run_scripted(args.world, out)
    seed_rows = []
    if args.world.resolve() == measures.DEFAULT_WORLD.resolve() and args.seed.exists():
        seed_rows = measures.parse_seed(args.seed.read_text(encoding="utf-8"), measures.world_issue_numbers(args.world))
    report(result, measures.measure, seed_rows, args.world, args.show)
    return 0 if result.offline_code == result.llm_code == 0 else 1


if __name__ == "__main__":
    sys.exit("run it as: bench/rows.py --llm-script")
