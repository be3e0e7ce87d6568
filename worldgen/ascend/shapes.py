"""GitCode v5 JSON shapes (issue, comment, operate_log, pull, linked items), with the platform's quirks."""
from __future__ import annotations

import hashlib

WEB = "https://gitcode.com"
API = "https://api.gitcode.com/api/v5"


def hexid(*parts, n=24) -> str:
    return hashlib.sha1("\x1f".join(map(str, parts)).encode()).hexdigest()[:n]


def intid(base: int, span: int, *parts) -> int:
    return base + int(hexid(*parts, n=12), 16) % span


def user(login: str) -> dict:
    return {"id": hexid("user", login), "login": login, "name": login,
            "avatar_url": f"https://cdn-img.gitcode.com/{hexid('avatar', login, n=2)}/{hexid('av', login, n=8)}.png",
            "html_url": f"{WEB}/{login}"}


def with_ms(ts: str, *seed) -> str:
    """'2026-09-18T20:10:39+08:00' -> '2026-09-18T20:10:39.123+08:00' (issue->PR items carry milliseconds)."""
    if not ts:
        return ts
    ms = int(hexid("ms", ts, *seed, n=6), 16) % 1000
    return f"{ts[:19]}.{ms:03d}{ts[19:]}"


def repo_obj(meta: dict) -> dict:
    owner, path, name, desc = meta["owner"], meta["path"], meta["name"], meta["description"]
    ns = {"id": intid(100000, 800000, "ns", owner), "name": owner, "path": owner, "type": "group",
          "html_url": f"{WEB}/{owner}"}
    return {
        "id": meta["id"], "full_name": f"{owner}/{path}", "human_name": f"{owner} / {name}",
        "name": name, "path": path, "namespace": ns, "description": desc,
        "html_url": f"{WEB}/{owner}/{path}.git", "default_branch": meta["default_branch"],
        "private": False, "public": True, "internal": False, "fork": False,
        "open_issues_count": meta.get("open_issues_count", 0),
        "created_at": meta["created_at"], "updated_at": meta["updated_at"], "pushed_at": meta["pushed_at"],
        "status": "开始", "repo_type": "code",
        "project_creator": owner.lower() + "-admin",
        "license": "Apache-2.0" if owner == "Ascend" else "CANN Open Software License Agreement Version 2.0",
    }


def repo_ref(meta: dict) -> dict:
    return {"id": meta["id"], "full_name": f"{meta['owner']}/{meta['path']}", "path": meta["path"],
            "name": meta["name"], "description": meta["description"],
            "created_at": meta["created_at"], "updated_at": meta["updated_at"],
            "assigner": None, "paas": None}


def label_obj(name: str, owner: str) -> dict:
    colors = ["#f00f0f", "#0e8a16", "#1d76db", "#fbca04", "#5319e7", "#b60205", "#c5def5", "#006b75"]
    return {"id": intid(1000, 90000, "label", owner, name), "name": name,
            "color": colors[int(hexid("lc", name, n=4), 16) % len(colors)],
            "created_at": "2025-05-19T21:43:45+08:00", "updated_at": "2026-06-24T15:42:38+08:00"}


def issue_obj(meta, iss) -> dict:
    owner, path = meta["owner"], meta["path"]
    st = iss["issue_state"]
    return {
        "id": iss["id"], "number": str(iss["number"]), "state": iss["state"],
        "title": iss["title"], "body": iss["body"],
        "html_url": f"{WEB}/{owner}/{path}/issues/{iss['number']}",
        "url": f"{API}/repos/{owner}/{path}/issues/{iss['number']}",
        "user": user(iss["author"]),
        "assignee": user(iss["assignee"]) if iss.get("assignee") else None,
        "assignees": [user(iss["assignee"])] if iss.get("assignee") else [],
        "labels": [label_obj(x, owner) for x in iss["labels"]],
        "created_at": iss["created_at"], "updated_at": iss["updated_at"],
        "finished_at": iss["finished_at"], "plan_started_at": "", "deadline": "",
        "issue_state": st,
        "issue_state_detail": {"title": st, "serial": iss["state_serial"], "id": intid(200, 400, "state", owner, st)},
        "issue_type": iss["issue_type"],
        "issue_type_detail": {"title": iss["issue_type"], "id": intid(200, 400, "type", owner, iss["issue_type"]), "is_system": False},
        "priority": iss.get("priority", 0),
        "issue_priority_detail": {"id": 1 + iss.get("priority", 0), "title": ["不指定", "不重要", "次要", "主要", "严重"][iss.get("priority", 0)]},
        "comments": iss["n_comments"], "milestone": None,
        "repository": repo_ref(meta), "security_hole": iss.get("security_hole", False),
        "visibility_reason": "public", "custom_fields": [],
    }


def comment_obj(iss, c, idx) -> dict:
    return {"id": intid(160000000, 9000000, "comment", iss["repo"], iss["number"], idx, c[0]),
            "body": c[2], "created_at": c[0], "updated_at": c[0], "user": user(c[1]),
            "target": {"issue": {"id": iss["id"], "number": str(iss["number"]), "title": iss["title"]}}}


