"""The `fixlore` command. Each pipeline stage registers its own commands from its `cli` module,
so a reader finds a command next to the library call it wraps.

Every `fixlore` process imports this module and every command's signature, so they stay light:
a `cli` module imports at its top only typer, rich and small modules of constants
(`analyse.defaults`, `serve.limits`); the stage, the store, the index and the servers are imported
inside the command's body, and the stage packages export their names lazily (issue #26;
tests/test_cli_lazy.py lists what `fixlore --help` and a typo must not load).

One error path for every command: a user mistake or an environment failure is one line on
stderr (``error: ...``) naming the input and what to do, and the process exits with the
documented code (``fixlore.core.errors.EXIT_CODES``); only a bug shows a traceback, and only
with --verbose.
"""

from __future__ import annotations

import importlib
import os
import sys
from pathlib import Path
from typing import Any, Optional

import typer

from fixlore.core.errors import EXIT_CODES_HELP, ConfigError, FixloreError, Interrupted, SourceError, StoreError

EPILOG = EXIT_CODES_HELP

app = typer.Typer(
    name="fixlore",
    help="Harvest issue trackers, trace each closed issue to its real fix, publish a digest and serve the knowledge base.",
    epilog=EPILOG,
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
    rich_markup_mode=None,
)

# Set by the global options; read by main() to decide whether a bug shows its traceback.
_STATE = {"verbose": 0}


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("fixlore")
    except PackageNotFoundError:      # running from a source tree without installing
        return "unknown"


def _show_version(value: bool) -> None:
    if value:
        typer.echo(f"fixlore {_version()}")
        raise typer.Exit()


@app.callback()
def _global(
    verbose: int = typer.Option(0, "--verbose", "-v", count=True, envvar="FIXLORE_VERBOSE",
                                help="Say more on stderr: -v progress notes such as retries, -vv debug; "
                                     "a bug also shows its traceback (env FIXLORE_VERBOSE)."),
    log_file: Optional[Path] = typer.Option(None, "--log-file", envvar="FIXLORE_LOG_FILE", dir_okay=False,
                                            help="Also write the log (INFO and above) to this file "
                                                 "(env FIXLORE_LOG_FILE)."),
    _version_flag: bool = typer.Option(False, "--version", callback=_show_version, is_eager=True,
                                       help="Print the version and exit."),
) -> None:
    """Harvest issue trackers, trace each closed issue to its real fix, publish a digest and serve the knowledge base.

    Settings come from flags, then the --config file, then the world's own settings: a flag
    always wins. Options that name the run folder, the store and the config file also read
    FIXLORE_OUT, FIXLORE_DB and FIXLORE_CONFIG.
    """
    from fixlore.edges import logs
    if log_file is not None:
        if log_file.is_dir():
            raise ConfigError(f"--log-file {log_file} is a folder; give a file")
        if not log_file.parent.is_dir():
            raise ConfigError(f"--log-file {log_file}: folder {log_file.parent} does not exist")
    _STATE["verbose"] = verbose
    logs.configure(verbose, log_file)


# Stage modules that contribute commands, in pipeline order.
_COMMAND_MODULES = (
    "fixlore.cli.run",
    "fixlore.replay.cli",
    "fixlore.harvest.cli",
    "fixlore.sources.probe_cli",
    "fixlore.link.cli",
    "fixlore.evaluate.cli",
    "fixlore.kb.cli",
    "fixlore.analyse.cli",
    "fixlore.compose.cli",
    "fixlore.serve.cli",
    "fixlore.series.cli",
    "fixlore.series.weights_cli",
)

for _name in _COMMAND_MODULES:
    importlib.import_module(_name).register(app)


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def _fail(message: str, code: int) -> None:
    from fixlore.edges import logs
    from fixlore.wording.terminal import plain

    sys.stderr.write(f"error: {_one_line(plain(logs.redact(message)))}\n")
    sys.stderr.flush()
    sys.exit(code)


