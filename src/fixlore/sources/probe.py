"""What an issue API really does, found out with a few dozen requests instead of assumed.

``run_probe`` walks a fixed plan (one org's repo list, one repo's issue list asked in every
ordering form, a capped and a small page, a conditional request, a server-side time filter,
a closed issue's history, merged PRs) through a ``fetch`` callable, and hands each answer to
a pure check that returns a ``Finding``: a name, a verdict and what showed it. The harvester's
assumptions are the questions: is the order we ask for the order we get, how many items a
page really holds, which headers announce the pages, does a 304 come back, which action
types a close leaves, what a merged PR looks like.

Nothing here sends a request itself; ``fixlore probe`` (``sources/probe_cli.py``) supplies
``fetch``. A check that cannot decide (too few items, no closed issue) says so instead of guessing.
A GitCode close is read with the harvester's own rule (``gitcode.read_log_action``), so the probe
says how a live log would be read, not how a second copy of the rule would read it.

It is over 400 lines because the plan and its checks share one request budget and one report,
one pure check per question; splitting the GitCode and GitHub checks into modules of their own is
the next step (issue #10).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from datetime import datetime, timedelta
from typing import Any, Callable

from fixlore.core.timeutil import iso, parse_time

HONOURED = "honoured"
IGNORED = "ignored"
UNDECIDED = "undecided"
ABSENT = "absent"
PRESENT = "present"

ASKED_PER_PAGE = 100
SMALL_PAGE = 5
_PAGING_HEADERS = ("total_page", "total_count", "link", "x-total", "x-total-pages", "x-next-page", "x-page")
_RATE_PREFIXES = ("x-ratelimit", "ratelimit", "retry-after", "x-rate-limit")
_CLOSE_WORDS = ("close", "关闭")


@dataclass
class Reply:
    """One HTTP answer: status, headers with lower-cased names, decoded JSON body (None if not JSON)."""
    status: int
    headers: dict[str, str]
    body: Any

    def items(self) -> list[dict]:
        return [x for x in self.body if isinstance(x, dict)] if isinstance(self.body, list) else []


Fetch = Callable[[str, dict[str, str], dict[str, str]], Reply]   # (path, params, extra headers) -> Reply


@dataclass
class Finding:
    check: str
    verdict: str
    detail: str
    evidence: dict[str, Any] = field(default_factory=dict)


@dataclass
class ProbeReport:
    platform: str
    org: str
    repo: str = ""
    requests: int = 0
    findings: list[Finding] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {"platform": self.platform, "org": self.org, "repo": self.repo, "requests": self.requests,
                "findings": [asdict(f) for f in self.findings]}

    def verdict(self, check: str) -> str | None:
        return next((f.verdict for f in self.findings if f.check == check), None)


# ---------- pure checks ----------

def _times(items: list[dict], key: str) -> list[datetime]:
    return [t for t in (parse_time(it.get(key)) for it in items) if t is not None]


DESC_ONLY = "newest first only"
MERGED_READ_CLOSED = "merged read closed"


def _descending(times: list[datetime]) -> bool:
    return all(a >= b for a, b in zip(times, times[1:]))


def order_verdict(desc: list[dict], asc: list[dict], key: str = "updated_at",
                  plain: list[dict] | None = None) -> tuple[str, str]:
    """Is "newest first" honoured? Asked both ways: only a server that orders both is honouring the request.

    A list that merely looks sorted one way (creation order often does) is not proof. When only
    the descending ask comes back in order, the list asked with no order at all (``plain``)
    tells a form that sorts but drops the direction (``DESC_ONLY``) from a server whose
    default order happens to be newest first (``IGNORED``).
    """
    down, up = _times(desc, key), _times(asc, key)
    if len(set(down)) < 2 or len(set(up)) < 2:
        return UNDECIDED, f"fewer than two distinct {key} values to compare"
    is_down = _descending(down)
    is_up = all(a <= b for a, b in zip(up, up[1:]))
    if is_down and is_up:
        return HONOURED, f"descending when asked desc, ascending when asked asc ({len(down)} items)"
    seen = (f"asked desc: {'in order' if is_down else 'out of order'}; "
            f"asked asc: {'in order' if is_up else 'out of order'}")
    if is_down and plain is not None:
        base = _times(plain, key)
        if len(set(base)) >= 2 and not _descending(base):
            return DESC_ONLY, f"{seen}; unasked the list is not newest first, so this form sorts (direction dropped)"
    return IGNORED, seen


def more_pages(reply: Reply, got: int) -> bool | None:
    """Does the server say items exist beyond this first page? None when it announces nothing."""
    h = reply.headers
    if "link" in h:
        return 'rel="next"' in h["link"]
    for name in ("total_count", "x-total"):
        if h.get(name, "").isdigit():
            return int(h[name]) > got
    for name in ("total_page", "x-total-pages"):
        if h.get(name, "").isdigit():
            return int(h[name]) > 1
    return None


def page_cap(reply: Reply, asked: int) -> tuple[str, str, int | None]:
    """(verdict, detail, cap): a first page shorter than asked while more pages exist is the real cap."""
    got = len(reply.items())
    beyond = more_pages(reply, got)
    if got >= asked:
        return HONOURED, f"{got} items when {asked} were asked", asked
    if beyond:
        return "capped", f"{got} items when {asked} were asked, and the server announces more", got
    if beyond is None:
        return UNDECIDED, f"{got} items when {asked} were asked and no total announced: a cap or the end", None
    return UNDECIDED, f"the list holds only {got} items: a cap of {asked} cannot be shown", None


def small_page(reply: Reply, asked: int) -> tuple[str, str]:
    got = len(reply.items())
    if got <= asked:
        return HONOURED, f"{got} items when {asked} were asked"
    return IGNORED, f"{got} items when {asked} were asked: per_page is not read"


def paging_headers(reply: Reply) -> dict[str, str]:
    return {name: reply.headers[name] for name in _PAGING_HEADERS if name in reply.headers}


def rate_headers(reply: Reply) -> dict[str, str]:
    return {k: v for k, v in sorted(reply.headers.items()) if k.startswith(_RATE_PREFIXES)}


def etag_verdict(first: Reply, again: Reply | None) -> tuple[str, str]:
    if "etag" not in first.headers:
        return ABSENT, "no ETag header on a list page"
    if again is None:
        return UNDECIDED, "ETag sent; the conditional request was not made"
    if again.status == 304:
        return HONOURED, "ETag sent and If-None-Match answered 304 Not Modified"
    return IGNORED, f"ETag sent but If-None-Match answered {again.status}"


def filter_verdict(reply: Reply, bound: datetime, total: int, key: str = "updated_at") -> tuple[str, str]:
    """A server-side time filter is honoured when every item is at or after the bound and some were left out."""
    times = _times(reply.items(), key)
    early = sum(1 for t in times if t < bound)
    if early:
        return IGNORED, f"{early} items before {iso(bound)} came back"
    if len(reply.items()) >= total:
        return UNDECIDED, "nothing was left out (every item is after the bound)"
    return HONOURED, f"{len(reply.items())} of {total} items at or after {iso(bound)}"


def close_actions(entries: list[dict], platform: str) -> tuple[list[str], list[str]]:
    """(every action/event type seen, those that read as a close) in a closed issue's history."""
    kinds: list[str] = []
    closing: list[str] = []
    for e in entries:
        kind = str(e.get("action_type") if platform == "gitcode" else e.get("event") or "")
        if kind and kind not in kinds:
            kinds.append(kind)
        text = f"{kind} {e.get('content') or ''}".lower()
        if any(w in text for w in _CLOSE_WORDS) and kind not in closing:
            closing.append(kind)
    return kinds, closing


