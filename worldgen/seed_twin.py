"""Generate worlds/seed-twin: a sample of the seed digest's cases, encoded independently, in GitCode's format.

    python worldgen/seed_twin.py [OUT_DIR]      (default: worlds/seed-twin next to this folder)

The threads live in ``worldgen/data/seed_twin.yaml``. They were written from the seed digest
(``ascend-digest-16-2026-09``: its rows and its section 考据与口径披露) and the shared references
only, without opening the project's own Ascend encoding. Each truth entry says in ``why`` which
seed statement it follows. Repo paths and issue / PR numbers are the seed's, so ``bench/rows.py``
can measure our rows against the seed's rows for the same issues.

Fixed rules, the same on every run:
- A closed issue's operate_logs end with a ``closed`` entry by ``closed_by`` at ``finished_at``;
  platform links (``linked``) add ``add_issue_mr_link`` on the issue and ``add_mr_issue_link`` on
  the PR; a PR closed unmerged gets a ``closed`` entry in its own log.
- Merged PRs: ``state: merged``, ``merged_at`` set, ``closed_at: ""``, no ``merged`` key. One commit
  per PR carrying the title and body as its message.
- ``lag_s`` = close time minus the ``merged_at`` of the first ``role: fix`` PR (null without one and
  for ``before_merge``). ``split``: ``tune`` when the SHA-1 of "owner/repo#n" starts with 0-4, else
  ``heldout`` (about a third tune).
"""

from __future__ import annotations

import hashlib
import sys
from datetime import datetime
from pathlib import Path

import yaml

from fixlore.replay.worldwrite import reset_dir, stable_hex, stable_int, write_json, write_text, write_yaml

ORG = "Ascend"
SNAPSHOT = "2026-09-21T00:00:00+08:00"
SINCE = "2026-09-17T00:00:00+08:00"
WEB = "https://gitcode.com"
API = "https://api.gitcode.com/api/v5"
DATA = Path(__file__).resolve().parent / "data" / "seed_twin.yaml"
KEYS = ["repo", "number", "funnel", "drop_reason", "fix", "evidence", "timing", "lag_s", "traps", "kb_refs", "theme"]

WORLD_YAML = f"""platform: gitcode
snapshot_at: '{SNAPSHOT}'
orgs: [{ORG}]
description: 'seed-twin: 30 of the seed digest''s analysed cases and 20 fillers, re-told as GitCode threads by other hands.'
window: {{since: '{SINCE}'}}
# The pool's head that deep analysis reads: every entry the truth labels selected (25) or analysis (5).
# The seed analysed 63 of a 243 pool (26 %); this world keeps only 4 rank entries below the cut,
# because its fillers are meant to be dropped earlier in the funnel, not to dilute the ranking.
rank_top_k: 30
"""


def t(stamp: str) -> str:
    """'2026-09-17 10:12:03' -> '2026-09-17T10:12:03+08:00'; '' stays ''."""
    return stamp.replace(" ", "T") + "+08:00" if stamp else ""


def _dt(value: str) -> datetime:
    return datetime.fromisoformat(value)


