"""The architecture contracts in .importlinter hold (import-linter, run on the installed package)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_import_contracts_hold():
    lint = Path(sys.executable).parent / "lint-imports"
    assert lint.exists() or shutil.which("lint-imports"), "import-linter is a pinned test dependency"
    done = subprocess.run([str(lint if lint.exists() else "lint-imports"), str(ROOT / ".importlinter"), "--no-cache"],
                          cwd=ROOT / "src", capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert "Contracts: 2 kept, 0 broken" in done.stdout


def test_no_stage_is_excused_from_the_independence_contract():
    """A rule two stages need moves to a floor below them; no sideways import is let through."""
    config = (ROOT / ".importlinter").read_text(encoding="utf-8")
    assert "ignore_imports" not in config


def _graph():
    import grimp

    return grimp.build_graph("fixlore")


def _floors() -> list[list[str]]:
    import configparser

    parser = configparser.ConfigParser()
    parser.read(ROOT / ".importlinter", encoding="utf-8")
    lines = parser["importlinter:contract:floors"]["layers"].strip().splitlines()
    return [[name.strip() for name in line.replace("|", ":").split(":")] for line in lines]


def test_every_module_sits_on_a_floor():
    """No module is loose: each one is, or is inside, a module the floors contract names."""
    named = [name for floor in _floors() for name in floor]
    loose = sorted(module for module in _graph().modules
                   if module != "fixlore" and not any(module == n or module.startswith(n + ".") for n in named))
    assert loose == [], f"modules on no floor of .importlinter: {loose}"


def test_the_package_root_holds_only_packages():
    """The loose root modules were grouped by what they are (core, wording, edges, settings, cli)."""
    package = ROOT / "src" / "fixlore"
    modules = sorted(p.name for p in package.glob("*.py") if p.name not in ("__init__.py", "__main__.py", "pipeline.py"))
    assert modules == [], f"modules loose in the package root: {modules}"



def test_no_import_cycle():
    """No module reaches itself through its imports (Tarjan's strongly connected components)."""
    graph = _graph()
    edges = {m: graph.find_modules_directly_imported_by(m) for m in graph.modules}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    for module in sorted(graph.modules):
        if module not in index:
            visit(module)
    assert cycles == [], f"import cycles: {cycles}"
