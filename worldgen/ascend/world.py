"""In-memory world: repos, issues, pulls, docs and truth, built from specs; written out as GitCode JSON files."""
from __future__ import annotations

import json
import os
import random
from datetime import datetime, timedelta

import yaml

from . import shapes
from .repos import REPOS
from .spec import PR, Case, T

SINCE = "2026-09-17T00:00:00+08:00"
SNAPSHOT = "2026-09-21T00:00:00+08:00"
ROBOT = {"Ascend": "ascend-robot", "cann": "cann-robot"}

STYLES = {
    "zh": {"open": ["待办的", "进行中"], "resolved": "已解决", "done": "已完成", "closed": "已关闭",
           "rejected": ["已拒绝", "已取消"],
           "types": {"缺陷": "缺陷", "需求": "需求", "咨询": "咨询", "任务": "任务"}},
    "en": {"open": ["TODO", "WIP"], "resolved": "RESOLVED", "done": "DONE", "closed": "CLOSED",
           "rejected": ["REJECTED", "CANCELED"],
           "types": {"缺陷": "Bug-Report", "需求": "Feature", "咨询": "Question", "任务": "Task"}},
}
SERIAL = {"待办的": 1, "TODO": 1, "进行中": 2, "WIP": 2, "已解决": 3, "RESOLVED": 3, "已完成": 4, "DONE": 4,
          "已关闭": 5, "CLOSED": 5, "已拒绝": 6, "REJECTED": 6, "已取消": 7, "CANCELED": 7}
CASE_REPO_STYLE = {"Ascend/msmodeling": "zh", "Ascend/MindSpeed-MM": "en", "Ascend/mind-cluster": "zh",
                   "Ascend/msmodelslim": "zh", "Ascend/MindSpeed-Bridge": "en", "Ascend/MindIE-Motor": "zh",
                   "Ascend/memfabric_hybrid": "en"}


def parse(ts: str) -> datetime:
    return datetime.fromisoformat(ts)


def iso(dt: datetime) -> str:
    return dt.strftime("%Y-%m-%dT%H:%M:%S+08:00")


def shift(ts: str, **kw) -> str:
    return iso(parse(ts) + timedelta(**kw))


def lag_s(close: str, merged: str) -> int:
    return int((parse(close) - parse(merged)).total_seconds())


class PullRec:
    """A pull request as it exists in the world (spec plus computed ids and times)."""

    def __init__(self, spec: PR, pid: int):
        self.spec = spec
        self.id = pid
        self.links: list[int] = list(spec.links)
        self.created_iso = T(spec.created) if len(spec.created) in (14, 19) else spec.created
        self.merged_iso = (T(spec.merged) if len(spec.merged) in (14, 19) else spec.merged) if spec.merged else ""
        self.closed_iso = (T(spec.closed) if len(spec.closed) in (14, 19) else spec.closed) if spec.closed else ""
        self.comments = [(T(c[0]) if len(c[0]) in (14, 19) else c[0], c[1], c[2]) for c in spec.comments]
        last = self.merged_iso or self.closed_iso or self.created_iso
        times = [last] + [c[0] for c in self.comments]
        self.updated_iso = max(times, key=parse)
        if self.state == "open" and self.updated_iso == self.created_iso:
            self.updated_iso = shift(self.created_iso, hours=5, minutes=17)
        self.closer = spec.merger or spec.author
        self.file_stats = []
        for path, diff in spec.files:
            lines = diff.split("\n")
            add = sum(1 for x in lines if x.startswith("+"))
            rem = sum(1 for x in lines if x.startswith("-"))
            status = "added" if diff.startswith("@@ -0,0") else ("removed" if "+0,0 @@" in diff.split("\n")[0] else "modified")
            self.file_stats.append((path, diff, add, rem, status))

    def __getattr__(self, name):
        return getattr(self.spec, name)


