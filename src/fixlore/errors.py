"""Errors a user can act on. The CLI prints their message on one line, without a traceback."""


class FixloreError(Exception):
    """Base of every error that should reach the user as one clear line."""

    exit_code = 1


class ConfigError(FixloreError):
    exit_code = 2


class SourceError(FixloreError):
    """The remote API refused or failed in a way retries cannot fix (bad token, unknown org, unreachable host)."""


# `fixlore run` / `fixlore harvest` finished, stored everything it could read, but some repos (or
# some of their endpoints) could not be read: they are recorded in the store and retried next run.
EXIT_SOME_UNREADABLE = 3
