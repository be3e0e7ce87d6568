"""The harvester adapts (issue #21): a refused ordering form gives way to the next, a page longer than
asked is the whole list, GraphQL is asked again when it stumbles and its loss is named per repo.

Each fault is played by the real replay server on loopback (strict quirks ``sort_combined_400``,
``pages_ignored``, ``graphql_501``, ``graphql_flaky``) and compared with a clean run of the same world.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import httpx2
import pytest

from fixlore.compose.gaps import closing_refs_note as _closing_refs_note
from fixlore.core.errors import ConfigError
from fixlore.harvest import harvest
from fixlore.link.build import build_cases
from fixlore.replay.server import ReplayServer
from fixlore.sources import make_source
from fixlore.sources.github_graphql import _verdict
from fixlore.sources.http import ApiClient
from fixlore.sources.listforms import (COMBINED, NONE, OrderForms, ProbeForms, order_from_probe, read_probe,
                                       DOCUMENTED_ORDER)
from fixlore.sources.offline import read_world_meta
from fixlore.store import Store
from fixlore.core.timeutil import parse_time

from conftest import fixlore_here

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "worlds" / "demo"
MINI = ROOT / "worlds" / "github-mini"
TOKEN = "adapt-test-token"


def _harvest(world: Path, db: str, strict=None, token: str | None = None, probe: ProbeForms | None = None):
    """(store, report, requests by endpoint as the server counted them, server status counts)."""
    meta = read_world_meta(world)
    store = Store.open(db)
    with ReplayServer(world, strict=strict, token=token) as srv:
        client = ApiClient(srv.base_url, meta["platform"], token, cache=store.http_cache(), rate_limit=False,
                           backoff_base=0.01)
        try:
            report = harvest(store, make_source(meta["platform"], client, probe), meta["orgs"],
                             parse_time(meta["window"]["since"]))
        finally:
            client.close()
        stats = srv.stats()
    return store, report, stats


def _fixes(store: Store, world: Path) -> dict:
    since = parse_time(read_world_meta(world)["window"]["since"])
    cases, _ = build_cases(store.load_corpus(), since, {"conclude_all": True})
    return {(c.repo, c.number): (sorted(f.number for f in c.fix), sorted({e.kind for e in c.evidence}))
            for c in cases}


# ---------------------------------------------------------------------------
# Ordering forms: the documented order, a probe file, and a refused form


def test_a_probe_puts_what_it_saw_work_first_and_leaves_out_what_it_saw_fail():
    documented = DOCUMENTED_ORDER[("gitcode", "issues")]
    assert documented[0] == COMBINED and documented[-1] == NONE
    verdicts = {"sort=updated&direction": "ignored", "order_by=updated_at&sort": "newest first only",
                "order_by=updated_at&direction": "honoured"}
    assert order_from_probe(documented, verdicts) == (
        "order_by=updated_at&direction", "order_by=updated_at&sort", NONE)
    # Nothing decided: the documented order, the catch-all first; everything refused: no order at all.
    assert order_from_probe(documented, {}) == documented
    assert order_from_probe(documented, {n: "refused" for n in documented if n not in (COMBINED, NONE)}) == (
        COMBINED, NONE)


def test_a_refused_form_gives_way_to_the_next_and_only_a_refusal_does():
    forms = OrderForms("gitcode", "pulls")
    assert forms.name == COMBINED and forms.params == {"order_by": "updated_at", "sort": "updated",
                                                       "direction": "desc"}
    assert not forms.reject("404") and not forms.reject("retries") and forms.name == COMBINED
    assert forms.reject("400", "direction is required") and forms.name == "order_by=updated_at&direction"
    assert forms.reject(422) and forms.reject("400") and forms.name == NONE and forms.params == {}
    assert not forms.reject("400")              # asking for no order at all is the last resort
    report = forms.report()
    assert report["form"] == NONE and [r["form"] for r in report["refused"]] == [
        COMBINED, "order_by=updated_at&direction", "sort=updated&direction"]


def test_a_list_that_refuses_every_form_is_the_lists_own_failure_and_the_forms_stay():
    from fixlore.sources.listforms import ordered_pages
    from fixlore.sources.responses import ApiError

    forms = OrderForms("gitcode", "pulls")
    asked: list[dict] = []

    def refusing(params):
        asked.append(params)
        raise ApiError("/repos/{owner}/{repo}/pulls", 400, "bad request")
        yield []                                  # a generator, as paginate is

    with pytest.raises(ApiError):
        list(ordered_pages(forms, refusing))
    assert len(asked) == len(forms.order) and asked[-1] == {}
    assert forms.name == COMBINED and "refused" not in forms.report()   # the next repo starts afresh

    def second_form_works(params):
        if "sort" in params:
            raise ApiError("/repos/{owner}/{repo}/pulls", 400, "bad request")
        yield [{"number": 1}]

    assert list(ordered_pages(forms, second_form_works)) == [[{"number": 1}]]
    assert forms.name == "order_by=updated_at&direction"


@pytest.mark.parametrize("text,message", [
    (None, "probe file not found"),
    ("{not json", "is not readable JSON"),
    ('["a list"]', "is not a `fixlore probe` report"),
    ('{"platform": "gitlab", "findings": []}', "is not a `fixlore probe` report"),
    ('{"platform": "gitcode", "findings": [{"verdict": "honoured"}]}', "a finding without a check name"),
])
def test_a_bad_probe_file_is_one_clear_error(tmp_path, text, message):
    path = tmp_path / "probe.json"
    if text is not None:
        path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError, match=message):
        read_probe(path)


def _probe_file(tmp_path: Path, verdicts: dict[str, str], platform: str = "gitcode") -> Path:
    path = tmp_path / "probe.json"
    findings = [{"check": "org repos", "verdict": "present", "detail": "", "evidence": {}}]
    findings += [{"check": f"order {name}", "verdict": v, "detail": "", "evidence": {}} for name, v in verdicts.items()]
    path.write_text(json.dumps({"platform": platform, "org": "x", "repo": "x/y", "requests": 9,
                                "findings": findings}), encoding="utf-8")
    return path


def test_a_server_refusing_the_combined_form_is_read_whole_at_one_request_per_list_kind(tmp_path):
    clean, clean_report, clean_stats = _harvest(DEMO, f"sqlite:///{tmp_path / 'clean.db'}")
    store, report, stats = _harvest(DEMO, f"sqlite:///{tmp_path / 'refusing.db'}", strict="sort_combined_400")
    assert report.unreadable == [] and report.issues_detailed == clean_report.issues_detailed > 0
    assert store.canonical_dump() == clean.canonical_dump()
    assert _fixes(store, DEMO) == _fixes(clean, DEMO)
    # The refusal is remembered for the host: one 400 per list kind for the run, not one per repo.
    assert stats["by_status"].get("400") == 2
    assert stats["total"] == clean_stats["total"] + 2
    forms = {f["list"]: f for f in report.as_dict()["list_forms"]}
    assert forms["issues"]["form"] == "order_by=updated_at&sort" and forms["pulls"]["form"] == \
        "order_by=updated_at&direction"
    assert [r["status"] for r in forms["issues"]["refused"]] == ["400"]


def test_a_probe_file_chooses_the_form_and_no_request_is_refused(tmp_path):
    clean, _, clean_stats = _harvest(DEMO, f"sqlite:///{tmp_path / 'clean.db'}")
    probe = read_probe(_probe_file(tmp_path, {"sort=updated&direction": "honoured",
                                              "order_by=updated_at&sort": "refused"}))
    store, report, stats = _harvest(DEMO, f"sqlite:///{tmp_path / 'probed.db'}", strict="sort_combined_400",
                                    probe=probe)
    assert "400" not in stats["by_status"] and stats["total"] == clean_stats["total"]
    assert store.canonical_dump() == clean.canonical_dump()
    forms = {f["list"]: f for f in report.as_dict()["list_forms"]}
    assert forms["issues"]["form"] == forms["pulls"]["form"] == "sort=updated&direction"
    assert forms["issues"]["from_probe"].endswith("probe.json")


def test_when_every_form_is_refused_the_list_is_walked_unordered(tmp_path):
    """A server refusing every ordering parameter: the last form asks none, and the list is walked or filtered."""
    clean, _, _ = _harvest(DEMO, f"sqlite:///{tmp_path / 'clean.db'}")
    refusing = {name: "refused" for name in DOCUMENTED_ORDER[("gitcode", "issues")] if name not in (COMBINED, NONE)}
    probe = ProbeForms("gitcode", refusing)     # combined is still tried first: nothing proven
    store, report, stats = _harvest(DEMO, f"sqlite:///{tmp_path / 'walked.db'}", strict="sort_combined_400",
                                    probe=probe)
    forms = {f["list"]: f for f in report.as_dict()["list_forms"]}
    assert forms["issues"]["form"] == NONE and forms["pulls"]["form"] == NONE
    assert report.unreadable == [] and store.canonical_dump() == clean.canonical_dump()


def _cli(*args: str) -> subprocess.CompletedProcess:
    return fixlore_here(*args)


def test_run_with_the_combined_form_refused_stores_every_case_of_a_clean_run(tmp_path, demo_run):
    """Before: every repo unreadable, exit 6, nothing harvested. Now: the same cases as a clean run
    (the session's `fixlore run` of the demo world)."""
    refused = _cli("run", "--world", str(DEMO), "--out", str(tmp_path / "refused"), "-q",
                   "--quirks", "sort_combined_400")
    assert refused.returncode == 0, refused.stderr
    assert (tmp_path / "refused" / "cases.jsonl").read_bytes() == (demo_run / "cases.jsonl").read_bytes()
    info = json.loads((tmp_path / "refused" / "run.json").read_text())
    harvest_summary = next(s["summary"] for s in info["stages"] if s["name"] == "harvest")
    assert harvest_summary["unreadable"] == [] and info["server"]["by_status"]["400"] == 2
    assert {f["list"]: f["form"] for f in harvest_summary["list_forms"]} == {
        "issues": "order_by=updated_at&sort", "pulls": "order_by=updated_at&direction"}


@pytest.mark.parametrize("command", ["run", "harvest"])
@pytest.mark.parametrize("probe", ["missing", "garbage", "other-platform"])
def test_a_bad_probe_file_stops_the_command_before_anything_is_made(tmp_path, command, probe):
    path = {"missing": tmp_path / "nope.json", "garbage": tmp_path / "garbage.json",
            "other-platform": _probe_file(tmp_path, {}, platform="github")}[probe]
    if probe == "garbage":
        path.write_text("not json at all", encoding="utf-8")
    out = tmp_path / "out"
    if command == "run":
        proc = _cli("run", "--world", str(DEMO), "--out", str(out), "--probe", str(path))
        made = out
    else:
        out.mkdir()
        made = out / "h.db"
        proc = _cli("harvest", "--platform", "gitcode", "--org", "x", "--since", "2026-09-17",
                    "--db", f"sqlite:///{made}", "--probe", str(path))
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "probe file" in lines[0] and "Traceback" not in proc.stderr
    assert not made.exists()


# ---------------------------------------------------------------------------
# Paging: a page longer than asked


def test_a_first_page_longer_than_asked_is_the_whole_list():
    asked: list[str] = []

    def handler(request: httpx2.Request) -> httpx2.Response:
        asked.append(request.url.params.get("page", ""))
        # 150 items whatever is asked, total_page counted for the per_page it ignored (as seen live)
        return httpx2.Response(200, json=[{"sha": f"c{i}"} for i in range(150)],
                               headers={"total_page": "2"})

    client = ApiClient("https://api.example.test/api/v5", "gitcode", "t", transport=httpx2.MockTransport(handler),
                       rate_limit=False)
    got = [item["sha"] for page in client.paginate("/repos/o/r/pulls/1/commits", per_page=100) for item in page]
    assert got == [f"c{i}" for i in range(150)] and asked == ["1"]
    (note,) = client.paging_report()
    assert note["kind"] == "over-long-page" and note["lists"] == 1


def test_over_long_pages_with_a_larger_total_are_walked_on():
    """A server with its own page size, longer than asked: total_count tells there is more."""
    items = [{"id": i} for i in range(400)]

    def handler(request: httpx2.Request) -> httpx2.Response:
        page = int(request.url.params.get("page", "1"))
        return httpx2.Response(200, json=items[(page - 1) * 150: page * 150],
                               headers={"total_count": "400", "total_page": "4"})

    client = ApiClient("https://api.example.test/api/v5", "gitcode", "t", transport=httpx2.MockTransport(handler),
                       rate_limit=False)
    got = [item["id"] for page in client.paginate("/x", per_page=100) for item in page]
    assert got == list(range(400))


def _padded_demo(tmp_path: Path, commits: int = 150) -> Path:
    """The demo world with every PR's commit list padded to ``commits`` items (more than one page)."""
    world = tmp_path / "demo-long-commits"
    shutil.copytree(DEMO, world)
    for path in world.rglob("*.commits.json"):
        listed = json.loads(path.read_text(encoding="utf-8"))
        model = listed[-1] if listed else {"commit": {"message": "chore"}}
        extra = [{**model, "sha": f"{path.stem.split('.')[0]}{i:037d}"[:40],
                  "commit": {**(model.get("commit") or {}), "message": f"chore: step {i}"}}
                 for i in range(commits - len(listed))]
        path.write_text(json.dumps(listed + extra, ensure_ascii=False), encoding="utf-8")
    return world


def test_a_commit_list_that_ignores_paging_keeps_the_pr_and_its_links(tmp_path):
    world = _padded_demo(tmp_path)
    clean, clean_report, clean_stats = _harvest(world, f"sqlite:///{tmp_path / 'clean.db'}")
    store, report, stats = _harvest(world, f"sqlite:///{tmp_path / 'whole.db'}", strict="pages_ignored")
    corpus = store.load_corpus()
    assert clean_report.pulls_detailed > 0 and report.pulls_detailed == clean_report.pulls_detailed
    assert report.unreadable == []
    counts = {}
    for c in corpus.commits:
        counts[(c.repo, c.pull_number)] = counts.get((c.repo, c.pull_number), 0) + 1
    assert set(counts.values()) == {150}
    assert store.canonical_dump() == clean.canonical_dump()
    assert _fixes(store, world) == _fixes(clean, world)
    # One request per commit list instead of two pages (and no page fetched again).
    commit_lists = "GET /repos/{owner}/{repo}/pulls/{number}/commits"
    assert stats["by_endpoint"][commit_lists] * 2 == clean_stats["by_endpoint"][commit_lists]
    (note,) = report.as_dict()["paging"]
    assert note["kind"] == "over-long-page" and note["lists"] == report.pulls_detailed


# ---------------------------------------------------------------------------
# GraphQL closing references


@pytest.mark.parametrize("status,body,verdict", [
    (200, {"data": {"repository": {}}}, "ok"),
    (0, None, "retry"), (502, None, "retry"), (503, "<html>", "retry"), (429, None, "failed"),
    (501, {"message": "Not Implemented"}, "gone"), (401, {"message": "Bad credentials"}, "gone"),
    (404, None, "gone"), (403, {"message": "You have exceeded a secondary rate limit"}, "failed"),
    (200, {"errors": [{"type": "RATE_LIMITED", "message": "API rate limit exceeded"}]}, "gone"),   # until reset
    (200, {"errors": [{"message": "Field 'closedByPullRequestsReferences' doesn't exist"}]}, "gone"),
    (200, {"data": None, "errors": [{"message": "Something went wrong while executing your query. This may be the "
                                                "result of a timeout, or it could be a GitHub bug."}]}, "retry"),
])
def test_graphql_answers_are_read_as_retry_give_up_or_done(status, body, verdict):
    assert _verdict(status, body) == verdict


def test_graphql_501_gives_up_at_once_and_names_the_loss_per_repo(tmp_path):
    store, report, stats = _harvest(MINI, f"sqlite:///{tmp_path / 'g.db'}", strict="null_commit_id,graphql_501",
                                    token=TOKEN)
    assert stats["by_endpoint"]["POST /graphql"] == 1        # not asked again this run
    lost = report.as_dict()["closing_refs_unread"]
    assert lost and all("501" in x["why"] and x["issues"] > 0 for x in lost)
    assert len({x["repo"] for x in lost}) == len(lost)        # one entry per repo
    # The REST timeline still shows #102's fix (closed a second after #103 merged): stored, not linked.
    fix, kinds = _fixes(store, MINI)[("minilab/widgets", 102)]
    assert fix == [103] and "linked" not in kinds


def test_closing_references_lost_to_a_501_are_asked_again_by_the_next_run_and_heal(tmp_path):
    """The loss is per issue (rules.unread: ``closing_refs``): recorded, never a fix question by
    itself, and the next run on the same store asks the sidebar again and reaches the clean result."""
    from fixlore.rules.unread import CLOSING_REFS, fix_unknown
    db = f"sqlite:///{tmp_path / 'heal.db'}"
    clean, _, _ = _harvest(MINI, f"sqlite:///{tmp_path / 'clean.db'}", strict="null_commit_id", token=TOKEN)
    store, report, _ = _harvest(MINI, db, strict="null_commit_id,graphql_501", token=TOKEN)
    lost = {(x["repo"], n) for x in report.as_dict()["closing_refs_unread"] for n in x["numbers"]}
    gaps = {(f["repo"], f["number"]) for f in store.item_failures() if f["part"] == CLOSING_REFS}
    assert lost and lost <= gaps
    assert fix_unknown([f"issues/{n}/{CLOSING_REFS}" for _, n in gaps], has_landed_fix=False) == ""
    store.close()
    healed, report2, stats2 = _harvest(MINI, db, strict="null_commit_id", token=TOKEN)
    assert stats2["by_endpoint"].get("POST /graphql", 0) >= 1
    assert not [f for f in healed.item_failures() if f["part"] == CLOSING_REFS]
    assert report2.as_dict()["closing_refs_unread"] == []
    assert _fixes(healed, MINI) == _fixes(clean, MINI)


def test_graphql_that_stumbles_once_is_asked_again_and_loses_nothing(tmp_path):
    clean, clean_report, clean_stats = _harvest(MINI, f"sqlite:///{tmp_path / 'clean.db'}", strict="null_commit_id",
                                                token=TOKEN)
    store, report, stats = _harvest(MINI, f"sqlite:///{tmp_path / 'flaky.db'}", strict="null_commit_id,graphql_flaky",
                                    token=TOKEN)
    assert report.as_dict()["closing_refs_unread"] == [] == clean_report.as_dict()["closing_refs_unread"]
    assert stats["by_endpoint"]["POST /graphql"] == 2 * clean_stats["by_endpoint"]["POST /graphql"]
    assert stats["by_status"]["502"] == clean_stats["by_endpoint"]["POST /graphql"]
    assert _fixes(store, MINI) == _fixes(clean, MINI)
    assert "linked" in _fixes(store, MINI)[("minilab/widgets", 102)][1]


def test_graphql_that_answers_part_of_a_batch_asks_again_for_the_rest_and_loses_nothing(tmp_path):
    """A field that fails is nulled beside its siblings, its error naming the path (GraphQL spec, "Handling
    Field Errors"; GitHub: "Something went wrong while executing your query. This may be the result of a
    timeout"): the issues left null are asked again, never read as issues no PR closes."""
    clean, clean_report, clean_stats = _harvest(MINI, f"sqlite:///{tmp_path / 'clean.db'}", strict="null_commit_id",
                                                token=TOKEN)
    store, report, stats = _harvest(MINI, f"sqlite:///{tmp_path / 'part.db'}",
                                    strict="null_commit_id,graphql_partial", token=TOKEN)
    assert stats["by_endpoint"]["POST /graphql"] > clean_stats["by_endpoint"]["POST /graphql"]   # asked again
    assert report.as_dict()["closing_refs_unread"] == [] == clean_report.as_dict()["closing_refs_unread"]
    linked = {k: v for k, v in _fixes(clean, MINI).items() if "linked" in v[1]}
    assert linked and _fixes(store, MINI) == _fixes(clean, MINI)


@pytest.mark.parametrize("world", [MINI, DEMO], ids=["github", "gitcode"])
def test_a_harvest_through_301_redirects_to_moved_repositories_equals_the_clean_one(tmp_path, world):
    """GitHub answers a renamed or transferred repository's old address with 301 and a Location under
    /repositories/{id}, and asks clients to follow redirects; GitCode documents 301 with Location too.
    Every list, page (its Link names the new address), item and detail is read through them."""
    clean, clean_report, _ = _harvest(world, f"sqlite:///{tmp_path / 'clean.db'}")
    store, report, stats = _harvest(world, f"sqlite:///{tmp_path / 'moved.db'}", strict="moved_repos")
    assert stats["by_status"].get("301", 0) >= report.issues_detailed > 0
    assert report.unreadable == [] == report.unread_items
    assert (report.issues_listed, report.issues_detailed, report.pulls_detailed) == (
        clean_report.issues_listed, clean_report.issues_detailed, clean_report.pulls_detailed)
    assert _fixes(store, world) == _fixes(clean, world)


def test_a_spent_graphql_budget_holds_up_no_rest_request(tmp_path):
    """GitHub keeps the REST ("core") and GraphQL ("graphql") budgets apart and names the one an answer's
    X-RateLimit-* headers count (X-RateLimit-Resource): GraphQL's budget spent, its reset an hour away, is
    no reason to hold the REST harvest; the issues GraphQL then refuses are named unread, with its words."""
    from fixlore.replay.strict import Quirks

    def sleep(seconds: float) -> None:
        assert seconds < 60, f"the harvest was held {seconds:.0f} s"

    clean, clean_report, clean_stats = _harvest(MINI, f"sqlite:///{tmp_path / 'clean.db'}", strict="null_commit_id",
                                                token=TOKEN)
    meta = read_world_meta(MINI)
    store = Store.open(f"sqlite:///{tmp_path / 'spent.db'}")
    with ReplayServer(MINI, strict=Quirks(frozenset({"null_commit_id", "graphql_budget"}), graphql_points=0),
                      token=TOKEN) as srv:
        client = ApiClient(srv.base_url, "github", TOKEN, cache=store.http_cache(), rate_limit=False,
                           backoff_base=0.01, sleep=sleep)
        try:
            report = harvest(store, make_source("github", client), meta["orgs"], parse_time(meta["window"]["since"]))
        finally:
            client.close()
        stats = srv.stats()
    # GitHub: "do not retry until after x-ratelimit-reset": one answer says so, no query is asked again
    assert clean_stats["by_endpoint"]["POST /graphql"] >= 1 and stats["by_endpoint"]["POST /graphql"] == 1
    assert report.issues_detailed == clean_report.issues_detailed and report.unreadable == []
    lost = report.as_dict()["closing_refs_unread"]
    assert lost and all("rate limit" in x["why"] for x in lost)
    assert ("minilab/widgets", 102) in {(x["repo"], n) for x in lost for n in x["numbers"]}   # its sidebar fix


def _graphql_source(answers: list):
    """A GitHub source whose GraphQL answers are ``answers`` in turn (the queries asked are returned too)."""
    asked: list[str] = []

    def handler(request: httpx2.Request) -> httpx2.Response:
        import json as _json
        asked.append(_json.loads(request.content)["query"])
        return httpx2.Response(200, json=answers[min(len(asked), len(answers)) - 1])

    client = ApiClient("https://api.example.test", "github", TOKEN, transport=httpx2.MockTransport(handler),
                       rate_limit=False, sleep=lambda s: None)
    return make_source("github", client), asked


def _refs(number: int, *pulls: int, total: int | None = None) -> dict:
    nodes = [{"number": n, "url": "", "merged": True, "state": "MERGED", "repository": {"nameWithOwner": "o/a"}}
             for n in pulls]
    return {"number": number, "closedByPullRequestsReferences": {"totalCount": len(pulls) if total is None else total,
                                                                 "nodes": nodes}}


def test_graphql_issues_left_null_by_an_error_are_unread_never_read_as_closed_by_nothing():
    from fixlore.sources.github_graphql import ATTEMPTS, closing_refs
    timeout = {"message": "Something went wrong while executing your query. This may be the result of a timeout",
               "path": ["repository", "i2"]}
    gone = {"type": "NOT_FOUND", "message": "Could not resolve to an Issue with the number of 3.",
            "path": ["repository", "i3"]}
    partial = {"data": {"repository": {"i1": _refs(1, 11), "i2": None, "i3": None}}, "errors": [timeout, gone]}
    source, asked = _graphql_source([partial, {"data": {"repository": {"i2": _refs(2, 12)}}}])
    read = closing_refs(source, "o/a", [1, 2, 3])
    assert {n: [lk.pull_number for lk in v] for n, v in read.links.items()} == {1: [11], 2: [12]}
    assert read.unread == [] and len(asked) == 2 and "i2:" in asked[1] and "i1:" not in asked[1]
    # Still null after every ask: unread, with the platform's words; the issue GitHub says is not there is not.
    source, asked = _graphql_source([partial])
    read = closing_refs(source, "o/a", [1, 2, 3])
    assert read.unread == [2] and "timeout" in read.why and len(asked) == ATTEMPTS
    assert [lk.pull_number for lk in read.links[1]] == [11]
    # A repository GraphQL cannot resolve while REST reads it: every issue unread, none "closed by nothing".
    source, _ = _graphql_source([{"data": {"repository": None}, "errors": [
        {"type": "NOT_FOUND", "message": "Could not resolve to a Repository", "path": ["repository"]}]}])
    assert closing_refs(source, "o/a", [1, 2]).unread == [1, 2]


def test_graphql_closing_references_past_the_first_page_are_unread_never_cut_short():
    """A connection lists at most ``first`` nodes and counts them all in ``totalCount`` (GitHub GraphQL
    pagination): an issue with more closing PRs than one query lists keeps what came and is named unread."""
    from fixlore.sources.github_graphql import PRS_PER_ISSUE, closing_refs
    many = list(range(100, 100 + PRS_PER_ISSUE))
    source, _ = _graphql_source([{"data": {"repository": {"i1": _refs(1, *many, total=PRS_PER_ISSUE + 2),
                                                          "i2": _refs(2, 7)}}}])
    read = closing_refs(source, "o/a", [1, 2])
    assert len(read.links[1]) == PRS_PER_ISSUE and read.unread == [1] and "closing" in read.why


def test_the_digest_names_the_repos_whose_closing_references_were_not_read():
    lost = [{"repo": "minilab/widgets", "issues": 3, "numbers": [96, 100, 102],
             "why": "GraphQL answered 501: not available on this host"}]
    en = _closing_refs_note({"closing_refs_unread": lost}, "en")
    zh = _closing_refs_note({"closing_refs_unread": lost}, "zh")
    assert "minilab/widgets (3 issues: GraphQL answered 501" in en and "may be missing" in en
    assert "minilab/widgets（3 条" in zh and "侧栏" in zh
    assert _closing_refs_note({}, "en") == "" == _closing_refs_note({"closing_refs_unread": []}, "zh")


def test_graphql_out_of_reach_costs_one_batch_then_is_given_up_for_the_host():
    """Transport errors on every ask: one batch tried three times, then no more GraphQL on that host."""
    from fixlore.sources.github_graphql import ATTEMPTS, closing_refs

    posts: list[str] = []

    def handler(request: httpx2.Request) -> httpx2.Response:
        posts.append(request.url.path)
        raise httpx2.ConnectError("refused", request=request)

    client = ApiClient("https://ghe.example.test/api/v3", "github", TOKEN, transport=httpx2.MockTransport(handler),
                       rate_limit=False, sleep=lambda s: None)
    source = make_source("github", client)
    first = closing_refs(source, "o/a", list(range(1, 120)))          # three batches of up to 50
    second = closing_refs(source, "o/b", [7])
    assert len(posts) == ATTEMPTS and set(posts) == {"/api/graphql"}
    assert first.unread == list(range(1, 120)) and "could not be reached" in first.why
    assert second.unread == [7] and "given up" in second.why
    assert closing_refs(make_source("gitcode", client), "o/a", [1]).unread == []   # not part of the plan there


def test_a_run_whose_graphql_answers_501_names_the_loss_in_run_json_and_the_digest(tmp_path, monkeypatch):
    """The whole pipeline with a token (a replay run has none: the connection is given one here)."""
    import fixlore.harvest.connect as connect_module
    from fixlore.pipeline import RunRequest, run_pipeline

    real = connect_module.connect
    monkeypatch.setattr(connect_module, "connect", lambda settings, store, **kw: real(settings, store,
                                                                                      **{**kw, "token": TOKEN}))
    out = tmp_path / "out"
    info = run_pipeline(RunRequest(world=MINI, out=out, strict="null_commit_id,graphql_501"))
    harvest_summary = next(s["summary"] for s in info["stages"] if s["name"] == "harvest")
    lost = harvest_summary["closing_refs_unread"]
    assert lost and info["server"]["by_endpoint"]["POST /graphql"] == 1
    digest_en = (out / "digest.en.md").read_text(encoding="utf-8")
    digest_zh = (out / "digest.zh.md").read_text(encoding="utf-8")
    for entry in lost:
        assert f"{entry['repo']} ({entry['issues']} issues: GraphQL answered 501" in digest_en
        assert f"{entry['repo']}（{entry['issues']} 条" in digest_zh
    assert "Development sidebar" in digest_en