def _environment_error(exc: BaseException) -> tuple[str, int] | None:
    """One line for failures of the machine or a service (not of fixlore), or None for a bug."""
    if isinstance(exc, OSError):
        where = f"{exc.filename}: " if getattr(exc, "filename", None) else ""
        return f"{where}{exc.strerror or exc}; check the path, its permissions and free space", StoreError.exit_code
    if type(exc).__module__.startswith("sqlalchemy"):
        orig = getattr(exc, "orig", None) or exc
        first = (str(orig).strip().splitlines() or [type(orig).__name__])[0]
        return f"the database failed: {first}", StoreError.exit_code
    if type(exc).__module__.startswith("httpx"):
        return f"network failure: {exc}", SourceError.exit_code
    return None


# Options whose empty value means something (clear the framing line); every other option
# given '' is refused: an empty --out would write into the working folder, an empty --since
# would be ignored, both without a word.
_MAY_BE_EMPTY = frozenset({"--tagline", "--agent-label", "--agent-pointer"})


def empty_value(args: list[str], command: Any = None) -> str | None:
    """The first option (or argument) of ``args`` given an empty or blank value, walking the
    command tree (typer's own click: classes by duck type) as click will; None when there is none."""
    command = command if command is not None else typer.main.get_command(app)
    position, i = 0, 0
    while i < len(args):
        arg = args[i]
        i += 1
        if arg == "--":
            break
        if arg in getattr(command, "commands", {}):
            command, position = command.commands[arg], 0
            continue
        if arg.startswith("-") and len(arg) > 1:
            name, eq, value = arg.partition("=")
            option = next((p for p in command.params if p.param_type_name == "option" and name in p.opts), None)
            if option is None and not arg.startswith("--") and len(arg) > 2:
                name, eq, value = arg[:2], "=", arg[2:]           # -k5
                option = next((p for p in command.params if p.param_type_name == "option" and name in p.opts), None)
            if option is None or option.is_flag or option.count:
                continue
            if not eq:
                if i >= len(args):
                    break
                value, i = args[i], i + 1
            if not value.strip() and name not in _MAY_BE_EMPTY:
                return name
            continue
        arguments = [p for p in command.params if p.param_type_name == "argument"]
        if position < len(arguments) and not arg.strip():
            return (arguments[position].name or "an argument").upper()
        position += 1
    return None


def main(argv: list[str] | None = None) -> None:
    try:
        command = typer.main.get_command(app)     # built once: the check below and the run share it
        empty = empty_value(list(sys.argv[1:] if argv is None else argv), command)
        if empty is not None:
            raise ConfigError(f"{empty} is empty; give a value (or leave {empty} out for its default)")
        code = command(args=argv, prog_name="fixlore", standalone_mode=False)
        sys.exit(code if isinstance(code, int) else 0)      # --help and --version return their code
    except Interrupted as exc:
        sys.stderr.write(f"\n{_one_line(str(exc))}\n")
        sys.exit(exc.exit_code)
    except FixloreError as exc:
        _fail(str(exc), exc.exit_code)
    except typer.Exit as exc:
        sys.exit(exc.exit_code)
    except typer.TyperException as exc:       # typer's own click: usage errors and bad parameters
        ctx = getattr(exc, "ctx", None)
        if type(exc).__name__ == "NoArgsIsHelpError" and ctx is not None:
            typer.echo(ctx.get_help())
            sys.exit(0)
        if exc.exit_code == ConfigError.exit_code:
            path = ctx.command_path if ctx is not None else "fixlore"
            _fail(f"{exc.format_message()} (see `{path} --help`)", ConfigError.exit_code)
        _fail(exc.format_message(), exc.exit_code)
    except (typer.Abort, KeyboardInterrupt):
        sys.stderr.write("\ninterrupted; rerun the same command to resume\n")
        sys.exit(130)
    except BrokenPipeError:
        # stdout closed early (`fixlore ... | head`): not an error worth a line.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(0)
    except Exception as exc:   # noqa: BLE001 - the last resort: one line, the traceback only on request
        import traceback

        known = _environment_error(exc)
        if known is not None:
            if _STATE["verbose"]:
                traceback.print_exc()
            _fail(*known)
        if _STATE["verbose"]:
            traceback.print_exc()
        _fail(f"internal error ({type(exc).__name__}: {_one_line(str(exc))[:200]}); rerun with --verbose "
              f"for the traceback and report it", 70)
