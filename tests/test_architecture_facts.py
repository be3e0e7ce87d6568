"""No stage reads a platform's raw JSON: the sources normalise it into model fields (issue #25).

The payload keys are not listed by hand: they are the string keys the GitCode and GitHub
normalisers read (subscripts, `.get()`, `sub(raw, ...)` paths, `"key" in raw`), so a key a
normaliser starts reading is covered at once. Two checks, because a key alone is ambiguous:
`"state"`, `"number"` or `"content"` are payload keys and also keys of our own dicts (the case
export, an event's normalised `detail`, chat messages), which stages read legitimately.

- `test_no_stage_reads_a_kept_payload`: a read of any payload key on a payload, i.e. on an
  object's `.raw` (a model object keeps its platform JSON there) or on a local name bound to it
  (`raw = ev.raw or {}`), or on a part read from either.
- `test_platform_only_keys_are_read_only_by_the_sources`: whatever the receiver, a key that is
  only ever platform JSON's (a payload key that is no model field and that our own code never
  writes into a dict: `"pull_request"`, `"head"`, `"user"`, ...) is read only below the stages.

Allowed to read payloads: `fixlore.sources` (the normalisers), `fixlore.replay` (serves
payloads), the store's writer (saves them) and the store's migrations (a migration fills a new
column of rows stored before it from the payload each row kept, so a store needs no new harvest).
"""

from __future__ import annotations

import ast
import dataclasses
import functools
import typing
from pathlib import Path

import fixlore
from fixlore.core import model
PACKAGE = Path(fixlore.__file__).parent
NORMALISERS = ("sources/gitcode.py", "sources/github.py")
ALLOWED = ("sources/", "replay/", "store/writer.py", "store/migrations/")


@functools.cache
def _modules(allowed: tuple[str, ...] = ALLOWED) -> tuple[tuple[str, ast.Module], ...]:
    """The package's modules outside `allowed`, parsed once for the file's tests (the checks only
    read the trees; ~0.6 s of CPU a parse of the package)."""
    out = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).as_posix()
        if not rel.startswith(allowed):
            out.append((rel, ast.parse(path.read_text(encoding="utf-8"))))
    return tuple(out)


def _str(node: ast.AST | None) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _key_reads(tree: ast.AST):
    """(receiver, key, node) for `x["k"]` loads, `x.get("k", ...)` and `"k" in x`."""
    for n in ast.walk(tree):
        if isinstance(n, ast.Subscript) and isinstance(n.ctx, ast.Load) and _str(n.slice) is not None:
            yield n.value, _str(n.slice), n
        elif (isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "get"
              and n.args and _str(n.args[0]) is not None):
            yield n.func.value, _str(n.args[0]), n
        elif (isinstance(n, ast.Compare) and _str(n.left) is not None and len(n.ops) == 1
              and isinstance(n.ops[0], (ast.In, ast.NotIn))):
            yield n.comparators[0], _str(n.left), n


def payload_keys() -> set[str]:
    """The keys the normalisers read from platform JSON."""
    keys: set[str] = set()
    for rel in NORMALISERS:
        tree = ast.parse((PACKAGE / rel).read_text(encoding="utf-8"))
        dicts = set()                       # names the normaliser reads keys of: its payloads
        for receiver, key, node in _key_reads(tree):
            if not isinstance(node, ast.Compare):
                keys.add(key)
                if isinstance(receiver, ast.Name):
                    dicts.add(receiver.id)
        for receiver, key, node in _key_reads(tree):
            if isinstance(node, ast.Compare) and isinstance(receiver, ast.Name) and receiver.id in dicts:
                keys.add(key)               # "pull_request" in raw ("/" in full is not a key)
        for n in ast.walk(tree):            # sub(raw, "head", "sha"): a path into the payload
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "sub":
                keys |= {k for k in map(_str, n.args[1:]) if k is not None}
    return keys


@functools.cache
def _own_keys() -> frozenset[str]:
    """Keys that are ours: model fields (and the export's typed rows), and every key our own code,
    the normalisers included (an event's `detail`), writes into a dict."""
    own: set[str] = set()
    for obj in vars(model).values():
        if dataclasses.is_dataclass(obj):
            own |= {f.name for f in dataclasses.fields(obj)}
        elif isinstance(obj, type) and typing.is_typeddict(obj):
            own |= set(obj.__annotations__)
    trees = [tree for _, tree in _modules()]
    trees += [ast.parse((PACKAGE / rel).read_text(encoding="utf-8")) for rel in NORMALISERS]
    for tree in trees:
        for n in ast.walk(tree):
            if isinstance(n, ast.Dict):
                own |= {k for k in map(_str, n.keys) if k is not None}
            elif isinstance(n, ast.Subscript) and isinstance(n.ctx, ast.Store) and _str(n.slice) is not None:
                own.add(_str(n.slice))
            elif isinstance(n, ast.Call) and (
                    (isinstance(n.func, ast.Name) and n.func.id == "dict")
                    or (isinstance(n.func, ast.Attribute) and n.func.attr in ("update", "setdefault"))):
                own |= {k.arg for k in n.keywords if k.arg}
    return frozenset(own)


