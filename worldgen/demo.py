"""Generate worlds/demo: a small GitCode-flavoured world with every linking situation the pipeline must handle.

    python worldgen/demo.py [OUT_DIR]      (default: worlds/demo next to this folder)

Deterministic: the same script writes the same bytes every time. Orgs, repos, people and
texts are invented. The platform quirks follow reference/gitcode-api.md: string issue
numbers, `finished_at` as the close time, `+08:00` times, `""` for unset times, merged PRs
with `state: "merged"` + `merged_at` and no `merged` key, `/merge_requests/` web URLs.
"""

from __future__ import annotations

import sys
from datetime import datetime
from pathlib import Path

from fixlore.replay.worldwrite import reset_dir, stable_hex, write_json, write_text, write_yaml

SNAPSHOT = "2026-09-21T00:00:00+08:00"
SINCE = "2026-09-17T00:00:00+08:00"
WEB = "https://gitcode.com"
API = "https://api.gitcode.com/api/v5"


def t(stamp: str, ms: int | None = None) -> str:
    """'2026-09-17 10:12:03' -> '2026-09-17T10:12:03+08:00' (with milliseconds when given)."""
    day, clock = stamp.split(" ")
    frac = f".{ms:03d}" if ms is not None else ""
    return f"{day}T{clock}{frac}+08:00"


def _dt(value: str) -> datetime:
    return datetime.fromisoformat(value)


def latest(*values: str) -> str:
    present = [v for v in values if v]
    return max(present, key=_dt)


# ---------------------------------------------------------------- people

PEOPLE = {
    "zhang-wei": "张伟", "li-na": "李娜", "chen-hao": "陈浩", "ops-lee": "ops-lee", "wang-comm": "王通信",
    "sunny-dev": "sunny", "mlops-zhao": "赵明", "kevin_liu": "Kevin Liu", "tianyu": "天宇", "gpu-fan": "gpu-fan",
    "alice-w": "Alice W", "bob_chen": "Bob Chen", "hiker42": "hiker42", "demo-stale-bot": "stale-bot",
    "api-consistency-bot": "API一致性检查", "security-team": "安全响应组",
}


def user(login: str) -> dict:
    return {"id": stable_hex("user", login, length=24), "login": login, "name": PEOPLE[login],
            "avatar_url": f"{WEB}/assets/avatars/{login}.png", "html_url": f"{WEB}/{login}",
            "object_id": stable_hex("obj", login, length=24)}


# ---------------------------------------------------------------- repos

REPOS = [
    # owner, path, display name, description, default branch
    ("demo-ai", "modelkit", "Demo-ModelKit", "模型量化与导出工具链", "master"),
    ("demo-ai", "infer-serve", "InferServe", "大模型推理服务框架", "master"),
    ("demo-infra", "cluster-agent", "ClusterAgent", "集群节点代理：心跳、健康检查与设备上报", "master"),
    ("demo-infra", "commlib", "CommLib", "集合通信库", "master"),
]
ORG_IDS = {"demo-ai": 9100001, "demo-infra": 9100002}


def repo_obj(owner: str, path: str, name: str, desc: str, branch: str, open_count: int, repo_type: str = "code") -> dict:
    rid = stable_int("repo", owner, path)
    return {
        "id": rid, "full_name": f"{owner}/{path}", "human_name": f"{owner} / {name}", "name": name, "path": path,
        "description": desc,
        "namespace": {"id": ORG_IDS[owner], "name": owner, "path": owner, "type": "group", "html_url": f"{WEB}/{owner}"},
        "html_url": f"{WEB}/{owner}/{path}.git", "default_branch": branch,
        "private": False, "public": True, "internal": False, "fork": False,
        "open_issues_count": open_count, "created_at": t("2025-03-10 10:00:00"), "updated_at": t("2026-09-20 18:00:00"),
        "pushed_at": t("2026-09-20 18:00:00"), "status": "开始", "repo_type": repo_type,
        "project_creator": "zhang-wei" if owner == "demo-ai" else "wang-comm",
    }


def stable_int(*parts: object) -> int:
    return 1000000 + int(stable_hex(*parts, length=10), 16) % 9000000


def repo_ref(full: str) -> dict:
    owner, path = full.split("/")
    name = next(r[2] for r in REPOS if r[0] == owner and r[1] == path)
    return {"id": stable_int("repo", owner, path), "full_name": full, "path": path, "name": name}


# ---------------------------------------------------------------- builders

