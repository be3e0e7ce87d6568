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
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from datetime import datetime, timedelta
from typing import Any, Callable

from fixlore.timeutil import iso, parse_time

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


class _Budget:
    def __init__(self, fetch: Fetch, limit: int):
        self.fetch, self.limit, self.used = fetch, limit, 0

    def __call__(self, path: str, params: dict[str, str] | None = None, headers: dict[str, str] | None = None
                 ) -> Reply | None:
        if self.used >= self.limit:
            return None
        self.used += 1
        return self.fetch(path, dict(params or {}), dict(headers or {}))


def _issue_path(platform: str, full: str) -> str:
    return f"/repos/{full}/issues"


def _pick_repo(get: _Budget, platform: str, listing: list[dict], tried: dict[str, int],
               tries: int = 3) -> tuple[str, Reply | None]:
    """The first of a few repos (most open issues first) whose issue list has the most items;
    ``tried`` receives each repo's status (a refused repo is a finding too)."""
    def open_count(r: dict) -> int:
        v = str(r.get("open_issues_count") or "0")
        return int(v) if v.isdigit() else 0

    ranked = sorted((r for r in listing if r.get("full_name")), key=lambda r: -open_count(r))
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

    verdict, detail, cap = page_cap(base, ASKED_PER_PAGE)
    add(Finding("per_page cap", verdict, detail, {"asked": ASKED_PER_PAGE, "got": len(items), "cap": cap}))
    small = get(path, {"state": "all", "per_page": str(SMALL_PAGE)})
    if small is not None:
        v, d = small_page(small, SMALL_PAGE)
        add(Finding("per_page small", v, d, {"asked": SMALL_PAGE, "got": len(small.items())}))
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
    _probe_merged(get, platform, full, add)
    report.requests = get.used
    return report


def _probe_close(get: _Budget, platform: str, full: str, items: list[dict], add: Callable[[Finding], None]) -> None:
    closed = [it for it in items if str(it.get("state", "")).lower() == "closed" and "pull_request" not in it]
    if not closed:
        add(Finding("close history", UNDECIDED, "no closed issue on the first page"))
        return
    number = closed[0].get("number")
    owner, repo = full.split("/", 1)
    if platform == "gitcode":
        reply = get(f"/repos/{owner}/issues/{number}/operate_logs", {"repo": repo})
    else:
        reply = get(f"/repos/{full}/issues/{number}/timeline", {"per_page": str(ASKED_PER_PAGE)})
    if reply is None or reply.status != 200:
        add(Finding("close history", "failed", f"#{number}: answered {reply.status if reply else 'nothing'}"))
        return
    kinds, closing = close_actions(reply.items(), platform)
    evidence: dict[str, Any] = {"issue": number, "action_types": kinds, "closing": closing}
    if platform == "github":
        commit_ids = [e.get("commit_id") for e in reply.items() if e.get("event") == "closed"]
        evidence["closed_commit_id"] = ["null" if c is None else "set" for c in commit_ids]
    add(Finding("close history", PRESENT if closing else "no close entry",
                f"#{number}: types {', '.join(kinds) or 'none'}; close read from {', '.join(closing) or 'nothing'}",
                evidence))


def _probe_merged(get: _Budget, platform: str, full: str, add: Callable[[Finding], None]) -> None:
    state = "merged" if platform == "gitcode" else "closed"
    reply = get(f"/repos/{full}/pulls", {"state": state, "per_page": "20"})
    if reply is None or reply.status != 200:
        add(Finding("merged PR shape", "failed", f"pull list answered {reply.status if reply else 'nothing'}"))
        return
    merged = [p for p in reply.items() if p.get("merged_at") not in (None, "")]
    if not merged:
        add(Finding("merged PR shape", UNDECIDED, f"no PR with merged_at among {len(reply.items())} state={state}"))
        return
    listed = merged_shape(merged[0])
    single = get(f"/repos/{full}/pulls/{merged[0].get('number')}")
    one = merged_shape(single.body) if single is not None and isinstance(single.body, dict) else {}
    as_closed = sum(1 for p in merged if str(p.get("state")).lower() == "closed")
    if platform == "gitcode":
        # GitCode has a merged state; a closed PR that carries merged_at is the auto-merge variant.
        closed = get(f"/repos/{full}/pulls", {"state": "closed", "per_page": "20"})
        if closed is not None and closed.status == 200:
            as_closed = sum(1 for p in closed.items() if p.get("merged_at") not in (None, ""))
    add(Finding("merged PR shape", PRESENT,
                f"list: state={listed['state']}, merged_at {listed['merged_at']}, merged {listed['merged']}; "
                f"single: merged {one.get('merged', 'not fetched')}; {as_closed} closed PRs carry merged_at",
                {"list": listed, "single": one, "merged_read_closed": as_closed}))
