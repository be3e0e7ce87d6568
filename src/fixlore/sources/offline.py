"""Read a world folder (world-format.md) straight into a Corpus through the platform normalisers.

No HTTP and no store: for fast tests and benchmarks of later stages. It loads every object
the world holds, which is more than a harvest fetches (a harvest fetches details only for
the issues that survive the cheap funnel).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from fixlore.core.errors import ConfigError
from fixlore.core.model import Corpus
from fixlore.edges.inputs import load_yaml_mapping
from fixlore.sources import gitcode as gc
from fixlore.sources import github as gh


def read_world_meta(path: str | Path) -> dict[str, Any]:
    root = Path(path)
    meta_file = root / "world.yaml"
    if not meta_file.is_file():
        raise ConfigError(f"{root} is not a world folder (no world.yaml)")
    meta = load_yaml_mapping(meta_file, "world file")
    truth = root / "truth.yaml"
    if truth.is_file():
        window = load_yaml_mapping(truth, "truth file").get("window") or {}
        if not isinstance(window, dict):
            raise ConfigError(f"truth file {truth}: window must be a mapping with a since: time")
        meta.setdefault("window", window)
    return meta


def _load(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def _objects(folder: Path) -> list[tuple[int, Path]]:
    """``<n>.json`` files (not ``<n>.comments.json`` etc.), by number."""
    if not folder.is_dir():
        return []
    found = [(int(p.stem), p) for p in folder.glob("*.json") if p.stem.isdigit()]
    return sorted(found)


def load_world(path: str | Path) -> Corpus:
    root = Path(path)
    meta = read_world_meta(root)
    platform = str(meta.get("platform", "gitcode"))
    norm = gh if platform == "github" else gc
    corpus = Corpus(platform=platform)
    seen_repos: set[str] = set()
    for org in meta.get("orgs") or []:
        org_file = root / "orgs" / f"{org}.json"
        if org_file.is_file():
            listing = _load(org_file)
        else:       # no listing file: the repo objects under repos/<org>/ are the listing
            listing = [_load(p) for p in sorted((root / "repos" / org).glob("*/repo.json"))]
        for raw in listing:
            repo = gh.normalize_repo(raw) if platform == "github" else gc.normalize_repo(raw, platform)
            if repo.full_name not in seen_repos:
                seen_repos.add(repo.full_name)
                corpus.repos.append(repo)
    for repo in corpus.repos:
        _load_repo(root / "repos" / repo.owner / repo.name, repo.full_name, platform, norm, corpus)
    return corpus


def _load_repo(folder: Path, repo: str, platform: str, norm: Any, corpus: Corpus) -> None:
    for number, path in _objects(folder / "issues"):
        raw = _load(path)
        if platform == "github" and gh.is_pull_item(raw):
            continue
        issue = norm.normalize_issue(raw, repo)
        corpus.issues.append(issue)
        comments = folder / "issues" / f"{number}.comments.json"
        if comments.is_file():
            corpus.comments.extend(norm.normalize_comment(c, repo, "issue", number) for c in _load(comments))
        events = folder / "issues" / f"{number}.events.json"
        if events.is_file():
            for item in _load(events):
                if platform == "github":
                    event, link = gh.normalize_timeline_item(item, repo, number)
                else:
                    event, link = gc.normalize_issue_log(item, repo, number, issue.closed_at)
                if event:
                    corpus.events.append(event)
                if link:
                    corpus.links.append(link)
        pulls = folder / "issues" / f"{number}.pulls.json"
        if pulls.is_file() and platform != "github":
            for item in _load(pulls):
                _, link = gc.normalize_issue_pull(item, repo, number)
                corpus.links.append(link)
    for number, path in _objects(folder / "pulls"):
        corpus.pulls.append(norm.normalize_pull(_load(path), repo))
        extra = {kind: folder / "pulls" / f"{number}.{kind}.json" for kind in ("issues", "files", "commits",
                                                                                 "comments", "events")}
        if extra["files"].is_file():
            corpus.files.extend(norm.normalize_file(f, repo, number) for f in _load(extra["files"]))
        if extra["commits"].is_file():
            corpus.commits.extend(norm.normalize_commit(c, repo, number) for c in _load(extra["commits"]))
        if extra["comments"].is_file():
            corpus.comments.extend(norm.normalize_comment(c, repo, "pull", number) for c in _load(extra["comments"]))
        if platform != "github":
            if extra["issues"].is_file():
                corpus.links.extend(gc.normalize_pull_issue(i, repo, number) for i in _load(extra["issues"]))
            if extra["events"].is_file():
                for item in _load(extra["events"]):
                    event, link = gc.normalize_pull_log(item, repo, number)
                    corpus.events.append(event)
                    if link:
                        corpus.links.append(link)
    corpus.links = _unique_links(corpus.links)


def _unique_links(links: list) -> list:
    seen, out = set(), []
    for link in links:
        key = (link.issue_repo, link.issue_number, link.pull_repo, link.pull_number, link.source)
        if key not in seen:
            seen.add(key)
            out.append(link)
    return out