class World:
    def __init__(self) -> None:
        self.issues: dict[tuple[str, int], dict] = {}
        self.issue_files: dict[tuple[str, int, str], list] = {}
        self.pulls: dict[tuple[str, int], dict] = {}
        self.pull_files: dict[tuple[str, int, str], list] = {}
        self.truth: list[dict] = []
        self._event_id = 170000000
        self._comment_id = 150000000

    def _next_event(self) -> int:
        self._event_id += 7
        return self._event_id

    def _next_comment(self) -> int:
        self._comment_id += 13
        return self._comment_id

    # ---- pulls

    def pull(self, repo: str, n: int, title: str, body: str, author: str, created: str, head: str, *,
             base: str = "master", merged: str = "", closed: str = "", merged_by: str = "", closed_by: str = "",
             fork: bool = False,
             close_related: int = 0, files: list[tuple[str, str]] = (), comments: list[tuple[str, str, str]] = (),
             updated: str = "") -> dict:
        owner, path = repo.split("/")
        state = "merged" if merged else ("closed" if closed else "open")
        head_repo = dict(repo_ref(repo), full_name=f"{author}/{path}") if fork else repo_ref(repo)
        head_sha = stable_hex("head", repo, n)
        pid = stable_int("pull", repo, n)
        updated = updated or latest(created, merged, closed, *[c[1] for c in comments])
        obj = {
            "id": pid, "iid": n, "number": n, "state": state, "title": title, "body": body,
            "html_url": f"{WEB}/{repo}/merge_requests/{n}", "url": f"{API}/repos/{repo}/pulls/{n}",
            "issue_url": f"{API}/repos/{repo}/pulls/{n}/issues",
            "diff_url": f"{WEB}/{repo}/merge_requests/{n}.diff",
            "user": user(author),
            "head": {"label": head, "ref": head, "sha": head_sha, "user": user(author), "repo": head_repo},
            "base": {"label": base, "ref": base, "sha": stable_hex("base", repo, n), "user": user(author), "repo": repo_ref(repo)},
            "source_branch": head, "target_branch": base,
            "created_at": created, "updated_at": updated, "merged_at": merged, "closed_at": closed,
            "merged_by": user(merged_by) if merged_by else None,
            "close_related_issue": close_related, "draft": False, "locked": False, "mergeable": state == "open",
            "notes": len(comments), "labels": [], "assignees": [], "testers": [],
        }
        self.pulls[(repo, n)] = obj
        if files:
            self.pull_files[(repo, n, "files")] = [_file(repo, head_sha, name, patch) for name, patch in files]
        message = f"{title}\n\n{body}".strip()
        self.pull_files[(repo, n, "commits")] = [{
            "sha": head_sha, "html_url": f"{WEB}/{repo}/commit/{head_sha}",
            "commit": {"author": {"name": PEOPLE[author], "email": f"{author}@example.com", "date": created},
                       "committer": {"name": PEOPLE[author], "email": f"{author}@example.com", "date": created},
                       "message": message},
            "author": {"login": author, "name": PEOPLE[author]}, "committer": {"login": author, "name": PEOPLE[author]},
            "parents": {"sha": obj["base"]["sha"], "shas": [obj["base"]["sha"]]},
        }]
        if comments:
            self.pull_files[(repo, n, "comments")] = [{
                "id": self._next_comment(), "body": text, "comment_type": "pr_comment", "created_at": when,
                "updated_at": when, "user": user(who), "discussion_id": stable_hex("disc", repo, n, when),
                "resolved": False, "reply": [],
            } for who, when, text in comments]
        logs = [self._pr_log(repo, pid, "opened", author, created, "opened")]
        if closed and not merged:
            logs.append(self._pr_log(repo, pid, "closed", closed_by or author, closed, "closed from codehub"))
        self.pull_files[(repo, n, "events")] = logs
        return obj

    def _pr_log(self, repo: str, pid: int, action: str, who: str, when: str, content: str) -> dict:
        return {"id": self._next_event(), "action": action, "action_type": action, "content": content,
                "merge_request_id": pid, "project": repo, "created_at": when, "updated_at": when,
                "discussion_id": stable_hex("log", repo, pid, when, action),
                "user": {"id": stable_hex("user", who, length=24), "login": who, "name": PEOPLE[who],
                         "state": "active", "web_url": f"{WEB}/{who}"}}

    # ---- issues

    def issue(self, repo: str, n: int, title: str, body: str, author: str, created: str, *,
              closed: str = "", closed_by: str = "", comments: list[tuple[str, str, str]] = (),
              labels: tuple[str, ...] = (), issue_type: str = "Bug-Report", issue_state: str = "",
              reopened: list[tuple[str, str, str]] = (), linked: list[tuple[int, str, str]] = (),
              extra_logs: list[dict] = (), truth: dict | None = None) -> dict:
        """closed: final close time (finished_at). reopened: earlier (closed_at, reopened_at, by) cycles.
        linked: platform links (pr number, linked_at, by)."""
        iid = stable_int("issue", repo, n)
        logs: list[dict] = []
        for prev_close, reopen_at, who in reopened:
            logs.append(self._issue_log(iid, "closed", who, prev_close, "关闭了 Issue"))
            logs.append(self._issue_log(iid, "reopened", who, reopen_at, "重新打开了 Issue"))
        for pr_n, when, who in linked:
            pr = self.pulls[(repo, pr_n)]
            entry = self._issue_log(iid, "add_issue_mr_link", who, when, f"Create issue mr links: **{pr['title']}** #{pr_n}")
            entry.update({"title": pr["title"], "body": pr["body"],
                          "head": {"ref": pr["head"]["ref"], "sha": pr["head"]["sha"],
                                   "repo": {"name": pr["head"]["repo"]["name"], "path": pr["head"]["repo"]["path"]},
                                   "assigner": {"login": pr["user"]["login"], "name": pr["user"]["name"]}},
                          "base": {"ref": pr["base"]["ref"], "sha": pr["base"]["sha"],
                                   "repo": {"name": pr["base"]["repo"]["name"], "path": pr["base"]["repo"]["path"]}}})
            logs.append(entry)
            self._link_pull_side(repo, pr_n, n, title, when, who)
        logs.extend(extra_logs)
        if closed:
            logs.append(self._issue_log(iid, "closed", closed_by, closed, "关闭了 Issue"))
        label_objs = [{"id": stable_int("label", repo, name) % 100000, "name": name, "color": "#d73a4a",
                       "created_at": t("2025-05-19 21:43:45"), "updated_at": t("2026-06-24 15:42:38")} for name in labels]
        comment_objs = [{
            "id": self._next_comment(), "body": text, "created_at": when, "updated_at": when, "user": user(who),
            "target": {"issue": {"id": iid, "number": str(n), "title": title}},
        } for who, when, text in comments]
        times = [created, closed, *[c[1] for c in comments], *[l["created_at"] for l in logs]]
        state = "closed" if closed else "open"
        done = issue_state or ("DONE" if closed else "TODO")
        obj = {
            "id": iid, "number": str(n), "state": state, "title": title, "body": body,
            "html_url": f"{WEB}/{repo}/issues/{n}", "url": f"{API}/repos/{repo}/issues/{n}",
            "user": user(author), "assignee": None, "assignees": [], "labels": label_objs,
            "created_at": created, "updated_at": latest(*times), "finished_at": closed,
            "plan_started_at": "", "deadline": "",
            "issue_state": done, "issue_state_detail": {"title": done, "serial": {"TODO": 1, "DONE": 3}.get(done, 4),
                                                        "id": stable_int("state", done) % 1000},
            "issue_type": issue_type,
            "issue_type_detail": {"title": issue_type, "id": 238 if issue_type == "Bug-Report" else 241, "is_system": False},
            "comments": len(comment_objs), "priority": 0, "milestone": None,
            "repository": repo_ref(repo), "visibility_reason": "public",
            "custom_fields": [{"field_name": "影响版本", "field_type": "text", "field_values": [], "field_visibility": True}],
        }
        self.issues[(repo, n)] = obj
        if comment_objs:
            self.issue_files[(repo, n, "comments")] = comment_objs
        if logs:
            self.issue_files[(repo, n, "events")] = logs
        if linked:
            self.issue_files[(repo, n, "pulls")] = [self._issue_pull_item(repo, pr_n) for pr_n, _, _ in linked]
        if truth is not None:
            self.truth.append(self._truth(repo, n, truth))
        return obj

    def _issue_log(self, iid: int, action: str, who: str, when: str, content: str) -> dict:
        return {"id": self._next_event(), "action_type": action, "content": content, "created_at": when,
                "update_at": when, "issue_id": str(iid), "user": user(who)}

    def _issue_pull_item(self, repo: str, n: int) -> dict:
        pr = self.pulls[(repo, n)]
        item = {"id": pr["id"], "number": n, "state": pr["state"], "title": pr["title"], "body": pr["body"],
                "html_url": pr["html_url"], "diff_url": pr["diff_url"],
                "created_at": _with_ms(pr["created_at"], 120), "updated_at": _with_ms(pr["updated_at"], 4)}
        if pr["state"] == "merged":
            item["merged_at"] = _with_ms(pr["merged_at"], 731)
        if pr["state"] == "closed":
            item["closed_at"] = _with_ms(pr["closed_at"], 512)
        item.update({
            "head": {"ref": pr["head"]["ref"], "sha": pr["head"]["sha"], "repo": pr["head"]["repo"],
                     "assigner": {"login": pr["user"]["login"], "name": pr["user"]["name"]}},
            "base": {"ref": pr["base"]["ref"], "sha": pr["base"]["sha"], "repo": pr["base"]["repo"]},
            "labels": [], "assignees": [], "testers": [], "can_merge_check": False,
        })
        return item

    def _link_pull_side(self, repo: str, pr_n: int, issue_n: int, issue_title: str, when: str, who: str) -> None:
        pr = self.pulls[(repo, pr_n)]
        self.pull_files[(repo, pr_n, "events")].append(
            self._pr_log(repo, pr["id"], "add_mr_issue_link", who, when, f"Create mr issue link: **{issue_title}** #{issue_n}"))
        self.pull_files.setdefault((repo, pr_n, "issues"), [])

    def finish_links(self) -> None:
        """Fill /pulls/{n}/issues from the issues now that their final state is known."""
        for (repo, pr_n, kind), items in self.pull_files.items():
            if kind != "issues":
                continue
            items.clear()
            for (r, n), issue in sorted(self.issues.items(), key=lambda kv: int(kv[0][1])):
                if r != repo:
                    continue
                linked = [p["number"] for p in self.issue_files.get((r, n, "pulls"), [])]
                if pr_n in linked:
                    items.append({"id": issue["id"], "number": issue["number"], "title": issue["title"],
                                  "state": issue["state"], "body": issue["body"], "url": issue["url"],
                                  "html_url": issue["html_url"], "user": issue["user"],
                                  "labels": [{k: l[k] for k in ("id", "name", "color")} | {"text_color": "#FFFFFF"}
                                             for l in issue["labels"]],
                                  "repository": {"full_name": repo, "path": repo.split("/")[1]},
                                  "issue_created_at": issue["created_at"], "issue_updated_at": issue["updated_at"]})

    def _truth(self, repo: str, n: int, spec: dict) -> dict:
        fix = [{"repo": r, "number": num, "role": role} for r, num, role in spec.get("fix", [])]
        closed = self.issues[(repo, n)]["finished_at"]
        lag = None
        main = [f for f in fix if f["role"] == "fix"]
        if main and spec.get("timing") not in ("no_fix", "before_merge") and closed:
            merged = self.pulls[(main[0]["repo"], main[0]["number"])]["merged_at"]
            lag = int((_dt(closed) - _dt(merged)).total_seconds())
        return {
            "repo": repo, "number": n, "funnel": spec["funnel"], "drop_reason": spec.get("drop_reason", ""),
            "fix": fix, "evidence": list(spec.get("evidence", [])), "timing": spec.get("timing", "no_fix"),
            "lag_s": lag, "traps": list(spec.get("traps", [])), "kb_refs": list(spec.get("kb_refs", [])),
            "theme": spec.get("theme", ""),
        }