def branch_ref(meta, ref, sha, author, fork=True) -> dict:
    owner, path, name = meta["owner"], meta["path"], meta["name"]
    full = f"{author}/{path}" if fork else f"{owner}/{path}"
    return {"label": ref, "ref": ref, "sha": sha, "user": user(author if fork else owner),
            "repo": {"id": meta["id"] if not fork else intid(9000000, 900000, "fork", author, path),
                     "full_name": full, "full_path": full, "human_name": full.replace("/", " / "),
                     "name": name, "path": path, "namespace": {"path": full.split("/")[0]},
                     "html_url": f"{WEB}/{full}", "owner": user(author if fork else owner),
                     "assigner": {"login": author, "name": author}}}


def pr_sha(repo, number, kind):
    return hexid("sha", repo, number, kind, n=40)


def pull_obj(meta, pr, issue_numbers) -> dict:
    owner, path = meta["owner"], meta["path"]
    n = pr.number
    merged_at = pr.merged_iso if pr.state == "merged" else ""
    closed_at = pr.closed_iso if pr.state == "closed" else ""
    return {
        "id": pr.id, "iid": n, "number": n, "state": pr.state, "title": pr.title, "body": pr.body,
        "html_url": f"{WEB}/{owner}/{path}/merge_requests/{n}",
        "url": f"{API}/repos/{owner}/{path}/pulls/{n}",
        "issue_url": f"{API}/repos/{owner}/{path}/pulls/{n}/issues",
        "diff_url": f"{WEB}/{owner}/{path}/merge_requests/{n}.diff",
        "user": user(pr.author),
        "head": branch_ref(meta, pr.branch, pr_sha(pr.repo, n, "head"), pr.author, fork=True),
        "base": branch_ref(meta, pr.base, pr_sha(pr.repo, n, "base"), owner, fork=False),
        "source_branch": pr.branch, "target_branch": pr.base,
        "created_at": pr.created_iso, "updated_at": pr.updated_iso,
        "merged_at": merged_at, "closed_at": closed_at,
        "merged_by": user(pr.merger) if merged_at else None,
        "closed_by": user(pr.closer) if closed_at else None,
        "close_related_issue": 1 if issue_numbers else 0,
        "draft": pr.title.startswith("[WIP]"), "locked": False, "mergeable": pr.state == "open",
        "can_merge_check": False, "notes": 2 + len(pr.comments) + len(pr.commits),
        "labels": [label_obj(x, owner) for x in pr.labels], "assignees": [], "testers": [],
        "approval_reviewers": [],
        "merge_commit_sha": pr_sha(pr.repo, n, "merge") if merged_at else None,
        "diff_refs": {"base_sha": pr_sha(pr.repo, n, "base"), "head_sha": pr_sha(pr.repo, n, "head"),
                      "start_sha": pr_sha(pr.repo, n, "base")},
        "added_lines": sum(f[2] for f in pr.file_stats), "removed_lines": sum(f[3] for f in pr.file_stats),
        "merge_request_type": "MergeRequest",
    }


def linked_pull_item(meta, pr) -> dict:
    """Item of /issues/{n}/pull_requests: ms timestamps; closed PRs have closed_at and no merged_at key; open PRs neither."""
    owner, path = meta["owner"], meta["path"]
    d = {"id": pr.id, "number": pr.number, "state": pr.state, "title": pr.title, "body": pr.body,
         "html_url": f"{WEB}/{owner}/{path}/merge_requests/{pr.number}",
         "diff_url": f"{WEB}/{owner}/{path}/merge_requests/{pr.number}.diff",
         "created_at": with_ms(pr.created_iso, pr.repo, pr.number), "updated_at": with_ms(pr.updated_iso, pr.repo, pr.number)}
    if pr.state == "merged":
        d["merged_at"] = with_ms(pr.merged_iso, pr.repo, pr.number)
        d["closed_at"] = d["merged_at"]
    elif pr.state == "closed":
        d["closed_at"] = with_ms(pr.closed_iso, pr.repo, pr.number)
    d["head"] = {"ref": pr.branch, "sha": pr_sha(pr.repo, pr.number, "head"),
                 "repo": {"path": path, "name": meta["name"], "full_name": f"{pr.author}/{path}"},
                 "assigner": {"login": pr.author, "name": pr.author}}
    d["base"] = {"ref": pr.base, "sha": pr_sha(pr.repo, pr.number, "base"),
                 "repo": {"path": path, "name": meta["name"], "full_name": f"{owner}/{path}"}}
    d.update({"labels": [], "assignees": [], "testers": [], "can_merge_check": False})
    return d


def linked_issue_item(meta, iss) -> dict:
    """Item of /pulls/{n}/issues: string number, issue_created_at / issue_updated_at."""
    owner, path = meta["owner"], meta["path"]
    return {"id": iss["id"], "number": str(iss["number"]), "title": iss["title"], "state": iss["state"],
            "body": iss["body"], "url": f"{API}/repos/{owner}/{path}/issues/{iss['number']}",
            "html_url": f"{WEB}/{owner}/{path}/issues/{iss['number']}",
            "user": {k: v for k, v in user(iss["author"]).items() if k != "avatar_url"},
            "labels": [{k: v for k, v in label_obj(x, owner).items() if k in ("id", "name", "color")} | {"text_color": "#FFFFFF"}
                       for x in iss["labels"]],
            "repository": {"id": meta["id"], "full_name": f"{owner}/{path}", "path": path, "name": meta["name"]},
            "issue_created_at": iss["created_at"], "issue_updated_at": iss["updated_at"]}
