"""The `fixlore` command. Each pipeline stage registers its own commands from its `cli` module,
so a reader finds a command next to the library call it wraps."""

from __future__ import annotations

import importlib
import sys

import typer
from rich.console import Console
from rich.text import Text

from fixlore.errors import FixloreError

app = typer.Typer(
    name="fixlore",
    help="Harvest issue trackers, trace each closed issue to its real fix, publish a digest and serve the knowledge base.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

# Stage modules that contribute commands, in pipeline order.
_COMMAND_MODULES = (
    "fixlore.pipeline_cli",
    "fixlore.replay.cli",
    "fixlore.harvest.cli",
    "fixlore.sources.probe_cli",
    "fixlore.link.cli",
    "fixlore.kb.cli",
    "fixlore.compose.cli",
    "fixlore.serve.cli",
)

for _name in _COMMAND_MODULES:
    importlib.import_module(_name).register(app)


def main() -> None:
    err = Console(stderr=True)
    try:
        app(prog_name="fixlore", standalone_mode=True)
    except FixloreError as exc:
        line = Text("error: ", style="bold red")
        line.append(str(exc))          # issue keys, paths and queries are printed as given, never as markup
        err.print(line, highlight=False, soft_wrap=True)
        sys.exit(exc.exit_code)
    except KeyboardInterrupt:
        err.print("interrupted")
        sys.exit(130)