def _with_ms(stamp: str, ms: int) -> str:
    return stamp.replace("+08:00", f".{ms:03d}+08:00") if stamp else stamp


def _file(repo: str, sha: str, name: str, patch: str) -> dict:
    added = sum(1 for l in patch.splitlines() if l.startswith("+") and not l.startswith("+++"))
    removed = sum(1 for l in patch.splitlines() if l.startswith("-") and not l.startswith("---"))
    return {
        "sha": stable_hex("blob", repo, name, sha), "filename": name, "status": "modified",
        "additions": str(added), "deletions": str(removed),
        "blob_url": f"{WEB}/{repo}/blob/{sha}/{name}", "raw_url": f"{WEB}/{repo}/raw/{sha}/{name}",
        "patch": {"diff": patch, "new_path": name, "old_path": name, "new_file": False, "deleted_file": False,
                  "renamed_file": False, "too_large": False, "added_lines": added, "removed_lines": removed},
    }


# ---------------------------------------------------------------- the cases

MK, IS, CA, CL = "demo-ai/modelkit", "demo-ai/infer-serve", "demo-infra/cluster-agent", "demo-infra/commlib"
KB_QUANT = "docs/demo-ai/modelkit/docs/quantization.md"
KB_ONNX = "docs/demo-ai/modelkit/src/modelkit/export/onnx_export.py"
KB_PREFIX = "docs/demo-ai/infer-serve/docs/prefix_cache.md"
KB_STREAM = "docs/demo-ai/infer-serve/docs/streaming.md"
KB_API = "docs/demo-ai/infer-serve/docs/api_reference.md"
KB_HEART = "docs/demo-infra/cluster-agent/docs/heartbeat.md"
KB_DEPLOY = "docs/demo-infra/cluster-agent/docs/deploy.md"
KB_ALLREDUCE = "docs/demo-infra/commlib/docs/allreduce_tuning.md"
KB_RING = "docs/demo-infra/commlib/src/ring_allreduce.cc"


def build() -> World:
    w = World()
    modelkit(w)
    infer_serve(w)
    cluster_agent(w)
    commlib(w)
    w.finish_links()
    return w


