"""A run is asked for once (`RunRequest`), its settings worked out once (`plan_run`), and the
library form of the run lives below the commands that call it: the pipeline imports neither a
command nor the series, and the series reaches the run through the pipeline, not the CLI."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from fixlore.settings.config import SettingFlags
from fixlore.pipeline import RunRequest, plan_run

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "worlds" / "demo"          # world.yaml: rank_top_k 12

CHAINS = """
import grimp
graph = grimp.build_graph("fixlore")
found = []
for importer, imported in (("fixlore.pipeline", "fixlore.series"), ("fixlore.pipeline", "fixlore.cli.run"),
                           ("fixlore.pipeline", "fixlore.cli.commands"), ("fixlore.series", "fixlore.cli.run"),
                           ("fixlore.series", "fixlore.cli.commands")):
    for module in sorted(graph.find_descendants(importer) | {importer}):
        targets = graph.find_descendants(imported) | {imported} if imported in graph.modules else set()
        for target in sorted(targets):
            chain = graph.find_shortest_chain(importer=module, imported=target)
            if chain:
                found.append(" -> ".join(chain))
print("\\n".join(found))
"""


def test_the_pipeline_imports_no_command_and_the_series_no_cli():
    """On main before issue #25 this found series.publish -> pipeline_cli (and back)."""
    done = subprocess.run([sys.executable, "-c", CHAINS], cwd=ROOT / "src", capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "", "import chains that should not exist:\n" + done.stdout


@pytest.mark.parametrize("flag, funnel, expected", [
    (None, None, 12),                  # the world's own cut
    (None, "[funnel]\nrank_top_k = 4\n", 4),     # the funnel mapping's over the world's (docs/link.md)
    (5, "[funnel]\nrank_top_k = 4\n", 5),        # a flag over every file
])
def test_the_top_k_cut_is_decided_once_and_every_stage_reads_it(tmp_path, flag, funnel, expected):
    config = None
    if funnel is not None:
        config = tmp_path / "fixlore.toml"
        config.write_text(funnel)
    settings = plan_run(RunRequest(out=tmp_path / "out", world=DEMO, config=config,
                                   settings=SettingFlags(rank_top_k=flag)))
    assert settings.rank_top_k == expected
    assert settings.funnel_rules.rank_top_k == expected


def test_a_request_is_frozen_and_its_flags_say_only_what_was_given():
    request = RunRequest(out=Path("o"), settings=SettingFlags(orgs=("a",), lookback_days=0, rate_limit=False))
    with pytest.raises(AttributeError):
        request.world = DEMO              # type: ignore[misc]
    assert request.settings.given() == {"orgs": ["a"], "lookback_days": 0, "rate_limit": False}
    assert request.server_rate_limit is False