def merged_shape(pull: dict) -> dict[str, Any]:
    """How a merged PR says it is merged: the state, whether merged_at / merged are there and their types."""
    def kind(key: str) -> str:
        if key not in pull:
            return "missing"
        v = pull[key]
        return "null" if v is None else ("empty string" if v == "" else type(v).__name__)

    return {"state": pull.get("state"), "merged_at": kind("merged_at"), "merged": kind("merged"),
            "closed_at": kind("closed_at"), "merge_commit_sha": kind("merge_commit_sha")}


# ---------- the plan ----------

def _ordering_forms(platform: str) -> dict[str, tuple[dict[str, str], dict[str, str]]]:
    """name -> (params asking newest first, params asking oldest first)."""
    forms = {"sort=updated&direction": ({"sort": "updated", "direction": "desc"},
                                        {"sort": "updated", "direction": "asc"})}
    if platform == "gitcode":
        forms["order_by=updated_at&sort"] = ({"order_by": "updated_at", "sort": "desc"},
                                             {"order_by": "updated_at", "sort": "asc"})
        forms["order_by=updated_at&direction"] = ({"order_by": "updated_at", "direction": "desc"},
                                                  {"order_by": "updated_at", "direction": "asc"})
    return forms


def limit_kind(reply: Reply) -> str:
    """"secondary" / "primary" when a 403/429 says a rate limit refused it, else ""."""
    if reply.status not in (403, 429):
        return ""
    text = str(reply.body.get("message") if isinstance(reply.body, dict) else reply.body or "").lower()
    if "secondary rate limit" in text:
        return "secondary"
    return "primary" if "rate limit" in text or reply.status == 429 else ""