def modelkit(w: World) -> None:
    # Older history, wholly outside the window.
    w.pull(MK, 190, "量化配置说明补充 calib_samples 字段", "补充文档。关联 #95", "zhang-wei", t("2026-08-01 10:00:00"),
           "docs-calib-samples", merged=t("2026-08-02 09:30:00"), merged_by="zhang-wei",
           files=[("docs/quantization.md", "@@ -40,3 +40,5 @@\n ## 配置项\n+- `calib_samples`：校准样本条数，默认 128。\n+  样本过少时 scale 估计不稳定。\n")])
    w.issue(MK, 95, "量化配置文件字段说明不清晰", "calib_samples 这个字段在文档里没有说明，默认值是多少？", "alice-w",
            t("2026-07-20 09:12:40"), closed=t("2026-08-02 09:31:10"), closed_by="zhang-wei",
            comments=[("zhang-wei", t("2026-08-01 10:05:00"), "文档已补充，见 !190。")], labels=("documentation",))
    w.issue(MK, 96, "导出 OM 模型时 ATC 报错 E10001", "执行 modelkit export --format om 时报 `E10001: Value [--input_shape] is invalid`，"
            "模型是 Qwen2-7B。", "mlops-zhao", t("2026-07-28 15:20:00"), closed=t("2026-08-10 11:00:00"), closed_by="zhang-wei",
            comments=[("zhang-wei", t("2026-07-29 10:00:00"), "input_shape 需要写成 `input_ids:1,-1`，动态维用 -1。"),
                      ("mlops-zhao", t("2026-08-09 18:00:00"), "改完可以了，谢谢。")])
    w.issue(MK, 97, "Llama3 量化后推理输出乱码", "W8A8 量化 Llama3-8B 后推理输出全是重复 token。", "gpu-fan",
            t("2026-08-05 11:00:00"), closed=t("2026-08-21 16:40:00"), closed_by="zhang-wei",
            comments=[("zhang-wei", t("2026-08-06 09:30:00"), "需要把 lm_head 排除出量化范围（exclude_layers: [lm_head]），2.1.0 起默认排除。")])

    # 101: keyword "Closes #101" + same-second auto-close.
    w.pull(MK, 201, "fix(quant): 全零通道校准时 scale 除零产生 NaN",
           "Closes #101\n\n校准统计 max-min 为 0 时加 eps 下限；全零通道回退到 scale=1，zero_point=0。\n\n自测：Qwen2-7B W8A8 校准无 NaN，精度与修改前一致。",
           "zhang-wei", t("2026-09-16 20:11:40"), "fix-zero-channel-scale", merged=t("2026-09-17 10:12:03"),
           merged_by="zhang-wei", close_related=1,
           files=[("modelkit/quant/calibrate.py",
                   "@@ -88,7 +88,10 @@ def per_channel_scale(x_min, x_max, bits=8):\n"
                   "     qmax = 2 ** (bits - 1) - 1\n"
                   "-    scale = (x_max - x_min) / (2 * qmax)\n"
                   "+    span = x_max - x_min\n"
                   "+    # all-zero channels: keep a neutral scale instead of dividing by zero\n"
                   "+    span = np.where(span > 0, span, 2 * qmax)\n"
                   "+    scale = np.maximum(span / (2 * qmax), EPS)\n"
                   "     return scale\n")])
    w.issue(MK, 101, "[Bug] W8A8 量化校准时 per-channel scale 出现 NaN",
            "**环境**：modelkit 2.1.1，CANN 8.1，Python 3.10\n\n**复现步骤**：\n1. 使用 `modelkit quantize --w-bits 8 --a-bits 8 --per-channel` 量化 Qwen2-7B\n"
            "2. 校准集 128 条\n\n**现象**：导出的量化权重中部分通道 scale 为 NaN，推理结果全部为 NaN。\n\n"
            "**日志**：\n```\nWARNING calibrate.py:91 invalid value encountered in divide\n```",
            "sunny-dev", t("2026-09-16 14:20:11"), closed=t("2026-09-17 10:12:03"), closed_by="zhang-wei",
            comments=[("zhang-wei", t("2026-09-16 18:02:37"), "复现了，校准集里有全零通道时 max-min 为 0，除零得到 NaN。修复 PR 马上提。"),
                      ("sunny-dev", t("2026-09-16 18:30:02"), "收到，感谢！")],
            labels=("bug",),
            truth=dict(funnel="selected", fix=[(MK, 201, "fix")], evidence=["keyword", "auto_close"],
                       timing="same_second", kb_refs=[KB_QUANT], theme="quant-calibration"))

    # 102: the fix is found only through the issue URL in the PR body; closed by hand days later after a reopen.
    w.pull(MK, 203, "导出 ONNX 时保留 dynamic_axes 中的 batch 维",
           "解决issue：https://gitcode.com/demo-ai/modelkit/issues/102\n\n原因：导出前对 dummy input 做了一次 trace，"
           "常量折叠把 batch 维写死成 1。改为导出时显式传入 dynamic_axes，并关闭该维度上的常量折叠。",
           "tianyu", t("2026-09-17 11:20:09"), "onnx-dynamic-batch", fork=True, merged=t("2026-09-17 15:02:44"),
           merged_by="zhang-wei",
           files=[("modelkit/export/onnx_export.py",
                   "@@ -31,6 +31,8 @@ def export_onnx(model, sample, path, dynamic_batch=True):\n"
                   "-    torch.onnx.export(model, sample, path, do_constant_folding=True)\n"
                   "+    axes = {\"input_ids\": {0: \"batch\", 1: \"seq\"}} if dynamic_batch else None\n"
                   "+    torch.onnx.export(model, sample, path, dynamic_axes=axes,\n"
                   "+                      do_constant_folding=not dynamic_batch)\n")])
    w.issue(MK, 102, "导出 ONNX 时动态 batch 维被固定为 1",
            "使用 `modelkit export --format onnx --dynamic-batch` 导出后，用 onnxruntime 加载并输入 batch=4 报错：\n"
            "```\nGot invalid dimensions for input: input_ids for the following indices index: 0 Got: 4 Expected: 1\n```\n"
            "看了下导出的模型，input_ids 的第 0 维是常量 1。",
            "kevin_liu", t("2026-09-15 09:30:45"), closed=t("2026-09-19 10:30:12"), closed_by="kevin_liu",
            reopened=[(t("2026-09-16 20:00:00"), t("2026-09-17 09:05:31"), "kevin_liu")],
            comments=[("zhang-wei", t("2026-09-16 10:15:00"), "可以先用 onnxsim 之前的原始导出结果规避，我们看一下导出逻辑。"),
                      ("kevin_liu", t("2026-09-16 19:58:20"), "好的，先关闭。"),
                      ("kevin_liu", t("2026-09-17 09:05:31"), "升级到 2.1.1 之后还是能复现，重新打开。"),
                      ("zhang-wei", t("2026-09-19 09:40:00"), "已在 master 修复，请拉最新代码验证。"),
                      ("kevin_liu", t("2026-09-19 10:29:50"), "验证通过，batch=4/8 都正常，关闭。")],
            labels=("bug",),
            truth=dict(funnel="selected", fix=[(MK, 203, "fix")], evidence=["keyword"], timing="later",
                       kb_refs=[KB_ONNX], theme="onnx-export"))

    # 104: master fix with keyword + same-second close, then a release-branch backport (cherry-pick).
    w.pull(MK, 205, "修复 #104：tie_word_embeddings 模型加载缺失 lm_head.weight",
           "修复 #104\n\ntie_word_embeddings 为 true 的模型（如 Qwen3-0.6B/1.7B）safetensors 中不单独保存 lm_head.weight，"
           "加载时改为从 embed_tokens.weight 复制。",
           "zhang-wei", t("2026-09-17 16:45:10"), "fix-tied-lm-head", merged=t("2026-09-18 14:00:00"),
           merged_by="zhang-wei", close_related=1,
           files=[("modelkit/loader/safetensors_loader.py",
                   "@@ -120,6 +120,9 @@ def load_state_dict(shards, config):\n"
                   "     state = merge_shards(shards)\n"
                   "+    if config.get(\"tie_word_embeddings\") and \"lm_head.weight\" not in state:\n"
                   "+        state[\"lm_head.weight\"] = state[\"model.embed_tokens.weight\"]\n"
                   "     return state\n")])
    w.pull(MK, 207, "[release/2.1] 修复 tie_word_embeddings 模型加载缺失 lm_head.weight",
           f"cherry-pick from !205 到 release/2.1\n\n(cherry picked from commit {stable_hex('head', MK, 205)})",
           "zhang-wei", t("2026-09-18 15:10:00"), "cp-205-release-2.1", base="release/2.1",
           merged=t("2026-09-18 16:30:27"), merged_by="zhang-wei",
           files=[("modelkit/loader/safetensors_loader.py",
                   "@@ -112,6 +112,9 @@ def load_state_dict(shards, config):\n"
                   "     state = merge_shards(shards)\n"
                   "+    if config.get(\"tie_word_embeddings\") and \"lm_head.weight\" not in state:\n"
                   "+        state[\"lm_head.weight\"] = state[\"model.embed_tokens.weight\"]\n"
                   "     return state\n")])
    w.issue(MK, 104, "Qwen3 模型加载 safetensors 分片时报 KeyError: 'lm_head.weight'",
            "modelkit 2.1.1 量化 Qwen3-1.7B：\n```\nFile \"modelkit/loader/safetensors_loader.py\", line 131, in build_model\n"
            "KeyError: 'lm_head.weight'\n```\nQwen2 系列正常。",
            "mlops-zhao", t("2026-09-17 11:40:22"), closed=t("2026-09-18 14:00:01"), closed_by="zhang-wei",
            comments=[("zhang-wei", t("2026-09-17 15:10:00"), "tie_word_embeddings=True 的模型不单独存 lm_head 权重，加载逻辑没处理，已定位。"),
                      ("mlops-zhao", t("2026-09-18 17:02:00"), "2.1 分支也会修吗？我们线上用的是 2.1.1。"),
                      ("zhang-wei", t("2026-09-18 17:10:45"), "已 backport 到 release/2.1（!207），2.1.2 会带上。")],
            labels=("bug",),
            truth=dict(funnel="selected", fix=[(MK, 205, "fix"), (MK, 207, "backport")],
                       evidence=["keyword", "auto_close", "backport", "comment"], timing="same_second",
                       theme="model-loading"))

    # 106: closed as resolved, but the fix PR is still open.
    w.pull(MK, 210, "W4A16 GPTQ act-order 在 group_size=128 下未生效", "Fixes #106\n\nact_order 与 group_size 同时开启时，"
           "重排后的列索引没有传给分组逻辑，导致按原顺序分组。", "zhang-wei", t("2026-09-16 10:40:00"), "fix-gptq-act-order",
           comments=[("sunny-dev", t("2026-09-18 09:10:00"), "用这个分支验证过，MMLU 恢复到 -0.4。")], updated=t("2026-09-19 11:00:00"),
           files=[("modelkit/quant/gptq.py", "@@ -210,7 +210,7 @@ def quantize_layer(w, h, group_size, act_order):\n"
                   "-        groups = make_groups(range(cols), group_size)\n"
                   "+        groups = make_groups(perm if act_order else range(cols), group_size)\n")])
    w.issue(MK, 106, "W4A16 量化后 MMLU 精度下降约 3 个点",
            "Qwen2-7B 使用 GPTQ W4A16（group_size=128, act_order=True）量化后，MMLU 从 70.3 掉到 67.1。"
            "关闭 act_order 后只掉 0.5。请问是否是已知问题？",
            "sunny-dev", t("2026-09-15 16:00:00"), closed=t("2026-09-19 17:31:05"), closed_by="zhang-wei",
            comments=[("zhang-wei", t("2026-09-16 11:00:00"), "group_size=128 时 act_order 的重排没有生效，修复 PR !210 在检视中。"),
                      ("sunny-dev", t("2026-09-18 09:12:00"), "用 !210 的分支验证了，精度恢复到 -0.4。"),
                      ("zhang-wei", t("2026-09-19 17:30:00"), "问题已定位并有方案，先关闭，合入后版本说明会体现。")],
            labels=("bug", "quantization"),
            truth=dict(funnel="analysis", drop_reason="fix_pending", traps=["fix_not_landed"], theme="quant-accuracy"))

    # Unrelated merged PR inside the window (no issue).
    w.pull(MK, 208, "docs: 更新 2.1.2 发布说明", "补充 2.1.2 修复列表。", "zhang-wei", t("2026-09-18 17:30:00"),
           "docs-release-2.1.2", merged=t("2026-09-18 18:00:00"), merged_by="zhang-wei",
           files=[("docs/release_notes.md", "@@ -1,3 +1,6 @@\n # 发布说明\n+## 2.1.2\n+- 修复 tie_word_embeddings 模型加载问题\n+- 修复全零通道 scale NaN\n")])

    w.issue(MK, 109, "希望支持直接导入 GPTQ 格式的 checkpoint",
            "目前只能从 HF 原始权重开始量化，社区很多模型已经有 GPTQ 权重，希望能直接导入并导出 OM。", "gpu-fan",
            t("2026-09-18 20:00:00"), comments=[("zhang-wei", t("2026-09-19 10:00:00"), "已列入 2.2 规划。")],
            labels=("feature",), issue_type="需求",
            truth=dict(funnel="window", theme="gptq-import"))
    w.issue(MK, 110, "", "运行 modelkit export 报错 segfault，日志见附件。", "hiker42", t("2026-09-17 13:00:00"),
            closed=t("2026-09-18 10:00:00"), closed_by="zhang-wei",
            comments=[("zhang-wei", t("2026-09-18 09:59:00"), "请补充标题、版本和复现步骤后重新提交，先关闭。")],
            truth=dict(funnel="empty_title"))
    w.issue(MK, 111, "README 安装命令少了 -e", "pip install . 应为 pip install -e .", "alice-w",
            t("2026-09-18 08:00:00"), closed=t("2026-09-18 08:40:00"), closed_by="alice-w", labels=("documentation",),
            truth=dict(funnel="rank", theme="docs-typo"))
    w.issue(MK, 112, "希望支持 Windows 原生运行", "公司开发机是 Windows，希望不依赖 WSL 直接运行量化。", "bob_chen",
            t("2026-09-10 09:00:00"), closed=t("2026-09-17 16:20:00"), closed_by="zhang-wei", issue_state="REJECTED",
            comments=[("zhang-wei", t("2026-09-17 16:19:00"), "当前依赖 CANN 工具链，仅支持 Linux，暂不计划支持。")],
            labels=("wontfix",), issue_type="需求",
            truth=dict(funnel="unresolved"))
    w.issue(MK, 113, "【检视意见】!205 加载逻辑补充单元测试", "检视 !205 时发现缺少 tie_word_embeddings 的单测，补充用例。",
            "zhang-wei", t("2026-09-18 14:30:00"), closed=t("2026-09-19 09:00:00"), closed_by="zhang-wei",
            issue_type="任务",
            truth=dict(funnel="internal"))