class Twin:
    def __init__(self, data: dict) -> None:
        self.people: dict[str, str] = data["people"]
        self.repos = {r["path"]: r for r in data["repos"]}
        self.issues: dict[tuple[str, int], dict] = {}
        self.pulls: dict[tuple[str, int], dict] = {}
        self.files: dict[tuple[str, str, int, str], list] = {}   # (repo, kind, n, suffix)
        self.truth: list[dict] = []
        self._seq = 180000000

    def _next(self) -> int:
        self._seq += 11
        return self._seq

    def user(self, login: str) -> dict:
        return {"id": stable_hex("twin-user", login, length=24), "login": login, "name": self.people[login],
                "avatar_url": f"{WEB}/assets/avatars/{login}.png", "html_url": f"{WEB}/{login}"}

    def repo_ref(self, path: str, owner: str = ORG) -> dict:
        r = self.repos[path]
        return {"id": stable_int("twin-repo", path), "full_name": f"{owner}/{path}", "path": path, "name": r["name"],
                "namespace": {"path": owner}}

    def repo_obj(self, path: str) -> dict:
        r = self.repos[path]
        open_count = sum(1 for (rp, _), i in self.issues.items() if rp == path and i["state"] == "open")
        return {"id": stable_int("twin-repo", path), "full_name": f"{ORG}/{path}", "human_name": f"{ORG} / {r['name']}",
                "name": r["name"], "path": path, "description": r["description"],
                "namespace": {"id": 8800001, "name": ORG, "path": ORG, "type": "group", "html_url": f"{WEB}/{ORG}"},
                "html_url": f"{WEB}/{ORG}/{path}.git", "default_branch": "master", "private": False, "public": True,
                "internal": False, "fork": False, "open_issues_count": open_count,
                "created_at": t("2024-06-01 10:00:00"), "updated_at": t("2026-09-20 20:00:00"),
                "pushed_at": t("2026-09-20 20:00:00"), "status": "开始", "repo_type": "code", "project_creator": "ascend-robot"}

    # ---------------------------------------------------------------- pulls

    def pull(self, p: dict) -> None:
        repo, n, author = p["repo"], p["number"], p["author"]
        merged, closed = t(p.get("merged", "")), t(p.get("closed", ""))
        state = "merged" if merged else ("closed" if closed else "open")
        comments = p.get("comments") or []
        created = t(p["created"])
        updated = max((v for v in [created, merged, closed] + [t(c[1]) for c in comments] if v), key=_dt)
        pid = stable_int("twin-pull", repo, n)
        head_sha, base_sha = stable_hex("twin-head", repo, n), stable_hex("twin-base", repo, n)
        head_repo = self.repo_ref(repo, author) if p.get("fork") else self.repo_ref(repo)
        obj = {
            "id": pid, "iid": n, "number": n, "state": state, "title": p["title"], "body": p.get("body", ""),
            "html_url": f"{WEB}/{ORG}/{repo}/merge_requests/{n}", "url": f"{API}/repos/{ORG}/{repo}/pulls/{n}",
            "issue_url": f"{API}/repos/{ORG}/{repo}/pulls/{n}/issues", "diff_url": f"{WEB}/{ORG}/{repo}/merge_requests/{n}.diff",
            "user": self.user(author),
            "head": {"label": p["head"], "ref": p["head"], "sha": head_sha, "user": self.user(author), "repo": head_repo},
            "base": {"label": p.get("base", "master"), "ref": p.get("base", "master"), "sha": base_sha,
                     "user": self.user(author), "repo": self.repo_ref(repo)},
            "source_branch": p["head"], "target_branch": p.get("base", "master"),
            "created_at": created, "updated_at": updated, "merged_at": merged, "closed_at": closed if not merged else "",
            "merged_by": self.user(p["merged_by"]) if merged else None,
            "closed_by": self.user(p["closed_by"]) if closed and not merged else None,
            "close_related_issue": p.get("close_related", 0), "draft": False, "locked": False, "mergeable": state == "open",
            "notes": len(comments), "labels": [], "assignees": [], "testers": [],
        }
        self.pulls[(repo, n)] = obj
        key = (repo, "pulls", n)
        message = f"{p['title']}\n\n{p.get('body', '')}".strip()
        self.files[key + ("commits",)] = [{
            "sha": head_sha, "html_url": f"{WEB}/{ORG}/{repo}/commit/{head_sha}",
            "commit": {"author": {"name": self.people[author], "email": f"{author}@users.noreply.gitcode.com", "date": created},
                       "committer": {"name": self.people[author], "email": f"{author}@users.noreply.gitcode.com", "date": created},
                       "message": message},
            "author": {"login": author, "name": self.people[author]}, "committer": {"login": author, "name": self.people[author]},
            "parents": {"sha": base_sha, "shas": [base_sha]},
        }]
        if p.get("files"):
            self.files[key + ("files",)] = [self._file(repo, head_sha, name, patch) for name, patch in p["files"]]
        if comments:
            self.files[key + ("comments",)] = [{
                "id": self._next(), "body": text, "comment_type": "pr_comment", "created_at": t(when), "updated_at": t(when),
                "user": self.user(who), "discussion_id": stable_hex("twin-disc", repo, n, when), "resolved": False, "reply": [],
            } for who, when, text in comments]
        logs = [self._pr_log(repo, pid, "opened", author, created, "opened")]
        if closed and not merged:
            logs.append(self._pr_log(repo, pid, "closed", p.get("closed_by") or author, closed, "closed from codehub"))
        self.files[key + ("events",)] = logs

    def _pr_log(self, repo: str, pid: int, action: str, who: str, when: str, content: str) -> dict:
        return {"id": self._next(), "action": action, "action_type": action, "content": content, "merge_request_id": pid,
                "project": f"{ORG}/{repo}", "created_at": when, "updated_at": when,
                "discussion_id": stable_hex("twin-log", repo, pid, when, action),
                "user": {"id": stable_hex("twin-user", who, length=24), "login": who, "name": self.people[who],
                         "state": "active", "web_url": f"{WEB}/{who}"}}

    @staticmethod
    def _file(repo: str, sha: str, name: str, patch: str) -> dict:
        lines = patch.splitlines()
        added = sum(1 for ln in lines if ln.startswith("+") and not ln.startswith("+++"))
        removed = sum(1 for ln in lines if ln.startswith("-") and not ln.startswith("---"))
        return {"sha": stable_hex("twin-blob", repo, name, sha), "filename": name, "status": "modified",
                "additions": str(added), "deletions": str(removed),
                "blob_url": f"{WEB}/{ORG}/{repo}/blob/{sha}/{name}", "raw_url": f"{WEB}/{ORG}/{repo}/raw/{sha}/{name}",
                "patch": {"diff": patch, "new_path": name, "old_path": name, "new_file": False, "deleted_file": False,
                          "renamed_file": False, "too_large": False, "added_lines": added, "removed_lines": removed}}

    # ---------------------------------------------------------------- issues

    def issue(self, s: dict) -> None:
        repo, n = s["repo"], s["number"]
        iid = stable_int("twin-issue", repo, n)
        created, closed = t(s["created"]), t(s.get("closed", ""))
        logs: list[dict] = []
        for pr_n, when, who in s.get("linked") or []:
            pr = self.pulls[(repo, pr_n)]
            entry = self._issue_log(iid, "add_issue_mr_link", who, t(when), f"Create issue mr links: **{pr['title']}** #{pr_n}")
            entry.update({"title": pr["title"], "body": pr["body"],
                          "head": {"ref": pr["head"]["ref"], "sha": pr["head"]["sha"],
                                   "repo": {"name": pr["head"]["repo"]["name"], "path": pr["head"]["repo"]["path"]},
                                   "assigner": {"login": pr["user"]["login"], "name": pr["user"]["name"]}},
                          "base": {"ref": pr["base"]["ref"], "sha": pr["base"]["sha"],
                                   "repo": {"name": pr["base"]["repo"]["name"], "path": pr["base"]["repo"]["path"]}}})
            logs.append(entry)
            self.files[(repo, "pulls", pr_n, "events")].append(
                self._pr_log(repo, pr["id"], "add_mr_issue_link", who, t(when), f"Create mr issue link: **{s['title']}** #{n}"))
            self.files.setdefault((repo, "pulls", pr_n, "issues"), [])
        for action, who, when, content in s.get("logs") or []:
            logs.append(self._issue_log(iid, action, who, t(when), content))
        if closed:
            logs.append(self._issue_log(iid, "closed", s["closed_by"], closed, "关闭了 Issue"))
        logs.sort(key=lambda e: _dt(e["created_at"]))
        comments = [{"id": self._next(), "body": text, "created_at": t(when), "updated_at": t(when), "user": self.user(who),
                     "target": {"issue": {"id": iid, "number": str(n), "title": s["title"]}}}
                    for who, when, text in s.get("comments") or []]
        labels = [{"id": stable_int("twin-label", repo, name, lo=1000, span=90000), "name": name, "color": "#d73a4a",
                   "created_at": t("2025-05-19 21:43:45"), "updated_at": t("2026-06-24 15:42:38")}
                  for name in s.get("labels") or []]
        state_title = s.get("state") or ("已完成" if closed else "待办的")
        itype = s.get("issue_type", "Bug-Report")
        times = [created, closed] + [c["created_at"] for c in comments] + [e["created_at"] for e in logs]
        obj = {
            "id": iid, "number": str(n), "state": "closed" if closed else "open", "title": s["title"], "body": s.get("body", ""),
            "html_url": f"{WEB}/{ORG}/{repo}/issues/{n}", "url": f"{API}/repos/{ORG}/{repo}/issues/{n}",
            "user": self.user(s["author"]), "assignee": None, "assignees": [], "labels": labels,
            "created_at": created, "updated_at": max((v for v in times if v), key=_dt), "finished_at": closed,
            "plan_started_at": "", "deadline": "",
            "issue_state": state_title,
            "issue_state_detail": {"title": state_title, "serial": stable_int("twin-state", state_title, lo=1, span=6),
                                   "id": stable_int("twin-state", state_title, lo=200, span=800)},
            "issue_type": itype,
            "issue_type_detail": {"title": itype, "id": 238 if itype == "Bug-Report" else 241, "is_system": False},
            "comments": len(comments), "priority": 0, "milestone": None,
            "repository": {k: v for k, v in self.repo_ref(repo).items() if k != "namespace"}, "visibility_reason": "public",
            "custom_fields": [],
        }
        self.issues[(repo, n)] = obj
        if comments:
            self.files[(repo, "issues", n, "comments")] = comments
        if logs:
            self.files[(repo, "issues", n, "events")] = logs
        if s.get("linked"):
            self.files[(repo, "issues", n, "pulls")] = [self._issue_pull_item(repo, pr_n) for pr_n, _, _ in s["linked"]]
        self.truth.append(self._truth(s))

    def _issue_log(self, iid: int, action: str, who: str, when: str, content: str) -> dict:
        return {"id": self._next(), "action_type": action, "content": content, "created_at": when, "update_at": when,
                "issue_id": str(iid), "user": self.user(who)}

    def _issue_pull_item(self, repo: str, n: int) -> dict:
        pr = self.pulls[(repo, n)]
        item = {"id": pr["id"], "number": n, "state": pr["state"], "title": pr["title"], "body": pr["body"],
                "html_url": pr["html_url"], "diff_url": pr["diff_url"],
                "created_at": pr["created_at"], "updated_at": pr["updated_at"]}
        if pr["merged_at"]:
            item["merged_at"] = pr["merged_at"]
        if pr["closed_at"]:
            item["closed_at"] = pr["closed_at"]
        item.update({"head": {"ref": pr["head"]["ref"], "sha": pr["head"]["sha"], "repo": pr["head"]["repo"],
                              "assigner": {"login": pr["user"]["login"], "name": pr["user"]["name"]}},
                     "base": {"ref": pr["base"]["ref"], "sha": pr["base"]["sha"], "repo": pr["base"]["repo"]},
                     "labels": [], "assignees": [], "testers": [], "can_merge_check": False})
        return item

    def finish_links(self) -> None:
        """/pulls/{n}/issues from the issues' final state."""
        for (repo, kind, pr_n, suffix), items in self.files.items():
            if kind != "pulls" or suffix != "issues":
                continue
            items.clear()
            for (r, n), issue in sorted(self.issues.items(), key=lambda kv: (kv[0][0], kv[0][1])):
                linked = [p["number"] for p in self.files.get((r, "issues", n, "pulls"), [])]
                if r == repo and pr_n in linked:
                    items.append({"id": issue["id"], "number": issue["number"], "title": issue["title"], "state": issue["state"],
                                  "body": issue["body"], "url": issue["url"], "html_url": issue["html_url"], "user": issue["user"],
                                  "labels": [{k: lab[k] for k in ("id", "name", "color")} | {"text_color": "#FFFFFF"}
                                             for lab in issue["labels"]],
                                  "repository": {"full_name": f"{ORG}/{repo}", "path": repo},
                                  "issue_created_at": issue["created_at"], "issue_updated_at": issue["updated_at"]})

    def _truth(self, s: dict) -> dict:
        spec = s["truth"]
        full = f"{ORG}/{s['repo']}"
        fix = [{"repo": f"{ORG}/{r}", "number": num, "role": role} for r, num, role in spec.get("fix") or []]
        timing = spec.get("timing", "no_fix")
        lag = None
        main = [f for f in spec.get("fix") or [] if f[2] == "fix"]
        if main and timing not in ("no_fix", "before_merge"):
            merged = self.pulls[(main[0][0], main[0][1])]["merged_at"]
            lag = int((_dt(t(s["closed"])) - _dt(merged)).total_seconds())
        entry = {"repo": full, "number": s["number"], "funnel": spec["funnel"], "drop_reason": spec.get("drop_reason", ""),
                 "fix": fix, "evidence": list(spec.get("evidence") or []), "timing": timing, "lag_s": lag,
                 "traps": list(spec.get("traps") or []), "kb_refs": list(spec.get("kb_refs") or []),
                 "theme": spec.get("theme", "")}
        assert list(entry) == KEYS
        first = hashlib.sha1(f"{full}#{s['number']}".encode("utf-8")).hexdigest()[0]
        entry["split"] = "tune" if first in "01234" else "heldout"
        entry["why"] = s["why"]
        return entry