def _payload_names(tree: ast.AST) -> dict[ast.AST, set[str]]:
    """Per function, the local names bound to a payload (`raw = ev.raw or {}`, `src = raw.get(...)`)."""
    out: dict[ast.AST, set[str]] = {}
    for fn in ast.walk(tree):
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.Module)):
            names: set[str] = set()
            changed = True
            while changed:                  # names bound from names bound to a payload
                changed = False
                for n in ast.walk(fn):
                    if (isinstance(n, ast.Assign) and _is_payload(n.value, names)
                            and all(isinstance(t, ast.Name) for t in n.targets)):
                        new = {t.id for t in n.targets} - names
                        if new:
                            names |= new
                            changed = True
            out[fn] = names
    return out


def _is_payload(node: ast.AST, names: set[str]) -> bool:
    """`x.raw` (not `self.raw`), a name bound to a payload, or a part of either."""
    if isinstance(node, ast.Attribute) and node.attr == "raw":
        return not (isinstance(node.value, ast.Name) and node.value.id == "self")
    if isinstance(node, ast.Name):
        return node.id in names
    if isinstance(node, ast.BoolOp):                            # ev.raw or {}
        return any(_is_payload(v, names) for v in node.values)
    if isinstance(node, ast.Subscript):
        return _is_payload(node.value, names)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get":
        return _is_payload(node.func.value, names)
    return False


def payload_reads(modules: list[tuple[str, ast.Module]], keys: set[str]) -> list[str]:
    found = []
    for rel, tree in modules:
        names = set().union(*_payload_names(tree).values())
        for receiver, key, node in _key_reads(tree):
            if key in keys and _is_payload(receiver, names):
                found.append(f"{rel}:{node.lineno} reads {key!r} of {ast.unparse(receiver)}")
    return found


def platform_only_reads(modules: list[tuple[str, ast.Module]], only: set[str]) -> list[str]:
    return [f"{rel}:{node.lineno} reads {key!r} of {ast.unparse(receiver)}"
            for rel, tree in modules for receiver, key, node in _key_reads(tree) if key in only]


def test_the_key_set_is_the_normalisers_reading():
    keys = payload_keys()
    # a few keys every reader of the two APIs knows, so the derivation cannot silently go empty
    assert {"user", "pull_request", "head", "merged_at", "html_url", "iid", "finished_at"} <= keys
    assert "/" not in keys and "duplicate" not in keys      # `"/" in full`: not a key read


def test_no_stage_reads_a_kept_payload():
    found = payload_reads(_modules(), payload_keys())
    assert not found, "read the model field the source normalises instead:\n" + "\n".join(found)


def test_platform_only_keys_are_read_only_by_the_sources():
    only = payload_keys() - _own_keys()
    assert {"pull_request", "head", "user", "iid"} <= only
    found = platform_only_reads(_modules(), only)
    assert not found, "a platform-only key read above the sources:\n" + "\n".join(found)


def test_the_checks_see_a_payload_read(tmp_path):
    """The checks flag what they are for, and not our own dicts (a check that cannot fail is none)."""
    src = '''
def stage(issue, ev, case):
    if "pull_request" in issue.raw:
        return None
    raw = ev.raw or {}
    src = raw.get("source") or {}
    sha = src["commit_id"]
    own = case.to_export()["state"], ev.detail.get("commit_id"), self.raw
    return (pull.raw.get("head") or {}).get("sha"), sha, own
'''
    tree = ast.parse(src)
    keys = payload_keys()
    found = payload_reads([("x.py", tree)], keys)
    assert sorted(f.split(" reads ")[1].split(" of ")[0] for f in found) == sorted(
        ["'pull_request'", "'source'", "'commit_id'", "'head'", "'sha'"]), found
    only = keys - _own_keys()
    assert {f.split(" reads ")[1].split(" of ")[0] for f in platform_only_reads([("x.py", tree)], only)} == {
        "'pull_request'", "'head'"}