def infer_serve(w: World) -> None:
    w.issue(IS, 20, "支持 OpenAI 兼容的 /v1/models 接口", "很多客户端启动时会先调 /v1/models。", "kevin_liu",
            t("2026-07-02 10:00:00"), closed=t("2026-07-30 15:00:00"), closed_by="li-na", issue_type="需求",
            comments=[("li-na", t("2026-07-30 14:58:00"), "1.3.0 已支持。")])
    w.issue(IS, 21, "日志中打印了完整请求体", "INFO 级别日志里有完整 prompt，存在泄露风险。", "alice-w",
            t("2026-08-03 09:00:00"), closed=t("2026-08-12 10:00:00"), closed_by="li-na",
            comments=[("li-na", t("2026-08-12 09:59:00"), "1.3.1 起请求体只在 DEBUG 级别打印。")])
    w.issue(IS, 22, "Docker 镜像启动缺少 libgomp.so.1", "使用官方镜像 1.3.1 启动报 libgomp.so.1: cannot open shared object file。",
            "mlops-zhao", t("2026-08-15 11:00:00"), closed=t("2026-08-20 17:00:00"), closed_by="li-na")

    w.issue(IS, 30, "多卡部署时 /health 接口偶发超时", "4 卡部署，压测期间 /health 偶发 5s 超时，导致 k8s 探针重启 Pod。",
            "mlops-zhao", t("2026-09-19 10:00:00"), labels=("bug",),
            truth=dict(funnel="window", theme="health-probe"))

    # 31 + 32: one platform-linked PR fixes both; auto-close about a minute after the merge.
    w.pull(IS, 57, "请求参数校验：拒绝空 prompt 与空 stop 字符串",
           "在 API 层增加参数校验，非法参数返回 400，不再进入引擎。\n\n- prompt 为空字符串或 token 数为 0 时返回 400\n- stop 中的空字符串返回 400",
           "li-na", t("2026-09-17 09:40:00"), "param-validation", merged=t("2026-09-18 10:00:00"), merged_by="li-na",
           close_related=1,
           files=[("infer_serve/api/validate.py",
                   "@@ -12,6 +12,12 @@ def validate_completion(req):\n"
                   "+    if not req.prompt or not tokenizer.encode(req.prompt):\n"
                   "+        raise BadRequest(\"prompt must not be empty\")\n"
                   "+    if req.stop and any(s == \"\" for s in req.stop):\n"
                   "+        raise BadRequest(\"stop must not contain empty strings\")\n")])
    w.issue(IS, 31, "批量请求中包含空 prompt 时服务进程崩溃",
            "batch 请求里有一条 prompt 为 \"\" 时整个服务退出：\n```\nIndexError: list index out of range\n  File \"scheduler.py\", line 214, in allocate_blocks\n```",
            "kevin_liu", t("2026-09-16 09:20:00"), closed=t("2026-09-18 10:00:55"), closed_by="li-na",
            comments=[("li-na", t("2026-09-16 15:00:00"), "已复现，空 prompt 编码后长度为 0，调度器计算 block 数时越界。")],
            linked=[(57, t("2026-09-17 10:00:00"), "li-na")], labels=("bug",),
            truth=dict(funnel="selected", fix=[(IS, 57, "fix")], evidence=["linked", "auto_close"], timing="auto_close",
                       traps=["one_pr_many_issues"], kb_refs=[KB_API], theme="request-validation"))
    w.issue(IS, 32, "stop 参数传空字符串时接口返回 500",
            "`\"stop\": [\"\"]` 时 /v1/completions 返回 500 Internal Server Error，期望返回 400。",
            "alice-w", t("2026-09-16 11:45:00"), closed=t("2026-09-18 10:00:56"), closed_by="li-na",
            linked=[(57, t("2026-09-17 10:00:30"), "li-na")], labels=("bug",),
            truth=dict(funnel="selected", fix=[(IS, 57, "fix")], evidence=["linked", "auto_close"], timing="auto_close",
                       traps=["one_pr_many_issues"], kb_refs=[KB_API], theme="request-validation"))

    # 33: the platform link points at an unrelated merged PR; the real fix is found by keyword.
    w.pull(IS, 60, "升级 fastapi 到 0.115 并统一日志格式", "依赖升级，日志字段统一为 key=value。", "li-na",
           t("2026-09-16 17:00:00"), "bump-fastapi", merged=t("2026-09-17 12:00:00"), merged_by="li-na",
           files=[("requirements.txt", "@@ -3,3 +3,3 @@\n-fastapi==0.110.0\n+fastapi==0.115.0\n"),
                  ("infer_serve/log.py", "@@ -5,3 +5,3 @@\n-FORMAT = \"%(asctime)s %(message)s\"\n+FORMAT = \"ts=%(asctime)s msg=%(message)s\"\n")])
    w.pull(IS, 61, "SSE 流式输出增加心跳，避免长回复被网关断开",
           "Fixes #33\n\n生成间隔超过 15s 时发送 `: keep-alive` 注释行；新增参数 --sse-heartbeat-interval。",
           "li-na", t("2026-09-18 14:00:00"), "sse-heartbeat", merged=t("2026-09-19 11:20:00"), merged_by="li-na",
           close_related=1,
           files=[("infer_serve/api/stream.py",
                   "@@ -40,6 +40,10 @@ async def stream_tokens(gen, interval):\n"
                   "     async for chunk in gen:\n"
                   "+        if time.monotonic() - last_sent > interval:\n"
                   "+            yield \": keep-alive\\n\\n\"\n"
                   "         yield f\"data: {chunk}\\n\\n\"\n")])
    w.issue(IS, 33, "流式输出在长回复时中途断流（SSE 连接被提前关闭）",
            "生成 4k token 以上的长回复时，客户端大约 60s 后收到连接关闭，回复不完整。非流式正常。部署在 nginx 之后。",
            "gpu-fan", t("2026-09-16 20:00:00"), closed=t("2026-09-19 11:20:00"), closed_by="li-na",
            comments=[("li-na", t("2026-09-18 10:30:00"), "定位到是网关 keep-alive 超时 60s，生成期间长时间没有数据时 SSE 连接被断开，需要在生成过程中发送心跳注释行。")],
            linked=[(60, t("2026-09-17 11:00:00"), "li-na")], labels=("bug",),
            truth=dict(funnel="selected", fix=[(IS, 61, "fix")], evidence=["keyword", "auto_close"], timing="same_second",
                       traps=["linked_unrelated"], kb_refs=[KB_STREAM], theme="streaming"))

    # 35: an official answer, no code change.
    w.issue(IS, 35, "开启 prefix cache 后首 token 延迟反而变高",
            "开启 --enable-prefix-cache 后，单轮问答场景 TTFT 从 180ms 升到 230ms，命中率监控显示 2%。请问是否正常？",
            "sunny-dev", t("2026-09-17 14:00:00"), closed=t("2026-09-18 09:01:30"), closed_by="sunny-dev",
            comments=[("li-na", t("2026-09-17 20:10:00"),
                       "这是预期行为：开启 prefix cache 后，每个请求都要计算前缀块哈希并写入缓存索引，命中率很低时这部分开销得不到回报。"
                       "建议只在多轮对话或共享系统提示词的场景开启，或调大 --prefix-cache-min-tokens，让短前缀不进入缓存。详见文档 prefix_cache.md。"),
                      ("sunny-dev", t("2026-09-18 09:00:00"), "明白了，按建议调整后 TTFT 恢复正常，关闭。")],
            labels=("question",),
            truth=dict(funnel="selected", evidence=["answer"], timing="no_fix", kb_refs=[KB_PREFIX], theme="prefix-cache"))

    w.issue(IS, 36, "空 prompt 导致服务崩溃", "请求 prompt 为空时服务挂掉。", "hiker42", t("2026-09-17 08:00:00"),
            closed=t("2026-09-17 09:00:30"), closed_by="li-na", issue_state="REJECTED", labels=("duplicate",),
            comments=[("li-na", t("2026-09-17 09:00:00"), "与 #31 重复，请关注 #31。")],
            truth=dict(funnel="unresolved"))
    for n, api, sec in ((37, "/v1/completions", "01"), (38, "/v1/chat/completions", "03"), (39, "/v1/embeddings", "05")):
        w.issue(IS, n, f"API一致性任务 {api} 参数对齐",
                f"【API一致性任务】请核对接口 `{api}` 与 OpenAI 规范的一致性。\n检查项：参数名、默认值、错误码、返回字段。",
                "api-consistency-bot", t(f"2026-09-17 10:00:{sec}"), closed=t(f"2026-09-18 16:00:{sec}"), closed_by="li-na",
                issue_type="Bug-Report",
                truth=dict(funnel="noise"))
    w.issue(IS, 41, "示例 client.py 拼写错误", "temperature 写成了 temprature", "bob_chen", t("2026-09-18 11:00:00"),
            closed=t("2026-09-18 11:30:00"), closed_by="bob_chen",
            truth=dict(funnel="rank", theme="docs-typo"))


