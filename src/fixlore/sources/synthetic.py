"""Write a synthetic world (world-format.md) of a chosen shape, for harvest tests and benchmarks.

The content is random but reproducible (``seed``) and carries the platform's quirks: GitCode
string issue numbers, ``+08:00`` times, ``""`` for unset times, ``finished_at``, PR
``state: merged``; GitHub PRs mixed into the issue files. Issues come in every cheap-funnel
kind (closed in window, old but revived, rejected, internal task, CVE, empty title, template
flood) and PRs are tied to them in every way the harvester looks for (platform links, closing
keywords, branch names, comment citations, a cross-repo backport).
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import yaml

CST = timezone(timedelta(hours=8))


@dataclass
class WorldShape:
    platform: str = "gitcode"
    orgs: tuple[str, ...] = ("acme", "beta")
    repos: int = 6
    closed_in_window: int = 40          # closed (finished) at or after ``since``
    other_updated: int = 20             # open, or closed before the window but revived
    old_issues: int = 30                # updated before the window (the lister must stop before them)
    since: str = "2026-09-17T00:00:00+08:00"
    snapshot: str = "2026-09-21T00:00:00+08:00"
    seed: int = 7


def _t(value: datetime, platform: str, millis: bool = False) -> str:
    if platform == "github":
        return value.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    text = value.astimezone(CST).isoformat(timespec="milliseconds" if millis else "seconds")
    return text


class _Writer:
    def __init__(self, root: Path, shape: WorldShape):
        self.root = root
        self.shape = shape
        self.platform = shape.platform
        self.rng = random.Random(shape.seed)
        self.since = datetime.fromisoformat(shape.since)
        self.snapshot = datetime.fromisoformat(shape.snapshot)
        self.next_id = 100000

    def _id(self) -> int:
        self.next_id += 1
        return self.next_id

    def dump(self, rel: str, data: Any) -> None:
        path = self.root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")

    def user(self, login: str) -> dict[str, Any]:
        return {"id": f"{abs(hash(login)) % 10**12:024x}" if self.platform == "gitcode" else abs(hash(login)) % 10**6,
                "login": login, "name": login, "html_url": f"https://example.invalid/{login}"}

    def when(self, start: datetime, end: datetime) -> datetime:
        span = max(1, int((end - start).total_seconds()))
        return start + timedelta(seconds=self.rng.randrange(span))

    def write(self) -> None:
        shape = self.shape
        repos_by_org: dict[str, list[str]] = {org: [] for org in shape.orgs}
        names = [f"repo{i:03d}" for i in range(shape.repos)]
        for i, name in enumerate(names):
            repos_by_org[shape.orgs[i % len(shape.orgs)]].append(name)
        full = [f"{org}/{name}" for org, names_ in repos_by_org.items() for name in names_]
        # Skewed sizes: a few busy repos (several list pages), many quiet ones.
        weights = [1.0 / (k + 1) ** 0.9 for k in range(len(full))]
        self.rng.shuffle(weights)
        counts = {"closed": self._spread(shape.closed_in_window, weights),
                  "other": self._spread(shape.other_updated, weights),
                  "old": self._spread(shape.old_issues, weights)}
        for org, names_ in repos_by_org.items():
            repo_objs = [self.repo_obj(org, name) for name in names_]
            self.dump(f"orgs/{org}.json", repo_objs)
            for obj in repo_objs:
                self.dump(f"repos/{org}/{obj['path' if self.platform == 'gitcode' else 'name']}/repo.json", obj)
        for k, repo in enumerate(full):
            self.write_repo(repo, counts["closed"][k], counts["other"][k], counts["old"][k], full)
        meta = {"platform": self.platform, "snapshot_at": shape.snapshot, "orgs": list(shape.orgs),
                "description": f"synthetic {self.platform} world, seed {shape.seed}", "rank_top_k": 20}
        (self.root / "world.yaml").write_text(yaml.safe_dump(meta, allow_unicode=True), encoding="utf-8")
        (self.root / "truth.yaml").write_text(yaml.safe_dump({"window": {"since": shape.since}, "issues": []}),
                                              encoding="utf-8")

    def _spread(self, total: int, weights: list[float]) -> list[int]:
        norm = sum(weights)
        counts = [int(total * w / norm) for w in weights]
        for k in range(total - sum(counts)):
            counts[k % len(counts)] += 1
        return counts

    def repo_obj(self, org: str, name: str) -> dict[str, Any]:
        if self.platform == "github":
            return {"id": self._id(), "name": name, "full_name": f"{org}/{name}", "owner": {"login": org},
                    "html_url": f"https://github.com/{org}/{name}", "default_branch": "main",
                    "updated_at": _t(self.snapshot, "github"), "private": False}
        return {"id": self._id(), "full_name": f"{org}/{name}", "name": name.upper(), "path": name,
                "namespace": {"id": 1, "name": org, "path": org, "type": "organization"},
                "html_url": f"https://gitcode.com/{org}/{name}.git", "default_branch": "master",
                "created_at": "2024-01-01T10:00:00+08:00", "updated_at": _t(self.snapshot, "gitcode"),
                "pushed_at": "", "private": False, "public": True, "fork": False, "repo_type": "code"}

    def write_repo(self, repo: str, n_closed: int, n_other: int, n_old: int, all_repos: list[str]) -> None:
        rng = self.rng
        number = 0
        pull_number = 1000 if self.platform == "gitcode" else 0
        issues, pulls = [], []
        kinds = (["closed"] * n_closed) + (["other"] * n_other) + (["old"] * n_old)
        for kind in kinds:
            number += 1
            issues.append(self.issue_spec(repo, number, kind))
        if self.platform == "github":
            pull_number = number
        for spec in issues:
            if spec["kind"] == "closed" and spec["flavour"] == "pool" and rng.random() < 0.8:
                pull_number += 1
                pulls.append(self.pull_spec(repo, pull_number, spec, all_repos))
            elif spec["kind"] == "old" and rng.random() < 0.3:
                pull_number += 1
                pulls.append(self.pull_spec(repo, pull_number, spec, all_repos, unrelated=True))
        for spec in issues:
            self.write_issue(repo, spec, pulls)
        for spec in pulls:
            self.write_pull(repo, spec)

    def issue_spec(self, repo: str, number: int, kind: str) -> dict[str, Any]:
        rng = self.rng
        flavour = "pool"
        if kind == "closed":
            flavour = rng.choices(["pool", "rejected", "internal", "cve", "empty", "flood"],
                                  [0.55, 0.12, 0.12, 0.05, 0.04, 0.12])[0]
            closed = self.when(self.since, self.snapshot - timedelta(hours=2))
            created = closed - timedelta(days=rng.randrange(1, 60), seconds=rng.randrange(86400))
            updated = closed + timedelta(seconds=rng.randrange(0, 3600))
        elif kind == "other":
            created = self.since - timedelta(days=rng.randrange(1, 200))
            updated = self.when(self.since, self.snapshot - timedelta(hours=1))
            closed = (created + timedelta(days=1)) if rng.random() < 0.5 else None
        else:
            created = self.since - timedelta(days=rng.randrange(30, 400))
            closed = created + timedelta(days=rng.randrange(1, 20))
            updated = min(closed + timedelta(days=1), self.since - timedelta(hours=1))
        title = {"pool": f"[Bug] operator {rng.randrange(10**6)} fails on device {rng.choice('ABCDEFG')}",
                 "rejected": f"Feature request {rng.randrange(10**5)}",
                 "internal": f"Internal task {rng.randrange(10**5)}",
                 "cve": f"CVE-2026-{rng.randrange(10000, 99999)} in dependency",
                 "empty": "", "flood": "API一致性任务"}[flavour]
        return {"number": number, "kind": kind, "flavour": flavour, "title": title, "created": created,
                "updated": updated, "closed": closed, "author": f"user{rng.randrange(40)}"}

    def pull_spec(self, repo: str, number: int, issue: dict[str, Any], all_repos: list[str],
                  unrelated: bool = False) -> dict[str, Any]:
        rng = self.rng
        how = "none" if unrelated else rng.choice(["link", "keyword", "branch", "comment", "url"])
        merged = not unrelated and rng.random() < 0.85
        base = issue["closed"] or issue["updated"]
        merged_at = base - timedelta(seconds=rng.choice([0, 1, 40, 900, 86400 * 3])) if merged else None
        created = (merged_at or base) - timedelta(days=rng.randrange(1, 10))
        updated = (merged_at or base) + timedelta(seconds=rng.randrange(0, 60))
        others = [r for r in all_repos if r != repo]
        backport = (rng.choice(others) if others and rng.random() < 0.15 else "")
        return {"number": number, "issue": issue["number"], "how": how, "merged": merged, "merged_at": merged_at,
                "created": created, "updated": updated, "backport": backport,
                "author": f"dev{rng.randrange(20)}", "closed": (base if not merged and not unrelated else None)}

    # -- files
    def write_issue(self, repo: str, spec: dict[str, Any], pulls: list[dict[str, Any]]) -> None:
        p = self.platform
        owner, name = repo.split("/")
        n = spec["number"]
        mine = [pr for pr in pulls if pr["issue"] == n and pr["how"] != "none"]
        labels = [{"id": 1, "name": "bug", "color": "#f00"}]
        if spec["flavour"] == "cve":
            labels.append({"id": 2, "name": "CVE", "color": "#000"})
        state = "closed" if spec["closed"] else "open"
        if p == "github":
            obj = {"id": self._id(), "number": n, "title": spec["title"], "body": "steps to reproduce",
                   "state": state, "state_reason": ("not_planned" if spec["flavour"] == "rejected" else
                                                    "completed") if state == "closed" else None,
                   "user": self.user(spec["author"]), "labels": labels + (
                       [{"name": "task"}] if spec["flavour"] == "internal" else []),
                   "created_at": _t(spec["created"], p), "updated_at": _t(spec["updated"], p),
                   "closed_at": _t(spec["closed"], p) if spec["closed"] else None,
                   "closed_by": self.user("closer") if spec["closed"] else None,
                   "html_url": f"https://github.com/{repo}/issues/{n}", "comments": 0}
        else:
            obj = {"id": self._id(), "number": str(n), "title": spec["title"], "body": "steps to reproduce",
                   "state": state, "user": self.user(spec["author"]), "assignee": None, "labels": labels,
                   "created_at": _t(spec["created"], p), "updated_at": _t(spec["updated"], p),
                   "finished_at": _t(spec["closed"], p, millis=True) if spec["closed"] else "",
                   "issue_state": {"rejected": "已拒绝"}.get(spec["flavour"], "DONE" if spec["closed"] else "TODO"),
                   "issue_type": "任务" if spec["flavour"] == "internal" else "Bug-Report",
                   "html_url": f"https://gitcode.com/{repo}/issues/{n}", "comments": 0,
                   "repository": {"full_name": repo, "path": name, "name": name}}
        comments = []
        for pr in mine:
            if pr["how"] == "comment":
                cite = f"!{pr['number']}" if p == "gitcode" else f"#{pr['number']}"
                comments.append(self.comment(spec, f"修复已合入 {cite}，请验证"))
        if spec["kind"] == "closed" and self.rng.random() < 0.5:
            comments.append(self.comment(spec, "我们正在分析这个问题"))
        obj["comments"] = len(comments)
        self.dump(f"repos/{owner}/{name}/issues/{n}.json", obj)
        if comments:
            self.dump(f"repos/{owner}/{name}/issues/{n}.comments.json", comments)
        events = self.issue_events(repo, spec, mine)
        if events:
            self.dump(f"repos/{owner}/{name}/issues/{n}.events.json", events)
        linked = [pr for pr in mine if pr["how"] == "link"]
        if linked and p == "gitcode":
            self.dump(f"repos/{owner}/{name}/issues/{n}.pulls.json",
                      [self.pull_obj(repo, pr, brief=True) for pr in linked])

    def comment(self, spec: dict[str, Any], body: str) -> dict[str, Any]:
        when = spec["created"] + timedelta(hours=self.rng.randrange(1, 48))
        obj = {"id": self._id(), "body": body, "user": self.user(f"helper{self.rng.randrange(5)}"),
               "created_at": _t(when, self.platform), "updated_at": _t(when, self.platform)}
        if self.platform == "gitcode":
            obj["target"] = {"issue": {"id": 1, "nubmer": str(spec["number"]), "title": spec["title"]}}
        return obj

    def issue_events(self, repo: str, spec: dict[str, Any], mine: list[dict[str, Any]]) -> list[dict[str, Any]]:
        p = self.platform
        out = []
        if p == "gitcode":
            for pr in mine:
                if pr["how"] == "link":
                    out.append({"id": self._id(), "action_type": "add_issue_mr_link",
                                "content": f"Create issue mr links: **fix** #{pr['number']}",
                                "created_at": _t(pr["created"], p), "update_at": _t(pr["created"], p),
                                "issue_id": str(spec["number"] + 4000000), "user": self.user(pr["author"]),
                                "base": {"ref": "master", "repo": {"path": repo.split("/")[1], "name": "x"}}})
            if spec["closed"]:
                out.append({"id": self._id(), "action_type": "closed", "content": "关闭了 Issue",
                            "created_at": _t(spec["closed"], p), "update_at": _t(spec["closed"], p),
                            "issue_id": str(spec["number"] + 4000000), "user": self.user("closer")})
        else:
            for pr in mine:
                if pr["how"] == "link":
                    out.append({"event": "cross-referenced", "created_at": _t(pr["created"], p),
                                "actor": self.user(pr["author"]),
                                "source": {"type": "issue", "issue": {
                                    "number": pr["number"], "pull_request": {"url": "x"},
                                    "repository": {"full_name": repo},
                                    "html_url": f"https://github.com/{repo}/pull/{pr['number']}"}}})
            if spec["closed"]:
                out.append({"id": self._id(), "event": "closed", "created_at": _t(spec["closed"], p),
                            "actor": self.user("closer"), "commit_id": None})
        return out

    def pull_obj(self, repo: str, spec: dict[str, Any], brief: bool = False) -> dict[str, Any]:
        p = self.platform
        owner, name = repo.split("/")
        n, issue = spec["number"], spec["issue"]
        body = {"keyword": f"Fixes #{issue}", "url": f"解决issue：https://gitcode.com/{repo}/issues/{issue}"
                if p == "gitcode" else f"Closes https://github.com/{repo}/issues/{issue}"}.get(spec["how"], "refactor")
        if spec["backport"]:
            link = (f"https://gitcode.com/{spec['backport']}/merge_requests/1001" if p == "gitcode"
                    else f"https://github.com/{spec['backport']}/pull/1")
            body += f"\nsame change as {link}"
        branch = f"bugfix/issue{issue}" if spec["how"] == "branch" else f"feature-{n}"
        merged_at = spec["merged_at"]
        if p == "github":
            obj = {"id": self._id(), "number": n, "title": f"fix something {n}", "body": body,
                   "state": "closed" if (merged_at or spec["closed"]) else "open",
                   "user": self.user(spec["author"]), "created_at": _t(spec["created"], p),
                   "updated_at": _t(spec["updated"], p), "merged_at": _t(merged_at, p) if merged_at else None,
                   "closed_at": _t(merged_at or spec["closed"], p) if (merged_at or spec["closed"]) else None,
                   "head": {"ref": branch, "repo": {"full_name": f"{spec['author']}/{name}"}},
                   "base": {"ref": "main", "repo": {"full_name": repo}}, "merge_commit_sha": f"{n:040x}",
                   "html_url": f"https://github.com/{repo}/pull/{n}", "labels": []}
            return obj
        obj = {"id": self._id(), "number": n, "title": f"fix something {n}", "body": body,
               "state": "merged" if merged_at else ("closed" if spec["closed"] else "open"),
               "html_url": f"https://gitcode.com/{repo}/merge_requests/{n}",
               "created_at": _t(spec["created"], p, millis=brief), "updated_at": _t(spec["updated"], p, millis=brief),
               "head": {"ref": branch, "sha": f"{n:040x}", "repo": {"full_name": f"{spec['author']}/{name}",
                                                                     "path": name, "name": name}},
               "base": {"ref": "master", "repo": {"full_name": repo, "path": name, "name": name}}}
        if merged_at:
            obj["merged_at"] = _t(merged_at, p, millis=brief)
        elif not brief:
            obj["merged_at"] = ""
        if spec["closed"]:
            obj["closed_at"] = _t(spec["closed"], p)
        if not brief:
            obj.update({"user": self.user(spec["author"]), "source_branch": branch, "target_branch": "master",
                        "close_related_issue": 1, "labels": [], "notes": 3})
        return obj

    def write_pull(self, repo: str, spec: dict[str, Any]) -> None:
        p = self.platform
        owner, name = repo.split("/")
        n = spec["number"]
        base = f"repos/{owner}/{name}/pulls/{n}"
        self.dump(f"{base}.json", self.pull_obj(repo, spec))
        patch = "@@ -1 +1 @@\n-old\n+new"
        files = [{"filename": f"src/op_{n}.cc", "status": "modified",
                  "additions": "3" if p == "gitcode" else 3, "deletions": "1" if p == "gitcode" else 1,
                  "patch": {"diff": patch, "new_path": f"src/op_{n}.cc"} if p == "gitcode" else patch}]
        self.dump(f"{base}.files.json", files)
        when = _t(spec["created"], p)
        self.dump(f"{base}.commits.json", [{"sha": f"{n:038x}aa", "commit": {
            "message": f"fix op {n}", "author": {"name": spec["author"], "date": when}}}])
        if p == "gitcode":
            if spec["how"] == "link":
                self.dump(f"{base}.issues.json", [{"id": self._id(), "number": str(spec["issue"]),
                                                   "title": "t", "state": "closed",
                                                   "repository": {"full_name": repo},
                                                   "issue_created_at": when, "issue_updated_at": when}])
            logs = [{"id": self._id(), "action": "opened", "action_type": "opened", "content": "opened",
                     "created_at": when, "updated_at": when, "user": self.user(spec["author"]), "project": repo}]
            if spec["merged_at"]:
                t = _t(spec["merged_at"], p)
                logs.append({"id": self._id(), "action": "merged", "action_type": "merged", "content": "merged",
                             "created_at": t, "updated_at": t, "user": self.user("maintainer"), "project": repo})
            self.dump(f"{base}.events.json", logs)


def write_world(root: str | Path, shape: WorldShape | None = None) -> Path:
    """Write a world of ``shape`` into the folder ``root`` (created if missing) and return it."""
    root = Path(root)
    root.mkdir(parents=True, exist_ok=True)
    _Writer(root, shape or WorldShape()).write()
    return root
