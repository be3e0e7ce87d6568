"""Errors a user can act on. The CLI prints their message on one line, without a traceback,
and exits with the class's documented code (``EXIT_CODES``; README "Exit codes")."""

from __future__ import annotations

# The exit codes every command uses, with what the user should do; printed in `fixlore --help`.
EXIT_CODES: dict[int, str] = {
    0: "success",
    1: "the command stopped on a problem it names",
    2: "usage or configuration: a bad flag, setting, URL or input file; fix what the message names",
    3: "not found: the case or key named is not in this run",
    4: "the platform or the network failed: host unreachable, token missing or refused",
    5: "the store or the file system failed: database unreachable, disk full, permission denied",
    6: "finished, but some repositories, issues or PRs could not be read (in full): they are recorded and retried on the next run",
    70: "internal error (a bug): rerun with --verbose for the traceback and report it",
    130: "interrupted (Ctrl-C): rerun the same command to resume",
}
EXIT_CODES_HELP = "Exit codes: " + "; ".join(f"{code} {what}" for code, what in EXIT_CODES.items()) + "."


class FixloreError(Exception):
    """Base of every error that should reach the user as one clear line."""

    exit_code = 1


class ConfigError(FixloreError):
    """A bad flag, setting, URL or input file: the user fixes the input named."""

    exit_code = 2


class NotFoundError(FixloreError):
    exit_code = 3


class SourceError(FixloreError):
    """The remote API refused or failed in a way retries cannot fix (bad token, unknown org, unreachable host)."""

    exit_code = 4


class StoreError(FixloreError):
    """The database or the file system refused (server down, disk full, permission denied)."""

    exit_code = 5


class Interrupted(FixloreError):
    """Ctrl-C during a run, after the run was marked interrupted; the message says how to resume."""

    exit_code = 130


# `fixlore run` / `fixlore harvest` finished, stored everything it could read, but some repos (or
# some of their endpoints) could not be read: they are recorded in the store and retried next run.
EXIT_SOME_UNREADABLE = 6