class _Budget:
    """At most ``limit`` requests; none at all after a secondary limit (GitHub punishes clients that go on)."""

    def __init__(self, fetch: Fetch, limit: int):
        self.fetch, self.limit, self.used = fetch, limit, 0
        self.limited: list[dict[str, Any]] = []

    def __call__(self, path: str, params: dict[str, str] | None = None, headers: dict[str, str] | None = None
                 ) -> Reply | None:
        if self.used >= self.limit or any(x["kind"] == "secondary" for x in self.limited):
            return None
        self.used += 1
        reply = self.fetch(path, dict(params or {}), dict(headers or {}))
        kind = limit_kind(reply)
        if kind:
            self.limited.append({"kind": kind, "status": reply.status, "request": self.used,
                                 "retry_after": reply.headers.get("retry-after", "")})
        return reply


def item_key(item: dict) -> str:
    """What tells two list items apart: id, sha or number, else the content itself."""
    for name in ("id", "sha", "number"):
        if item.get(name) not in (None, ""):
            return f"{name}:{item[name]}"
    return repr(sorted(item.items()))


def second_page(get: "_Budget", path: str, params: dict[str, str], first: list[dict]
                ) -> tuple[list[dict] | None, int]:
    """(page 2's items, how many times it came back as page 1 first); asked at most three times."""
    seen = {item_key(it) for it in first}
    repeats = 0
    for _ in range(3):
        reply = get(path, {**params, "page": "2"})
        if reply is None or reply.status != 200:
            return None, repeats
        items = reply.items()
        if not items or not seen.issuperset(item_key(it) for it in items):
            return items, repeats
        repeats += 1
    return None, repeats


def _issue_path(platform: str, full: str) -> str:
    return f"/repos/{full}/issues"


def _pick_repo(get: _Budget, platform: str, listing: list[dict], tried: dict[str, int],
               tries: int = 3) -> tuple[str, Reply | None]:
    """The first of a few repos (most open issues first) whose issue list has the most items;
    ``tried`` receives each repo's status (a refused repo is a finding too)."""
    def open_count(r: dict) -> int:
        v = str(r.get("open_issues_count") or "0")
        return int(v) if v.isdigit() else 0

    named = [r for r in listing if r.get("full_name")]
    switched_off = [r for r in named if r.get("has_issues") is False][:2]
    for r in switched_off:       # the listing says so; its issue list shows how the refusal reads
        reply = get(_issue_path(platform, r["full_name"]), {"state": "all", "per_page": "1"})
        if reply is not None:
            tried[r["full_name"]] = reply.status
    ranked = sorted((r for r in named if r not in switched_off), key=lambda r: -open_count(r))
    best, best_reply, best_n = "", None, -1
    for r in ranked[:tries]:
        reply = get(_issue_path(platform, r["full_name"]), {"state": "all", "per_page": str(ASKED_PER_PAGE)})
        if reply is None:
            break
        n = len(reply.items())
        tried[r["full_name"]] = reply.status
        if reply.status == 200 and n > best_n:
            best, best_reply, best_n = r["full_name"], reply, n
        if n >= ASKED_PER_PAGE:
            break
    return best, best_reply