def cluster_agent(w: World) -> None:
    for n, title, opened, closed in ((80, "agent 上报的 NPU 温度单位不一致", "07-10", "07-15"),
                                     (81, "Helm chart 不支持自定义镜像仓库", "07-22", "07-29"),
                                     (82, "节点重启后 agent 未自动拉起", "08-04", "08-11")):
        w.issue(CA, n, title, f"{title}，请确认。", "mlops-zhao", t(f"2026-{opened} 10:00:00"),
                closed=t(f"2026-{closed} 18:00:00"), closed_by="chen-hao",
                comments=[("chen-hao", t(f"2026-{opened} 15:00:00"), "已在下个版本处理。")])

    # 88: fix found by branch name bugfix/issue88; the issue was closed days later inside a close storm.
    w.pull(CA, 140, "心跳判定增加连续失败次数阈值", "引入 heartbeat.failure_threshold（默认 3），连续 3 次超时才判定节点异常；"
           "判定窗口内任一次心跳成功即清零计数。", "chen-hao", t("2026-09-16 09:30:00"), "bugfix/issue88",
           merged=t("2026-09-17 11:00:00"), merged_by="chen-hao",
           files=[("pkg/heartbeat/monitor.go",
                   "@@ -55,8 +55,13 @@ func (m *Monitor) onTimeout(node string) {\n"
                   "-\tm.markUnhealthy(node)\n"
                   "+\tm.failures[node]++\n"
                   "+\tif m.failures[node] >= m.cfg.FailureThreshold {\n"
                   "+\t\tm.markUnhealthy(node)\n"
                   "+\t}\n"
                   " }\n")])
    w.issue(CA, 88, "节点网络抖动时 agent 心跳误判，任务被重调度",
            "网络偶发 2~3 秒抖动时，agent 心跳超时一次就把节点标记为 NotReady，训练任务被整体重调度，损失约 40 分钟。\n"
            "版本：cluster-agent 1.4.0，心跳周期 5s，超时 10s。",
            "mlops-zhao", t("2026-09-15 10:00:00"), closed=t("2026-09-19 16:09:56"), closed_by="ops-lee",
            comments=[("chen-hao", t("2026-09-15 16:00:00"), "确认是心跳判定只看单次超时，没有容忍窗口，会加连续失败阈值。")],
            labels=("bug",),
            truth=dict(funnel="selected", fix=[(CA, 140, "fix")], evidence=["branch_name"], timing="later",
                       traps=["close_storm"], kb_refs=[KB_HEART], theme="heartbeat"))
    w.issue(CA, 91, "部署文档中 metrics 端口写成了 9090", "默认端口实际是 9091。", "alice-w", t("2026-09-18 09:00:00"),
            closed=t("2026-09-19 16:09:57"), closed_by="ops-lee", labels=("documentation",),
            truth=dict(funnel="rank", traps=["close_storm"], theme="docs-typo"))
    w.issue(CA, 92, "请问 cluster-agent 是否支持 Kubernetes 1.30？",
            "我们计划把集群从 1.27 升级到 1.30，想确认 cluster-agent 1.4.0 是否兼容，CRD 和 device plugin 接口是否有变化，"
            "升级顺序上有没有需要注意的地方。",
            "mlops-zhao", t("2026-09-17 15:00:00"), closed=t("2026-09-19 16:09:59"), closed_by="ops-lee",
            comments=[("chen-hao", t("2026-09-18 10:00:00"), "目前正式验证过的是 1.26~1.28；1.30 有社区用户在用，但官方尚未验证。CRD 使用 v1，理论上兼容。"),
                      ("mlops-zhao", t("2026-09-18 11:00:00"), "好的，谢谢，我们先在测试集群试一下。")],
            labels=("question",),
            truth=dict(funnel="analysis", drop_reason="consultation_only", traps=["close_storm"], theme="k8s-compat"))
    w.issue(CA, 93, "agent 日志时间戳没有时区信息", "日志时间是本地时间但没有带时区。", "hiker42", t("2026-09-18 12:00:00"),
            closed=t("2026-09-19 16:10:00"), closed_by="ops-lee",
            truth=dict(funnel="rank", traps=["close_storm"], theme="logging"))

    # 95: closed hours before its fix merged; the fix is not back-filled.
    w.pull(CA, 145, "agent 启动时为 npu.sock 设置组权限", "Fixes #95\n\n1.4.0 起 agent 以非 root 用户运行，"
           "启动时把 /var/run/npu.sock 的属组设为 HwHiAiUser 并授予 0660。", "chen-hao", t("2026-09-17 17:00:00"),
           "fix-sock-perm", merged=t("2026-09-18 18:05:00"), merged_by="chen-hao", close_related=1,
           files=[("cmd/agent/main.go", "@@ -80,6 +80,8 @@ func main() {\n+\tif err := fixSocketPerm(\"/var/run/npu.sock\", \"HwHiAiUser\", 0o660); err != nil {\n"
                   "+\t\tlog.Warnf(\"socket permission: %v\", err)\n+\t}\n")])
    w.issue(CA, 95, "升级到 1.4.0 后 agent 启动报 permission denied: /var/run/npu.sock",
            "从 1.3.2 升级到 1.4.0 后 agent 一直 CrashLoopBackOff：\n```\nfailed to connect device socket: dial unix /var/run/npu.sock: connect: permission denied\n```",
            "kevin_liu", t("2026-09-17 09:30:00"), closed=t("2026-09-18 08:00:00"), closed_by="chen-hao",
            comments=[("chen-hao", t("2026-09-17 14:00:00"),
                       "1.4.0 起 agent 默认以非 root 用户运行，socket 权限没有同步调整。临时规避：在 values.yaml 中设置 "
                       "securityContext.runAsUser: 0，或把 agent 用户加入 HwHiAiUser 组。正式修复 PR 在提交中。"),
                      ("kevin_liu", t("2026-09-17 20:00:00"), "按规避方式可以启动了。")],
            labels=("bug",),
            truth=dict(funnel="selected", evidence=["answer"], timing="before_merge", traps=["closed_before_merge"],
                       kb_refs=[KB_DEPLOY], theme="permissions"))
    w.issue(CA, 96, "【安全公告】CVE-2026-31337：golang.org/x/net HTTP/2 资源耗尽漏洞影响说明",
            "CVE-2026-31337 影响 golang.org/x/net < 0.38.0。cluster-agent 1.4.0 及以前版本受影响，1.4.1 已升级依赖。",
            "security-team", t("2026-09-17 15:00:00"), closed=t("2026-09-18 15:00:00"), closed_by="security-team",
            labels=("security",),
            truth=dict(funnel="cve"))