NOTES = ("Written from the seed digest's rows and disclosure only (see worlds/README.md, seed-twin). "
         "Each entry's `why` names the seed statement it follows; `split` is tune / heldout by the SHA-1 "
         "rule in worldgen/seed_twin.py.")


def build(data: dict, world_yaml: str = WORLD_YAML) -> Twin:
    w = Twin(data)
    for p in data["pulls"]:
        w.pull(p)
    for s in data["issues"]:
        w.issue(s)
    w.finish_links()
    pool = sum(e["funnel"] in ("selected", "analysis") for e in w.truth)
    assert f"rank_top_k: {pool}\n" in world_yaml, pool
    return w


def write(out: Path, data_path: Path = DATA, world_yaml: str = WORLD_YAML, notes: str = NOTES) -> None:
    """Write a twin world: seed-twin by default; seed-twin2 passes its own data, world.yaml and notes."""
    data = yaml.safe_load(data_path.read_text(encoding="utf-8"))
    w = build(data, world_yaml)
    reset_dir(out)
    write_text(out / "world.yaml", world_yaml)
    write_json(out / "orgs" / f"{ORG}.json", [w.repo_obj(r["path"]) for r in data["repos"]])
    for path in w.repos:
        write_json(out / "repos" / ORG / path / "repo.json", w.repo_obj(path))
    for (repo, n), obj in sorted(w.issues.items()):
        write_json(out / "repos" / ORG / repo / "issues" / f"{n}.json", obj)
    for (repo, n), obj in sorted(w.pulls.items()):
        write_json(out / "repos" / ORG / repo / "pulls" / f"{n}.json", obj)
    for (repo, kind, n, suffix), items in sorted(w.files.items()):
        write_json(out / "repos" / ORG / repo / kind / f"{n}.{suffix}.json", items)
    for rel, text in sorted(data["docs"].items()):
        write_text(out / "docs" / ORG / rel, text)
    truth = {"window": {"since": SINCE}, "notes": notes,
             "issues": sorted(w.truth, key=lambda e: (e["repo"], e["number"]))}
    write_yaml(out / "truth.yaml", truth)


def main(argv: list[str]) -> None:
    out = Path(argv[1]) if len(argv) > 1 else Path(__file__).resolve().parents[1] / "worlds" / "seed-twin"
    write(out)
    print(f"wrote {out}")


if __name__ == "__main__":
    main(sys.argv)