class World:
    def __init__(self, seed: int = 20260921):
        self.seed = seed
        self.rng = random.Random(seed)
        self.repos: dict[str, dict] = {}
        self.issues: dict[tuple[str, int], dict] = {}
        self.pulls: dict[tuple[str, int], PullRec] = {}
        self.truth: list[dict] = []
        self.docs: dict[str, str] = {}
        self._issue_id = 4110000
        for i, (owner, path, name, desc) in enumerate(REPOS):
            full = f"{owner}/{path}"
            r = random.Random(f"{seed}:repo:{full}")
            created = datetime(2023, 3, 1, 9, 0, 0) + timedelta(days=r.randint(0, 900), seconds=r.randint(0, 86399))
            self.repos[full] = {
                "owner": owner, "path": path, "name": name, "description": desc,
                "id": 8000000 + i * 1013 + r.randint(0, 999), "default_branch": r.choice(["master", "master", "main"]) if full not in CASE_REPO_STYLE else "master",
                "created_at": iso(created), "updated_at": iso(datetime(2026, 9, 20, 8, 0, 0) + timedelta(seconds=r.randint(0, 50000))),
                "pushed_at": iso(datetime(2026, 9, 19, 8, 0, 0) + timedelta(seconds=r.randint(0, 130000))),
                "style": CASE_REPO_STYLE.get(full, "zh" if r.random() < 0.6 else "en"),
            }

    # ---------------------------------------------------------------- helpers
    def style(self, repo: str) -> dict:
        return STYLES[self.repos[repo]["style"]]

    def robot(self, repo: str) -> str:
        return ROBOT[repo.split("/")[0]]

    def next_issue_id(self) -> int:
        self._issue_id += 1 + self.rng.randint(0, 37)
        return self._issue_id

    def add_pr(self, spec: PR) -> PullRec:
        key = (spec.repo, spec.number)
        if key in self.pulls:
            rec = self.pulls[key]
            for n in spec.links:
                if n not in rec.links:
                    rec.links.append(n)
            return rec
        rec = PullRec(spec, shapes.intid(7900000, 1900000, "pull", spec.repo, spec.number))
        self.pulls[key] = rec
        return rec

    def new_issue(self, repo, number, title, body, author, created, *, closed="", closer="", issue_type="缺陷",
                  labels=(), state_kind="done", assignee="", priority=0, security=False) -> dict:
        """state_kind: done | closed | rejected | resolved | open (issue_state flavour of the repo's workflow)."""
        st = self.style(repo)
        key = (repo, number)
        assert key not in self.issues, key
        if state_kind == "open":
            issue_state = st["open"][number % 2]
        elif state_kind == "rejected":
            issue_state = st["rejected"][number % 2]
        else:
            issue_state = st[state_kind]
        iss = {"repo": repo, "number": number, "id": self.next_issue_id(), "title": title, "body": body,
               "author": author, "assignee": assignee, "labels": list(labels),
               "created_at": created, "updated_at": created, "finished_at": closed,
               "state": "closed" if closed else "open", "issue_state": issue_state,
               "state_serial": SERIAL[issue_state], "issue_type": st["types"].get(issue_type, issue_type),
               "priority": priority, "security_hole": security,
               "comments": [], "events": [], "pulls": [], "closer": closer}
        self.issues[key] = iss
        if labels:
            who = assignee or author
            for j, lab in enumerate(labels):
                self.event(iss, "label", f"添加了标签 {lab}", shift(created, minutes=3 + j, seconds=11 * j), who)
        if closed:
            self.event(iss, "closed", "关闭了 Issue", closed, closer)
        return iss

    def comment(self, iss, when, who, body):
        iss["comments"].append((when, who, body))

    def event(self, iss, action_type, content, when, who, extra=None):
        e = {"action_type": action_type, "content": content, "created_at": when, "user": who}
        if extra:
            e.update(extra)
        iss["events"].append(e)

    def link(self, iss, rec: PullRec, when=None):
        """Platform issue<->PR link (both endpoints and the add_issue_mr_link log entry)."""
        if rec.number not in [p.number for p in iss["pulls"]]:
            iss["pulls"].append(rec)
        if iss["number"] not in rec.links:
            rec.links.append(iss["number"])
        meta = self.repos[rec.repo]
        when = when or shift(rec.created_iso, minutes=2, seconds=rec.number % 50)
        self.event(iss, "add_issue_mr_link", f"Create issue mr links: **{rec.title}** #{rec.number}", when, rec.author, {
            "title": rec.title, "body": rec.body,
            "head": {"ref": rec.branch, "sha": shapes.pr_sha(rec.repo, rec.number, "head"),
                     "repo": {"name": meta["name"], "path": meta["path"]}, "assigner": shapes.user(rec.author)},
            "base": {"ref": rec.base, "sha": shapes.pr_sha(rec.repo, rec.number, "base"),
                     "repo": {"name": meta["name"], "path": meta["path"]}, "assigner": shapes.user(rec.author)}})

    def add_truth(self, iss, funnel, *, drop_reason="", fix=(), evidence=(), timing=None, traps=(), kb=(), theme=""):
        fix = [{"repo": r, "number": n, "role": role} for r, n, role in fix]
        merged = [self.pulls[(f["repo"], f["number"])] for f in fix if (f["repo"], f["number"]) in self.pulls
                  and self.pulls[(f["repo"], f["number"])].state == "merged"]
        close = iss["finished_at"]
        lag = None
        if merged and close:
            lag = min((lag_s(close, p.merged_iso) for p in merged), key=abs)
        if timing is None:
            timing = classify(lag)
        check_timing(iss, timing, lag, list(evidence), fix)
        self.truth.append({"repo": iss["repo"], "number": iss["number"], "funnel": funnel, "drop_reason": drop_reason,
                           "fix": fix, "evidence": list(evidence), "timing": timing, "lag_s": lag,
                           "traps": list(traps), "kb_refs": list(kb), "theme": theme})

    # ---------------------------------------------------------------- cases
    def add_case(self, c: Case):
        repo = c.repo
        closed = T(c.closed) if c.closed else ""
        kind = "closed" if c.bot_close else "done"
        if not c.closed:
            kind = "open"
        labels = c.labels
        iss = self.new_issue(repo, c.number, c.title, c.body, c.author, T(c.created), closed="", closer="",
                             issue_type=c.issue_type, labels=labels, state_kind=kind,
                             assignee=(c.closer if c.closer and c.closer != self.robot(repo) and c.closer != c.author else ""))
        for when, who, body in c.comments:
            self.comment(iss, T(when), who, body)
        for spec in c.prs:
            rec = self.add_pr(spec)
            if c.number in spec.links:
                self.link(iss, rec)
        st = self.style(repo)
        if c.resolved_at:
            self.event(iss, "issue_state", f"将状态从 {st['open'][1]} 修改为 {st['resolved']}", T(c.resolved_at),
                       iss["assignee"] or c.author)
        if c.stale_notice:
            self.comment(iss, T(c.stale_notice), self.robot(repo),
                         f"该 issue 已处于「{st['resolved']}」状态且长时间无更新。如问题已解决无需操作，4 天内无新的更新将由机器人自动关闭；如仍有问题请直接回复。")
        for c_at, c_by, r_at, r_by in c.reopen:
            self.event(iss, "closed", "关闭了 Issue", T(c_at), c_by)
            self.event(iss, "reopened", "重新打开了 Issue", T(r_at), r_by)
        if closed:
            if c.bot_close:
                self.comment(iss, closed, self.robot(repo),
                             f"此 issue 处于「{st['resolved']}」状态 4 天以上且无新的更新，机器人自动关闭。如问题仍存在，请重新打开。")
            self.event(iss, "closed", "关闭了 Issue", closed, c.closer)
            iss["finished_at"] = closed
            iss["state"] = "closed"
            iss["closer"] = c.closer
        self.add_truth(iss, c.funnel, drop_reason=c.drop_reason, fix=c.fix, evidence=c.evidence, timing=c.timing or None,
                       traps=c.traps, kb=c.kb, theme=c.theme)
        return iss

    # ---------------------------------------------------------------- output
    def finalize(self):
        for iss in self.issues.values():
            times = [iss["created_at"]] + [c[0] for c in iss["comments"]] + [e["created_at"] for e in iss["events"]]
            if iss["finished_at"]:
                times.append(iss["finished_at"])
            iss["updated_at"] = max(times, key=parse)
            iss["n_comments"] = len(iss["comments"])
            assert parse(iss["updated_at"]) <= parse(SNAPSHOT), (iss["repo"], iss["number"])
        for meta in self.repos.values():
            meta["open_issues_count"] = 0
        for iss in self.issues.values():
            if iss["state"] == "open":
                self.repos[iss["repo"]]["open_issues_count"] += 1

    def write(self, out: str):
        self.finalize()
        files: dict[str, object] = {}
        world_yaml = (
            "platform: gitcode\n"
            f"snapshot_at: \"{SNAPSHOT}\"\n"
            "orgs: [cann, Ascend]\n"
            "description: Ascend/CANN GitCode increment of September 2026 (issues closed since 2026-09-17, seed digest 16), "
            "generated by worldgen.ascend\n"
            "rank_top_k: 63\n")
        for org in ("cann", "Ascend"):
            files[f"orgs/{org}.json"] = [shapes.repo_obj(m) for k, m in self.repos.items() if m["owner"] == org]
        for full, meta in self.repos.items():
            files[f"repos/{full}/repo.json"] = shapes.repo_obj(meta)
        for (repo, n), iss in self.issues.items():
            meta = self.repos[repo]
            base = f"repos/{repo}/issues/{n}"
            files[base + ".json"] = shapes.issue_obj(meta, iss)
            comments = sorted(iss["comments"], key=lambda c: parse(c[0]))
            if comments:
                files[base + ".comments.json"] = [shapes.comment_obj(iss, c, i) for i, c in enumerate(comments)]
            if iss["events"]:
                files[base + ".events.json"] = self._issue_logs(iss)
            if iss["pulls"]:
                files[base + ".pulls.json"] = [shapes.linked_pull_item(meta, p) for p in iss["pulls"]]
        for (repo, n), pr in self.pulls.items():
            meta = self.repos[repo]
            base = f"repos/{repo}/pulls/{n}"
            linked = [self.issues[(repo, x)] for x in pr.links if (repo, x) in self.issues]
            files[base + ".json"] = shapes.pull_obj(meta, pr, [i["number"] for i in linked])
            if linked:
                files[base + ".issues.json"] = [shapes.linked_issue_item(meta, i) for i in linked]
            if pr.file_stats:
                files[base + ".files.json"] = [self._file(meta, pr, f) for f in pr.file_stats]
            files[base + ".commits.json"] = self._commits(meta, pr)
            files[base + ".events.json"] = self._pr_logs(meta, pr, linked)
            if pr.comments:
                files[base + ".comments.json"] = [
                    {"id": shapes.intid(170000000, 9000000, "prc", repo, n, i), "body": b, "comment_type": "pr_comment",
                     "created_at": t, "updated_at": t, "user": shapes.user(u), "discussion_id": shapes.hexid("disc", repo, n, i, n=40),
                     "resolved": False, "reply": []} for i, (t, u, b) in enumerate(pr.comments)]
        os.makedirs(out, exist_ok=True)
        with open(os.path.join(out, "world.yaml"), "w", encoding="utf-8") as fh:
            fh.write(world_yaml)
        for rel in sorted(files):
            path = os.path.join(out, rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w", encoding="utf-8") as fh:
                fh.write(json.dumps(files[rel], ensure_ascii=False, sort_keys=True, indent=1))
                fh.write("\n")
        for rel in sorted(self.docs):
            path = os.path.join(out, rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w", encoding="utf-8") as fh:
                fh.write(self.docs[rel])
        truth = {"window": {"since": SINCE},
                 "issues": sorted(self.truth, key=lambda e: (e["repo"], e["number"]))}
        with open(os.path.join(out, "truth.yaml"), "w", encoding="utf-8") as fh:
            fh.write("# What a correct run concludes for every issue updated inside the window (generated; do not edit).\n")
            fh.write(yaml.safe_dump(truth, sort_keys=False, allow_unicode=True, default_flow_style=None, width=1000))

    def _issue_logs(self, iss):
        out = []
        for i, e in enumerate(sorted(iss["events"], key=lambda e: (parse(e["created_at"]), e["action_type"]))):
            d = {"id": shapes.intid(230000000, 9000000, "ilog", iss["repo"], iss["number"], i, e["created_at"]),
                 "action_type": e["action_type"], "content": e["content"], "created_at": e["created_at"],
                 "update_at": e["created_at"], "issue_id": str(iss["id"]), "user": shapes.user(e["user"])}
            for k in ("title", "body", "head", "base"):
                if k in e:
                    d[k] = e[k]
            out.append(d)
        # the API does not promise order: keep a stable, shuffled-looking order by id
        return sorted(out, key=lambda d: d["id"])

    def _file(self, meta, pr, f):
        path, diff, add, rem, status = f
        sha = shapes.hexid("blob", pr.repo, pr.number, path, n=40)
        owner, rp = meta["owner"], meta["path"]
        return {"filename": path, "sha": sha, "status": status, "additions": str(add), "deletions": str(rem),
                "blob_url": f"{shapes.WEB}/{owner}/{rp}/blob/{sha}/{path}",
                "raw_url": f"{shapes.WEB}/{owner}/{rp}/raw/{sha}/{path}",
                "patch": {"diff": diff, "new_path": path, "old_path": path, "new_file": status == "added",
                          "deleted_file": status == "removed", "renamed_file": False, "too_large": False,
                          "added_lines": add, "removed_lines": rem}}

    def _commits(self, meta, pr):
        msgs = pr.commits or [pr.title]
        end = pr.merged_iso or pr.closed_iso or pr.updated_iso
        span = max(60, (parse(end) - parse(pr.created_iso)).total_seconds() - 600)
        out, parent = [], shapes.pr_sha(pr.repo, pr.number, "base")
        for i, m in enumerate(msgs):
            when = shift(pr.created_iso, seconds=-1800 + int(span * i / max(1, len(msgs))))
            sha = shapes.hexid("commit", pr.repo, pr.number, i, n=40)
            who = {"name": pr.author, "email": f"{pr.author}@users.noreply.gitcode.com", "date": when}
            out.append({"sha": sha, "html_url": f"{shapes.WEB}/{meta['owner']}/{meta['path']}/commit/{sha}",
                        "commit": {"author": who, "committer": who, "message": m},
                        "author": {"login": pr.author, "name": pr.author}, "committer": {"login": pr.author, "name": pr.author},
                        "parents": {"sha": parent, "shas": [parent]}})
            parent = sha
        return out

    def _pr_logs(self, meta, pr, linked):
        project = f"{meta['owner']}/{meta['path']}"
        rows = [("opened", "opened", "opened merge request", pr.created_iso, pr.author)]
        for iss in linked:
            rows.append(("add_mr_issue_link", "add_mr_issue_link", f"Create mr issue link: **{iss['title']}** #{iss['number']}",
                         shift(pr.created_iso, minutes=2, seconds=pr.number % 50), pr.author))
        for i, (t, u, b) in enumerate(pr.comments):
            rows.append(("discussion", "discussion", "added a comment", t, u))
        if pr.state == "merged":
            rows.append(("merge", "merged", "merged from codehub", pr.merged_iso, pr.merger))
        elif pr.state == "closed":
            rows.append(("closed", "closed", "closed from codehub", pr.closed_iso, pr.closer))
        out = []
        for i, (action, atype, content, t, u) in enumerate(rows):
            out.append({"id": shapes.intid(177000000, 9000000, "plog", pr.repo, pr.number, i), "action": action,
                        "action_type": atype, "content": content, "created_at": t, "updated_at": t,
                        "merge_request_id": pr.id, "discussion_id": shapes.hexid("pd", pr.repo, pr.number, i, n=40),
                        "project": project,
                        "user": {"id": int(shapes.hexid("uid", u, n=7), 16), "login": u, "name": u, "email": "",
                                 "state": "active", "web_url": f"{shapes.WEB}/{u}"}})
        return sorted(out, key=lambda d: (d["created_at"], d["id"]), reverse=True)


def classify(lag):
    if lag is None:
        return "no_fix"
    if lag < -1:
        return "before_merge"
    if abs(lag) <= 1:
        return "same_second"
    if lag <= 180:
        return "auto_close"
    if lag <= 3600:
        return "minutes"
    return "later"


def check_timing(iss, timing, lag, evidence, fix):
    """The generator's own consistency check between stated timing, lag and evidence kinds."""
    where = (iss["repo"], iss["number"])
    if timing in ("same_second", "auto_close", "minutes", "later"):
        assert classify(lag) == timing, (where, timing, lag)
    if timing == "no_fix":
        assert lag is None, where
    if timing == "before_merge":
        assert not fix and lag is None, where
    if timing == "stale":
        assert lag is not None and lag > 3600, where
    auto = lag is not None and 0 <= lag <= 180
    assert ("auto_close" in evidence) == auto, (where, evidence, lag)
    assert ("minutes" in evidence) == (lag is not None and 180 < lag <= 3600), (where, evidence, lag)