def commlib(w: World) -> None:
    for n, title, created, closed in ((1, "编译脚本不支持 aarch64 交叉编译", "2026-06-03 10:00:00", "2026-06-20 10:00:00"),
                                      (2, "broadcast 接口文档参数顺序错误", "2026-06-28 10:00:00", "2026-07-02 10:00:00"),
                                      (3, "多机训练时 rank table 解析失败", "2026-07-05 10:00:00", "2026-07-19 10:00:00")):
        w.issue(CL, n, title, f"{title}。", "tianyu", t(created), closed=t(closed), closed_by="wang-comm",
                comments=[("wang-comm", t(created).replace("10:00:00", "15:00:00"), "已修复，请更新。")])

    # 5: closed long ago, revived by a comment inside the window.
    w.issue(CL, 5, "HCCL 初始化超时：get socket timeout", "多机 16 卡初始化阶段报 get socket timeout，单机正常。",
            "gpu-fan", t("2026-07-20 10:00:00"), closed=t("2026-08-01 10:00:00"), closed_by="wang-comm",
            comments=[("wang-comm", t("2026-07-25 10:00:00"), "是防火墙拦截了 60000~60015 端口，放通后正常。"),
                      ("gpu-fan", t("2026-09-18 21:00:00"), "我在 2.0 版本上也遇到了，请问是同一个原因吗？")],
            truth=dict(funnel="window", theme="hccl-init"))

    # 12: a comment cites !47 as merged, but !47 was closed unmerged; the real fix !48 is named by URL.
    # Nobody closed the issue after the fix; a stale bot did, days later.
    w.pull(CL, 47, "ring allreduce 非 2 的幂 rank 切分修正", "修正 rank 数不是 2 的幂时的切分。", "tianyu",
           t("2026-09-09 10:00:00"), "fix-ring-split", fork=True, closed=t("2026-09-11 18:00:00"), closed_by="wang-comm",
           comments=[("wang-comm", t("2026-09-11 17:58:00"), "rank=12 时最后一段仍然越界，我另提 PR 处理，这个先关闭。")],
           files=[("src/ring_allreduce.cc", "@@ -70,3 +70,3 @@ size_t ChunkSize(size_t count, int ranks, int i) {\n"
                   "-  return count / ranks;\n+  return (count + ranks - 1) / ranks;\n")])
    w.pull(CL, 48, "ring allreduce：修正非 2 的幂 rank 数时最后一段切分长度",
           "关联 issue：https://gitcode.com/demo-infra/commlib/issues/12\n\n替代 !47（该 PR 在 rank=12 时仍有越界）。"
           "最后一段长度改为 count - offset，并补充 rank=6/12/24 的用例。", "wang-comm", t("2026-09-11 18:30:00"),
           "fix-ring-tail", merged=t("2026-09-12 15:20:00"), merged_by="wang-comm",
           files=[("src/ring_allreduce.cc",
                   "@@ -70,3 +70,6 @@ size_t ChunkSize(size_t count, int ranks, int i) {\n"
                   "-  return count / ranks;\n"
                   "+  size_t base = count / ranks;\n"
                   "+  size_t offset = base * i;\n"
                   "+  return i == ranks - 1 ? count - offset : base;\n")])
    stale_at = t("2026-09-16 16:00:00")
    w.issue(CL, 12, "8 卡以上 ring allreduce 偶发超时",
            "12 卡（非 2 的幂）训练时 allreduce 偶发超时：\n```\nHCCL timeout: ring allreduce step 11 wait 1800s\n```\n8 卡和 16 卡正常。",
            "tianyu", t("2026-09-05 10:00:00"), closed=t("2026-09-18 09:30:00"), closed_by="demo-stale-bot",
            comments=[("wang-comm", t("2026-09-08 11:00:00"), "定位到 ring 切分在 rank 数非 2 的幂时最后一段长度算错，导致最后一步等待超时。"),
                      ("wang-comm", t("2026-09-12 16:00:00"), "已由 !47 修复合入，请更新 master 验证。"),
                      ("demo-stale-bot", stale_at, "该 issue 已超过 4 天无更新，将在 2 天后自动关闭。如问题仍存在请回复。")],
            labels=("bug", "stale"),
            extra_logs=[{"id": 170009001, "action_type": "label", "content": "添加了标签 stale", "created_at": stale_at,
                         "update_at": stale_at, "issue_id": str(stable_int("issue", CL, 12)), "user": user("demo-stale-bot")}],
            truth=dict(funnel="selected", fix=[(CL, 48, "fix")], evidence=["keyword"], timing="stale",
                       traps=["stale_close", "claimed_unmerged"], kb_refs=[KB_ALLREDUCE, KB_RING], theme="allreduce-timeout"))

    w.issue(CL, 16, "【任务】适配 2.2 版本 CI 流水线", "CI 镜像切换到 CANN 8.2，补充 aarch64 构建任务。", "wang-comm",
            t("2026-09-17 10:00:00"), closed=t("2026-09-19 18:00:00"), closed_by="wang-comm", issue_type="任务",
            truth=dict(funnel="internal"))
    for n, sec in ((17, "01"), (18, "03")):
        w.issue(CL, n, "重复-请忽略", "重复-请忽略", "hiker42", t(f"2026-09-18 13:00:{sec}"),
                closed=t(f"2026-09-18 14:00:{sec}"), closed_by="wang-comm",
                truth=dict(funnel="noise"))
    w.issue(CL, 19, "编译时出现 unused variable 告警", "gcc 12 编译有 unused variable 告警。", "bob_chen",
            t("2026-09-19 09:00:00"), closed=t("2026-09-19 09:20:00"), closed_by="bob_chen",
            truth=dict(funnel="rank", theme="build-warning"))


# ---------------------------------------------------------------- docs