def run_probe(platform: str, org: str, fetch: Fetch, budget: int = 40) -> ProbeReport:
    """Probe one organisation; ``fetch`` takes an API path relative to the base URL."""
    get = _Budget(fetch, budget)
    report = ProbeReport(platform=platform, org=org)
    add = report.findings.append

    org_reply = get(f"/orgs/{org}/repos", {"per_page": str(ASKED_PER_PAGE)})
    if org_reply is None or org_reply.status != 200:
        status = org_reply.status if org_reply else "none"
        add(Finding("org repos", "failed", f"the organisation's repo list answered {status}"))
        report.requests = get.used
        return report
    add(Finding("org repos", PRESENT, f"{len(org_reply.items())} repos on the first page",
                {"paging_headers": paging_headers(org_reply)}))
    tried: dict[str, int] = {}
    full, base = _pick_repo(get, platform, org_reply.items(), tried)
    report.repo = full
    refused = {name: status for name, status in tried.items() if status != 200}
    if base is None:
        add(Finding("issue list", "failed", "no repo of the organisation answered its issue list", {"tried": tried}))
        report.requests = get.used
        return report
    add(Finding("issue list", "refused on some repos" if refused else PRESENT,
                ", ".join(f"{n}: {st}" for n, st in refused.items()) or f"{len(tried)} repo(s) read", {"tried": tried}))
    items = base.items()
    path = _issue_path(platform, full)

    _probe_cap(get, [(f"/orgs/{org}/repos", {}, org_reply, "org repos"),
                     (path, {"state": "all"}, base, "issues")], add)
    small = get(path, {"state": "all", "per_page": str(SMALL_PAGE)})
    if small is not None:
        v, d = small_page(small, SMALL_PAGE)
        add(Finding("per_page small", v, d, {"asked": SMALL_PAGE, "got": len(small.items())}))
        if small.status == 200 and len(small.items()) == SMALL_PAGE and len(items) > SMALL_PAGE:
            page2, repeats = second_page(get, path, {"state": "all", "per_page": str(SMALL_PAGE)}, small.items())
            if repeats:
                add(Finding("repeated page", "repeated",
                            f"page 2 came back as page 1 on {repeats} ask(s)"
                            + ("; asked again it changed" if page2 else "; it never changed"), {"repeats": repeats}))
            elif page2:
                add(Finding("repeated page", HONOURED, "page 2 differs from page 1 on the first ask"))
    # The small page is read too: a list that fits one page gets no Link header from GitHub.
    found = {**(paging_headers(small) if small is not None else {}), **paging_headers(base)}
    several = len(items) > SMALL_PAGE
    verdict = PRESENT if found else (ABSENT if several else UNDECIDED)
    add(Finding("pagination headers", verdict,
                ", ".join(sorted(found)) or ("none of total_page, total_count, Link, X-Total*" if several
                                             else f"none, on a list of {len(items)} items"), found))
    rates = rate_headers(base)
    add(Finding("rate-limit headers", PRESENT if rates else ABSENT, ", ".join(rates) or "none", rates))

    for name, (desc_params, asc_params) in _ordering_forms(platform).items():
        desc = get(path, {"state": "all", "per_page": str(ASKED_PER_PAGE), **desc_params})
        asc = get(path, {"state": "all", "per_page": str(ASKED_PER_PAGE), **asc_params})
        if desc is None or asc is None:
            add(Finding(f"order {name}", UNDECIDED, "request budget spent"))
            continue
        if desc.status != 200 or asc.status != 200:
            add(Finding(f"order {name}", "refused", f"answered {desc.status} / {asc.status}"))
            continue
        v, d = order_verdict(desc.items(), asc.items(), plain=items)
        add(Finding(f"order {name}", v, d))

    again = get(path, {"state": "all", "per_page": str(ASKED_PER_PAGE)},
                {"If-None-Match": base.headers["etag"]}) if "etag" in base.headers else None
    v, d = etag_verdict(base, again)
    add(Finding("ETag / 304", v, d, {"etag": base.headers.get("etag", "")}))

    times = sorted(_times(items, "updated_at"))
    if len(set(times)) >= 2:
        bound = times[len(times) // 2] + timedelta(seconds=1)
        name = "updated_after" if platform == "gitcode" else "since"
        filtered = get(path, {"state": "all", "per_page": str(ASKED_PER_PAGE), name: iso(bound)})
        if filtered is not None:
            v, d = filter_verdict(filtered, bound, len(items))
            add(Finding(f"filter {name}", v, d))
    else:
        add(Finding("time filter", UNDECIDED, "fewer than two distinct updated_at values"))

    _probe_close(get, platform, full, items, add)
    merged = _probe_merged(get, platform, full, add)
    if platform == "github":
        _probe_close_commit(get, full, merged, add)
    if get.limited:
        first = get.limited[0]
        add(Finding("rate limit met", first["kind"],
                    f"request {first['request']} answered {first['status']} "
                    + (f"with Retry-After {first['retry_after']}" if first["retry_after"] else "without Retry-After")
                    + ("; the probe stopped there" if first["kind"] == "secondary" else ""), {"limits": get.limited}))
    report.requests = get.used
    return report


def _probe_cap(get: _Budget, lists: list[tuple[str, dict[str, str], Reply, str]],
               add: Callable[[Finding], None]) -> None:
    """The real per_page cap, from whichever list is long enough to show one."""
    shown: list[tuple[str, str, int | None, str]] = []
    for path, params, reply, label in lists:
        verdict, detail, cap = page_cap(reply, ASKED_PER_PAGE)
        got = len(reply.items())
        if verdict == UNDECIDED and 0 < got < ASKED_PER_PAGE and more_pages(reply, got) is None:
            page2, _ = second_page(get, path, {**params, "per_page": str(ASKED_PER_PAGE)}, reply.items())
            if page2:
                verdict, detail, cap = "capped", f"{got} items when {ASKED_PER_PAGE} were asked, and page 2 holds more", got
            elif page2 is not None:
                verdict, detail = UNDECIDED, f"the list holds only {got} items (page 2 is empty)"
        shown.append((verdict, f"{label}: {detail}", cap, label))
    capped = [x for x in shown if x[0] == "capped"]
    honoured = [x for x in shown if x[0] == HONOURED]
    pick = capped[0] if capped else (honoured[0] if honoured else shown[-1])
    add(Finding("per_page cap", pick[0], "; ".join(x[1] for x in shown),
                {"asked": ASKED_PER_PAGE, "cap": pick[2], "list": pick[3]}))


CLOSES_LOOKED_AT = 3
OTHER_NAMES = "other names"


def _history(get: _Budget, platform: str, full: str, number: Any) -> Reply | None:
    owner, repo = full.split("/", 1)
    if platform == "gitcode":
        return get(f"/repos/{owner}/issues/{number}/operate_logs", {"repo": repo})
    return get(f"/repos/{full}/issues/{number}/timeline", {"per_page": str(ASKED_PER_PAGE)})


def close_signals(entries: list[dict], closed_at: datetime | None) -> list[tuple[str, str]]:
    """(action type, signal) of each GitCode log entry the harvester reads as a close, by its own rule."""
    from fixlore.core import model as m
    from fixlore.sources.gitcode import action_type_of, read_log_action
    out = []
    for e in entries:
        action, signal = read_log_action(e, closed_at)
        if action == m.EV_CLOSED:
            out.append((action_type_of(e), signal))
    return out


def _probe_close(get: _Budget, platform: str, full: str, items: list[dict], add: Callable[[Finding], None]) -> None:
    """A few closed issues' histories: which entry types a close leaves and how each is told."""
    closed = [it for it in items if str(it.get("state", "")).lower() == "closed" and "pull_request" not in it]
    if not closed:
        add(Finding("close history", UNDECIDED, "no closed issue on the first page"))
        return
    kinds: list[str] = []
    closing: list[str] = []
    signals: dict[str, str] = {}
    looked: list[Any] = []
    for it in closed[:CLOSES_LOOKED_AT if platform == "gitcode" else 1]:
        number = it.get("number")
        reply = _history(get, platform, full, number)
        if reply is None or reply.status != 200:
            add(Finding("close history", "failed", f"#{number}: answered {reply.status if reply else 'nothing'}"))
            return
        looked.append(number)
        k, c = close_actions(reply.items(), platform)
        kinds += [x for x in k if x not in kinds]
        closing += [x for x in c if x not in closing]
        if platform == "gitcode":
            when = parse_time(it.get("finished_at")) or parse_time(it.get("closed_at"))
            read = close_signals(reply.items(), when)
            signals[f"#{number}"] = ", ".join(f"{kind} by {sig}" for kind, sig in read) or "no entry"
    evidence: dict[str, Any] = {"issues": looked, "action_types": kinds, "closing": closing}
    detail = f"#{', #'.join(map(str, looked))}: types {', '.join(kinds) or 'none'}"
    verdict = PRESENT if closing else "no close entry"
    if platform == "gitcode":
        from fixlore.sources.gitcode import KNOWN_ACTION_TYPES
        unknown = [k for k in kinds if k.lower() not in KNOWN_ACTION_TYPES]
        evidence.update(unknown_types=unknown, read_as_close=signals)
        told_otherwise = any("by action_type" not in v for v in signals.values())
        if unknown or told_otherwise:
            verdict = OTHER_NAMES
        detail += ("; unknown: " + ", ".join(unknown) if unknown else "") + "; the harvester reads " + "; ".join(
            f"{n}: {v}" for n, v in signals.items())
    else:
        detail += f"; close read from {', '.join(closing) or 'nothing'}"
    add(Finding("close history", verdict, detail, evidence))


def _probe_close_commit(get: _Budget, full: str, merged: list[dict], add: Callable[[Finding], None]) -> None:
    """GitHub: do the ``closed`` entries of issues a merged PR says it fixes name the closing commit?"""
    from fixlore.rules.refs import closing_numbers
    targets: list[int] = []
    for pull in merged:
        targets += [n for n in closing_numbers(f"{pull.get('title') or ''}\n{pull.get('body') or ''}", full)
                    if n not in targets]
    if not targets:
        add(Finding("closed.commit_id", UNDECIDED, "no merged PR on the list says it fixes an issue"))
        return
    ids: dict[str, str] = {}
    for number in targets[:CLOSES_LOOKED_AT]:
        reply = _history(get, "github", full, number)
        if reply is None or reply.status != 200:
            continue
        for e in reply.items():
            if e.get("event") == "closed":
                ids[f"#{number}"] = "null" if e.get("commit_id") in (None, "") else "set"
    if not ids:
        add(Finding("closed.commit_id", UNDECIDED, "no closed entry on the issues merged PRs say they fix"))
        return
    null = sum(1 for v in ids.values() if v == "null")
    verdict = "null" if null == len(ids) else "set"
    add(Finding("closed.commit_id", verdict,
                f"{null} of {len(ids)} closes of issues a merged PR says it fixes carry no commit_id", ids))


def _probe_merged(get: _Budget, platform: str, full: str, add: Callable[[Finding], None]) -> list[dict]:
    """How a merged PR reads; returns the merged PRs seen."""
    state = "merged" if platform == "gitcode" else "closed"
    reply = get(f"/repos/{full}/pulls", {"state": state, "per_page": str(ASKED_PER_PAGE)})
    if reply is None or reply.status != 200:
        add(Finding("merged PR shape", "failed", f"pull list answered {reply.status if reply else 'nothing'}"))
        return []
    merged = [p for p in reply.items() if p.get("merged_at") not in (None, "")]
    if not merged:
        add(Finding("merged PR shape", UNDECIDED, f"no PR with merged_at among {len(reply.items())} state={state}"))
        return []
    listed = merged_shape(merged[0])
    single = get(f"/repos/{full}/pulls/{merged[0].get('number')}")
    one = merged_shape(single.body) if single is not None and isinstance(single.body, dict) else {}
    as_closed = sum(1 for p in merged if str(p.get("state")).lower() == "closed")
    verdict = PRESENT
    if platform == "gitcode":
        # GitCode has a merged state; a closed PR that carries merged_at is the auto-merge variant.
        closed = get(f"/repos/{full}/pulls", {"state": "closed", "per_page": str(ASKED_PER_PAGE)})
        if closed is not None and closed.status == 200:
            as_closed = sum(1 for p in closed.items() if p.get("merged_at") not in (None, ""))
            verdict = MERGED_READ_CLOSED if as_closed else PRESENT
    add(Finding("merged PR shape", verdict,
                f"list: state={listed['state']}, merged_at {listed['merged_at']}, merged {listed['merged']}; "
                f"single: merged {one.get('merged', 'not fetched')}; {as_closed} closed PRs carry merged_at",
                {"list": listed, "single": one, "merged_read_closed": as_closed}))
    return merged