DOCS = {
    "demo-ai/modelkit/docs/quantization.md": """# 量化原理与配置

## per-channel 对称量化

对每个输出通道分别统计校准数据的最小值 `x_min` 与最大值 `x_max`，按

    scale = (x_max - x_min) / (2 * qmax)

计算缩放系数，其中 `qmax = 2^(bits-1) - 1`。若某通道在整个校准集上恒为 0（`x_max == x_min`），
分母为零，scale 会变成 NaN 并传播到整个推理结果。2.1.2 起对这种通道回退到 scale=1，并对 scale 设置
下限 `EPS = 1e-8`。

## 校准集

- `calib_samples`：校准样本条数，默认 128。样本过少时 scale 估计不稳定。
- 校准集应覆盖真实输入分布；全零 padding 过多会导致部分通道统计为零。

## 排除层

`exclude_layers` 中的层保持原精度，2.1.0 起默认排除 `lm_head`。
""",
    "demo-ai/modelkit/docs/install.md": """# 安装

```bash
git clone https://gitcode.com/demo-ai/modelkit.git
cd modelkit
pip install -e .
```

依赖 Python 3.9~3.11 与 CANN 8.0 及以上版本，仅支持 Linux（x86_64 / aarch64）。
""",
    "demo-ai/modelkit/src/modelkit/export/onnx_export.py": '''"""ONNX export.

Dynamic dimensions must be declared through ``dynamic_axes``; otherwise the exporter traces the
sample input and constant folding freezes its shape (batch=1) into the graph.
"""

import torch


def export_onnx(model, sample, path, dynamic_batch=True):
    axes = {"input_ids": {0: "batch", 1: "seq"}} if dynamic_batch else None
    # Constant folding would bake the traced batch size into reshape nodes.
    torch.onnx.export(model, sample, path, dynamic_axes=axes, do_constant_folding=not dynamic_batch)
''',
    "demo-ai/infer-serve/README.md": """# InferServe

大模型推理服务框架，提供 OpenAI 兼容接口。

## 快速开始

```bash
infer-serve --model /models/qwen2-7b --port 8000
```

更多参数见 docs/ 目录。
""",
    "demo-ai/infer-serve/docs/prefix_cache.md": """# Prefix Cache

开启 `--enable-prefix-cache` 后，请求的 prompt 按 block 切分，每个 block 计算哈希并登记到缓存索引；
后续请求若前缀相同可直接复用已计算的 KV，降低首 token 延迟（TTFT）。

## 开销

哈希计算与索引写入对每个请求都会发生。命中率低（如单轮、互不相关的问答）时这部分开销得不到回报，
TTFT 可能比关闭时更高。

## 建议

- 多轮对话、共享系统提示词、few-shot 模板等前缀重复度高的场景开启。
- `--prefix-cache-min-tokens`：短于该长度的前缀不进入缓存，默认 64。
""",
    "demo-ai/infer-serve/docs/streaming.md": """# 流式输出（SSE）

`stream=true` 时以 Server-Sent Events 返回，每个 token 一条 `data:` 消息。

## 网关超时

部署在 nginx 等网关之后时，若生成过程中长时间没有数据发送（如长思考或排队），网关的 keep-alive /
read 超时（常见 60s）会提前关闭连接。1.4.0 起服务端在空闲超过 `--sse-heartbeat-interval`（默认 15s）
时发送 `: keep-alive` 注释行，客户端会忽略该行。也可调大网关的 `proxy_read_timeout`。
""",
    "demo-ai/infer-serve/docs/api_reference.md": """# API 参考

## POST /v1/completions

| 参数 | 说明 |
|---|---|
| prompt | 必填，不能为空字符串；编码后 token 数为 0 时返回 400 |
| stop | 字符串数组，不能包含空字符串 |
| temperature | 0~2，默认 1.0 |

非法参数返回 400 与 `{"error": {"message": ...}}`，不会进入推理引擎。
""",
    "demo-infra/cluster-agent/docs/heartbeat.md": """# 心跳与节点健康判定

agent 每 `heartbeat.interval`（默认 5s）上报一次心跳，控制面在 `heartbeat.timeout`（默认 10s）内未收到
视为一次超时。

自 1.4.1 起，连续 `heartbeat.failure_threshold`（默认 3）次超时才将节点标记为 NotReady；任一次心跳成功
即清零计数。网络偶发抖动不会再触发任务重调度。
""",
    "demo-infra/cluster-agent/docs/deploy.md": """# 部署

## 运行用户

1.4.0 起 agent 默认以非 root 用户（uid 1000）运行。agent 需要访问设备 socket `/var/run/npu.sock`，
该 socket 的属组为 `HwHiAiUser`。请将运行用户加入该组，或在 values.yaml 中设置：

```yaml
securityContext:
  runAsUser: 0
```

1.4.1 起 agent 启动时会自动为 socket 设置组权限 0660。

## 端口

- 9091：metrics
- 9443：webhook
""",
    "demo-infra/cluster-agent/docs/faq.md": """# 常见问题

**Q：agent 支持哪些操作系统？**
A：openEuler 22.03、Ubuntu 22.04、CentOS 7.6（即将停止支持）。

**Q：如何查看 agent 版本？**
A：`cluster-agent --version`。
""",
    "demo-infra/commlib/docs/allreduce_tuning.md": """# AllReduce 调优

## ring 算法切分

ring allreduce 把数据切成 `ranks` 段，每步每个 rank 发送一段、接收一段。rank 数不是 2 的幂时，
`count / ranks` 向下取整，最后一段必须取余下的全部元素（`count - offset`），否则最后一步各 rank
等待的数据量不一致，表现为偶发的 step 超时（HCCL timeout）。2.0.3 起已修正。

## 超时参数

`HCCL_EXEC_TIMEOUT` 默认 1800s，排查期间可调小以便尽快暴露问题。
""",
    "demo-infra/commlib/src/ring_allreduce.cc": """// Ring allreduce chunking.
#include <cstddef>

// The last chunk takes whatever is left, so uneven splits (ranks not a power of two) stay aligned.
size_t ChunkSize(size_t count, int ranks, int i) {
  size_t base = count / ranks;
  size_t offset = base * i;
  return i == ranks - 1 ? count - offset : base;
}
""",
    "demo-infra/commlib/CHANGELOG.md": """# Changelog

## 2.0.3
- ring allreduce：修正非 2 的幂 rank 数时最后一段切分长度

## 2.0.2
- broadcast 接口文档参数顺序修正
""",
}


# ---------------------------------------------------------------- write

WORLD_YAML = {
    "platform": "gitcode",
    "snapshot_at": SNAPSHOT,
    "orgs": ["demo-ai", "demo-infra"],
    "description": "Small GitCode-flavoured demo world: every linking situation and funnel stage once or twice.",
    "window": {"since": SINCE},
    "rank_top_k": 12,
}

TRUTH_NOTES = (
    "Issues dropped before the link stage (window, unresolved, internal, cve, empty_title, noise, rank) carry no fix "
    "or evidence; close_storm is still named on them because it is visible from close times alone. The rank stage "
    "keeps the top 12 (world.yaml rank_top_k); the rank drops are the short, comment-less, PR-less reports."
)


def write(out: Path) -> None:
    w = build()
    reset_dir(out)
    write_yaml(out / "world.yaml", WORLD_YAML)
    open_counts: dict[str, int] = {}
    for (repo, _), obj in w.issues.items():
        open_counts[repo] = open_counts.get(repo, 0) + (obj["state"] == "open")
    for org in WORLD_YAML["orgs"]:
        listing = [repo_obj(o, p, name, desc, branch, open_counts.get(f"{o}/{p}", 0))
                   for o, p, name, desc, branch in REPOS if o == org]
        if org == "demo-ai":
            # A model repository: hidden from /orgs/{org}/repos unless repo_type=model or all.
            listing.append(dict(repo_obj("demo-ai", "qwen-mini-weights", "qwen-mini-weights", "示例权重", "main", 0,
                                         repo_type="model"), name="qwen-mini-weights"))
        write_json(out / "orgs" / f"{org}.json", listing)
    for o, p, name, desc, branch in REPOS:
        write_json(out / "repos" / o / p / "repo.json", repo_obj(o, p, name, desc, branch, open_counts.get(f"{o}/{p}", 0)))
    for (repo, n), obj in sorted(w.issues.items()):
        write_json(out / "repos" / repo / "issues" / f"{n}.json", obj)
    for (repo, n, kind), items in sorted(w.issue_files.items()):
        write_json(out / "repos" / repo / "issues" / f"{n}.{kind}.json", items)
    for (repo, n), obj in sorted(w.pulls.items()):
        write_json(out / "repos" / repo / "pulls" / f"{n}.json", obj)
    for (repo, n, kind), items in sorted(w.pull_files.items()):
        write_json(out / "repos" / repo / "pulls" / f"{n}.{kind}.json", items)
    for rel, text in sorted(DOCS.items()):
        write_text(out / "docs" / rel, text)
    truth = {"window": {"since": SINCE}, "notes": TRUTH_NOTES,
             "issues": sorted(w.truth, key=lambda e: (e["repo"], e["number"]))}
    write_yaml(out / "truth.yaml", truth)


def main(argv: list[str]) -> None:
    out = Path(argv[1]) if len(argv) > 1 else Path(__file__).resolve().parents[1] / "worlds" / "demo"
    write(out)
    print(f"wrote {out}")


if __name__ == "__main__":
    main(sys.argv)
