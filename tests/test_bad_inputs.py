"""Bad inputs across every command, table-driven: each row is a command line a user could type
(and its environment); the command must answer with exactly one line on stderr, the exit code
the README's table gives for that kind of failure, no traceback, no secret, and nothing created
(the tmp working folder, and the finished run some rows read, are byte-identical afterwards).

Most rows run in-process through ``fixlore.cli.commands.main`` (fast); ``SUBPROCESS`` runs a few as real
processes, as a user's shell would. A row's words are what the one line must name, so a user
can tell which input to fix.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import free_port
from fixlore.cli.commands import app, main
from fixlore.core.errors import EXIT_CODES

ROOT = Path(__file__).resolve().parents[1]
DEMO = str(ROOT / "worlds" / "demo")
SINCE = "2026-09-17T00:00:00+08:00"
TOKEN = "tokS3cretValue9"                 # in GITCODE_TOKEN for every row
KEY = "sk-PlantedKey4410"                 # in OPENAI_API_KEY for every row
PW = "hunter2pw"                          # planted in URLs' user:password@ and query strings
SECRETS = (TOKEN, KEY, PW)
PORT = free_port()                        # nothing listens there: a dead host, a dead database
DEAD_PG = f"postgresql+psycopg://fixlore:{PW}@127.0.0.1:{PORT}/fixlore"
LIVE = ["run", "--platform", "gitcode", "--org", "acme", "--since", SINCE, "--out", "{tmp}/o"]
WORLD = ["run", "--world", DEMO, "--out", "{tmp}/o"]
HARVEST = ["harvest", "--platform", "gitcode", "--org", "acme", "--since", SINCE, "--out", "{tmp}/h"]
PROBE = ["probe", "--platform", "gitcode", "--org", "acme", "--out", "{tmp}/probe.json"]
ANALYSE = ["analyse", "--cases", "{run}/cases.jsonl", "--out", "{tmp}/analysed.jsonl"]


def _prepare(tmp: Path) -> None:
    """The inputs the rows point at (test_cli_errors' and a few more), written before the snapshot
    of what exists."""
    from test_cli_errors import _prepare as prepare_cli_inputs

    prepare_cli_inputs(tmp)
    (tmp / "since_junk.toml").write_text('since = "2026-09-19Tjunk"\n')
    (tmp / "baseurl.toml").write_text(f'base_url = "https://api.gitcode.com/api/v5?private_token={PW}"\n')
    (tmp / "memory.toml").write_text('platform = "gitcode"\norgs = ["acme"]\nsince = "2026-09-17"\n'
                                     'db = "sqlite:///:memory:"\n')
    (tmp / "run_text.json").write_text("{not json")


def R(name, argv, code, words=(), env=None, warns=0, may=()):  # noqa: N802 - a table row, read as one
    """``warns``: warning lines (``fixlore: ...``) the row must show before its one error line
    (a base URL's user:password@ is said to be ignored). ``may``: what the row may leave behind
    (a store that records a harvest the network stopped, never one made for a bad input)."""
    return pytest.param(argv, code, tuple(words), env or {}, warns, tuple(may), id=name)


ROWS = [
    # -- global options and the command table
    R("log-file-missing-folder", ["--log-file", "{tmp}/no/such/log.txt", *WORLD], 2, ["--log-file"]),
    R("log-file-is-folder", ["--log-file", "{tmp}/noworld", *WORLD], 2, ["--log-file", "directory"]),
    R("no-such-command", ["harvset"], 2, ["harvset"]),
    R("verbose-not-a-number", [*WORLD], 2, ["FIXLORE_VERBOSE"], {"FIXLORE_VERBOSE": "loud"}),

    # -- run: URLs
    R("run-url-bracket", [*LIVE, "--base-url", "http://[::1"], 2, ["base_url", "malformed"]),
    R("run-url-no-host", [*LIVE, "--base-url", "http://"], 2, ["base_url", "no host"]),
    R("run-url-scheme", [*LIVE, "--base-url", "ftp://example.org"], 2, ["http://"]),
    R("run-url-port", [*LIVE, "--base-url", "http://example.org:99999/api"], 2, ["malformed"]),
    R("run-url-space", [*LIVE, "--base-url", "http://example .org/api/v5"], 2, ["base_url", "space"]),
    R("run-url-tab", [*LIVE, "--base-url", "http://example.org/api\tv5"], 2, ["base_url"]),
    R("run-url-query-token", [*LIVE, "--base-url", f"https://api.gitcode.com/api/v5?access_token={PW}"], 2,
      ["base_url", "query", "access_token=***"]),
    R("run-url-password-malformed", [*LIVE, "--base-url", f"http://u:{PW}@[::1"], 2, ["malformed", "http://[::1"]),
    R("run-url-password-query", [*LIVE, "--base-url", f"http://u:{PW}@example.org/api?token={PW}"], 2,
      ["base_url", "query"]),
    R("run-url-config-query", [*WORLD, "--config", "{tmp}/baseurl.toml"], 2, ["base_url", "private_token=***"]),
    # -- run: the store
    R("run-db-mysql", [*WORLD, "--db", f"mysql://u:{PW}@h/db"], 2, ["unsupported database", "mysql://h/db"]),
    R("run-db-garbage", [*WORLD, "--db", "garbage"], 2, ["'garbage'", "not a URL"]),
    R("run-db-missing-folder", [*WORLD, "--db", "sqlite:///{tmp}/no/such/x.db"], 2, ["does not exist"]),
    R("run-db-is-folder", [*WORLD, "--db", "sqlite:///{tmp}/noworld"], 2, ["is a folder"]),
    R("run-db-sqlite-no-path", [*WORLD, "--db", "sqlite:///"], 2, ["sqlite:///", "file"]),
    R("run-db-memory", [*WORLD, "--db", "sqlite:///:memory:"], 2, [":memory:", "kept"]),
    R("run-db-memory-config", ["run", "--config", "{tmp}/memory.toml", "--out", "{tmp}/o"], 2, [":memory:"]),
    R("run-db-two-slashes", [*WORLD, "--db", "sqlite://x.db"], 2, ["three slashes"]),
    R("run-db-env", [*WORLD], 2, ["mysql://h/db"], {"FIXLORE_DB": "mysql://h/db"}),
    R("run-db-postgres-unreachable", [*WORLD, "--db", DEAD_PG], 5, ["store", "127.0.0.1"]),
    R("run-db-postgres-unreachable-live", [*LIVE, "--db", DEAD_PG], 5, ["store"]),
    # -- run: the output folder
    R("run-out-is-file", ["run", "--world", DEMO, "--out", "{tmp}/afile"], 2, ["afile", "is a file"]),
    R("run-out-under-file", ["run", "--world", DEMO, "--out", "{tmp}/afile/sub"], 2, ["afile", "is a file"]),
    R("run-out-empty", ["run", "--world", DEMO, "--out", ""], 2, ["--out", "empty"]),
    R("run-out-missing", ["run", "--world", DEMO], 2, ["--out"]),
    R("run-out-env-empty", ["run", "--world", DEMO], 2, ["--out"], {"FIXLORE_OUT": ""}),
    R("run-db-env-empty-default-store-folder", ["run", "--world", DEMO, "--out", "{tmp}/afile/o"], 2, ["afile"],
      {"FIXLORE_DB": ""}),
    # -- run: the config file
    R("run-config-binary-toml", [*WORLD, "--config", "{tmp}/binary.toml"], 2, ["binary.toml", "binary"]),
    R("run-config-binary-yaml", [*WORLD, "--config", "{tmp}/binary.yaml"], 2, ["binary.yaml"]),
    R("run-config-latin1", [*WORLD, "--config", "{tmp}/latin1.yaml"], 2, ["latin1.yaml", "UTF-8"]),
    R("run-config-bad-toml", [*WORLD, "--config", "{tmp}/bad.toml"], 2, ["bad.toml", "TOML"]),
    R("run-config-missing", [*WORLD, "--config", "{tmp}/none.toml"], 2, ["none.toml", "not found"]),
    R("run-config-rate-limit-no", [*WORLD, "--config", "{tmp}/rate.toml"], 2, ["rate_limit", "true or false"]),
    R("run-config-top-k-word", [*WORLD, "--config", "{tmp}/topk.toml"], 2, ["rank_top_k", "whole number"]),
    R("run-config-unknown-key", [*WORLD, "--config", "{tmp}/unknown.toml"], 2, ["colour"]),
    R("run-config-not-mapping", [*WORLD, "--config", "{tmp}/list.yaml"], 2, ["mapping"]),
    R("run-config-since-junk", [*WORLD, "--config", "{tmp}/since_junk.toml"], 2, ["since", "2026-09-19Tjunk"]),
    R("run-config-token-value", [*WORLD, "--config", "{tmp}/tokenval.toml"], 2, ["token_env"]),
    R("run-config-env", [*WORLD], 2, ["none.toml"], {"FIXLORE_CONFIG": "{tmp}/none.toml"}),
    # -- run: the world
    R("run-world-bad-yaml", ["run", "--world", "{tmp}/badworld", "--out", "{tmp}/o"], 2, ["world.yaml", "YAML"]),
    R("run-world-not-mapping", ["run", "--world", "{tmp}/listworld", "--out", "{tmp}/o"], 2, ["mapping"]),
    R("run-world-no-yaml", ["run", "--world", "{tmp}/noworld", "--out", "{tmp}/o"], 2, ["noworld", "world.yaml"]),
    R("run-world-missing", ["run", "--world", "{tmp}/nowhere", "--out", "{tmp}/o"], 2, ["nowhere"]),
    R("run-truth-bad-yaml", ["run", "--world", "{tmp}/badtruth", "--out", "{tmp}/o"], 2, ["truth.yaml", "YAML"]),
    R("run-truth-binary", ["run", "--world", "{tmp}/bintruth", "--out", "{tmp}/o"], 2, ["truth.yaml", "binary"]),
    # -- run: times
    R("run-since-word", [*WORLD, "--since", "yesterday"], 2, ["--since", "yesterday"]),
    R("run-since-empty", [*WORLD, "--since", ""], 2, ["--since", "empty"]),
    R("run-since-junk-time", [*WORLD, "--since", "2026-09-19Tjunk"], 2, ["--since", "2026-09-19Tjunk"]),
    R("run-since-hour-25", [*WORLD, "--since", "2026-09-19T25:00"], 2, ["--since", "T25:00"]),
    R("run-since-offset", [*WORLD, "--since", "2026-09-19T00:00+99:99"], 2, ["--since", "+99:99"]),
    R("run-since-offset-15h", [*WORLD, "--since", "2026-09-19T00:00+15:00"], 2, ["--since", "offset"]),
    R("run-since-month-13", [*WORLD, "--since", "2026-13-01"], 2, ["--since"]),
    R("run-since-feb-30", [*WORLD, "--since", "2026-02-30"], 2, ["--since"]),
    R("run-since-year-1800", [*WORLD, "--since", "1800-01-01"], 2, ["--since", "1800"]),
    R("run-as-of-junk", [*WORLD, "--as-of", "soon"], 2, ["--as-of"]),
    R("run-as-of-live", [*LIVE, "--as-of", SINCE], 2, ["--as-of", "--world"]),
    # -- run: other flags
    R("run-unknown-option", [*WORLD, "--colour"], 2, ["--colour", "--help"]),
    R("run-bad-int-flag", [*WORLD, "--rank-top-k", "many"], 2, ["--rank-top-k"]),
    R("run-negative-top-k", [*WORLD, "--rank-top-k", "-3"], 2, ["rank_top_k"]),
    R("run-value-min-word", [*WORLD, "--value-min", "high"], 2, ["--value-min"]),
    R("run-value-min-above-one", [*WORLD, "--value-min", "1.5"], 2, ["value_min", "between 0 and 1"]),
    R("run-value-min-and-top-k", [*WORLD, "--value-min", "0.5", "--rank-top-k", "3"], 2, ["--value-min", "not both"]),
    R("run-platform", ["run", "--platform", "gitlab", "--org", "x", "--since", SINCE, "--out", "{tmp}/o"], 2,
      ["platform", "gitlab"]),
    R("run-no-source", ["run", "--out", "{tmp}/o"], 2, ["--world"]),
    R("run-live-no-org", ["run", "--platform", "gitcode", "--since", SINCE, "--out", "{tmp}/o"], 2, ["--org"]),
    R("run-org-slash", [*LIVE, "--org", "a/b"], 2, ["orgs"]),
    R("run-org-empty", [*LIVE, "--org", ""], 2, ["--org", "empty"]),
    R("run-org-space", [*LIVE, "--org", "my org"], 2, ["orgs", "my org"]),
    R("run-stage-bogus", [*WORLD, "--stage", "bogus"], 2, ["--stage", "bogus", "harvest"]),
    R("run-faults-garbage", [*WORLD, "--faults", "garbage"], 2, ["--faults", "garbage"]),
    R("run-faults-probability", [*WORLD, "--faults", "500:2"], 2, ["--faults", "between 0 and 1"]),
    R("run-faults-kind", [*WORLD, "--faults", "teapot@3"], 2, ["--faults", "teapot"]),
    R("run-faults-live", [*LIVE, "--faults", "500:0.1"], 2, ["--faults", "--world"]),
    R("run-quirks-bogus", [*WORLD, "--quirks", "bogus"], 2, ["bogus"]),
    R("run-time-scale-zero", [*WORLD, "--time-scale", "0"], 2, ["time_scale"]),
    R("run-time-scale-nan", [*WORLD, "--time-scale", "nan"], 2, ["time_scale"]),
    R("run-read-timeout-negative", [*WORLD, "--read-timeout", "-1"], 2, ["read_timeout"]),
    R("run-max-attempts-zero", [*WORLD, "--max-attempts", "0"], 2, ["max_attempts"]),
    R("run-lookback-negative", [*WORLD, "--lookback-days", "-1"], 2, ["lookback_days"]),
    R("run-kb-docs-missing", [*WORLD, "--kb-docs", "{tmp}/nodocs"], 2, ["--kb-docs", "nodocs"]),
    R("run-kb-docs-file", [*WORLD, "--kb-docs", "{tmp}/afile=docs/a/b"], 2, ["--kb-docs", "afile"]),
    R("run-kb-docs-prefix", [*WORLD, "--kb-docs", "{tmp}/noworld=docs/../x"], 2, ["--kb-docs", "prefix"]),
    R("run-token-env-name", [*LIVE, "--token-env", "my token"], 2, ["token_env"]),
    R("run-llm-url-space", [*WORLD], 2, ["FIXLORE_LLM_BASE_URL", "space"],
      {"FIXLORE_LLM_BASE_URL": f"http://u:{PW}@llm host/v1", "FIXLORE_LLM_MODEL": "m"}),
    R("run-llm-url-query", [*WORLD], 2, ["FIXLORE_LLM_BASE_URL", "api_key=***"],
      {"FIXLORE_LLM_BASE_URL": f"http://127.0.0.1:{PORT}/v1?api_key={PW}", "FIXLORE_LLM_MODEL": "m"}),
    R("run-series-unknown", [*WORLD, "--series", "nosuch"], 3, ["nosuch"]),

    # -- harvest
    R("harvest-no-org", ["harvest", "--platform", "gitcode", "--since", SINCE, "--out", "{tmp}/h"], 2, ["--org"]),
    R("harvest-no-since", ["harvest", "--platform", "gitcode", "--org", "acme", "--out", "{tmp}/h"], 2, ["--since"]),
    R("harvest-no-store", ["harvest", "--platform", "gitcode", "--org", "acme", "--since", SINCE], 2,
      ["--out", "--db"]),
    R("harvest-since-junk", [*HARVEST[:-2], "--since", "2026-09-19Tjunk", "--out", "{tmp}/h"], 2, ["--since"]),
    R("harvest-since-empty", [*HARVEST, "--since", ""], 2, ["--since", "empty"]),
    R("harvest-since-offset", [*HARVEST[:-2], "--since", "2026-09-19T00:00+99:99", "--out", "{tmp}/h"], 2,
      ["--since"]),
    R("harvest-out-is-file", [*HARVEST[:-2], "--out", "{tmp}/afile"], 2, ["afile", "is a file"]),
    R("harvest-out-empty", [*HARVEST[:-2], "--out", ""], 2, ["--out", "empty"]),
    R("harvest-db-missing-folder", [*HARVEST, "--db", "sqlite:///{tmp}/no/such/x.db"], 2, ["does not exist"]),
    R("harvest-db-mysql", [*HARVEST, "--db", f"mysql://u:{PW}@h/db"], 2, ["unsupported database"]),
    R("harvest-db-memory", [*HARVEST, "--db", "sqlite:///:memory:"], 2, [":memory:"]),
    R("harvest-db-postgres-unreachable", [*HARVEST, "--db", DEAD_PG], 5, ["store"]),
    R("harvest-url-space", [*HARVEST, "--base-url", "https://api.gitcode .com/api/v5"], 2, ["base_url", "space"]),
    R("harvest-url-query-token", [*HARVEST, "--base-url", f"https://api.gitcode.com/api/v5?access_token={PW}"], 2,
      ["base_url", "query"]),
    R("harvest-platform", [*HARVEST, "--platform", "gitlab"], 2, ["platform", "gitlab"]),
    R("harvest-config-missing", [*HARVEST, "--config", "{tmp}/none.toml"], 2, ["none.toml"]),
    R("harvest-max-attempts-zero", [*HARVEST, "--max-attempts", "0"], 2, ["max_attempts"]),
    R("harvest-unreachable-host", [*HARVEST, "--base-url", f"http://u:{PW}@127.0.0.1:{PORT}/api/v5",
                                   "--max-attempts", "1", "-q"], 4, ["cannot reach", "127.0.0.1"], warns=1,
      may=["h", "h/fixlore.db", "h/fixlore.db-wal", "h/fixlore.db-shm"]),

    # -- probe
    R("probe-platform", ["probe", "--platform", "gitlab", "--org", "acme", "--out", "{tmp}/p.json"], 2, ["gitlab"]),
    R("probe-no-org", ["probe", "--platform", "gitcode"], 2, ["--org"]),
    R("probe-org-path", ["probe", "--platform", "gitcode", "--org", "acme/../x", "--out", "{tmp}/p.json"], 2,
      ["--org", "acme/../x"]),
    R("probe-budget-negative", [*PROBE, "--budget", "-1"], 2, ["--budget"]),
    R("probe-budget-zero", [*PROBE, "--budget", "0"], 2, ["--budget"]),
    R("probe-url-scheme", [*PROBE, "--base-url", "ftp://example.org"], 2, ["http://"]),
    R("probe-url-space", [*PROBE, "--base-url", "http://example .org/api"], 2, ["space"]),
    R("probe-url-query-token", [*PROBE, "--base-url", f"http://127.0.0.1:{PORT}/api?access_token={PW}"], 2,
      ["query", "access_token=***"]),
    R("probe-url-userinfo-dead", [*PROBE, "--base-url", f"http://probe:{PW}@127.0.0.1:{PORT}/api/v5"], 4,
      ["cannot reach", "127.0.0.1"], warns=1),
    R("probe-dead-host", [*PROBE, "--base-url", f"http://127.0.0.1:{PORT}/api/v5"], 4, ["cannot reach"]),
    R("probe-out-folder", ["probe", "--platform", "gitcode", "--org", "acme", "--out", "{tmp}/noworld"], 2,
      ["--out", "folder"]),
    R("probe-out-under-file", ["probe", "--platform", "gitcode", "--org", "acme", "--out", "{tmp}/afile/p.json"], 2,
      ["afile"]),
    R("probe-out-empty", ["probe", "--platform", "gitcode", "--org", "acme", "--out", ""], 2, ["--out", "empty"]),
    R("probe-token-env-name", [*PROBE, "--token-env", "bad name"], 2, ["--token-env"]),

    # -- replay
    R("replay-bad-world", ["replay", "{tmp}/badworld"], 2, ["world.yaml", "YAML"]),
    R("replay-not-a-world", ["replay", "{tmp}/noworld"], 2, ["noworld"]),
    R("replay-missing-world", ["replay", "{tmp}/nowhere"], 2, ["nowhere"]),
    R("replay-port-high", ["replay", DEMO, "--port", "99999"], 2, ["--port"]),
    R("replay-port-negative", ["replay", DEMO, "--port", "-1"], 2, ["--port"]),
    R("replay-time-scale", ["replay", DEMO, "--time-scale", "0"], 2, ["--time-scale"]),
    R("replay-faults-garbage", ["replay", DEMO, "--faults", "garbage"], 2, ["--faults", "garbage"]),
    R("replay-faults-sum", ["replay", DEMO, "--faults", "500:0.7,502:0.6"], 2, ["--faults", "more than 1"]),
    R("replay-as-of", ["replay", DEMO, "--as-of", "2026-09-19Tjunk"], 2, ["--as-of"]),
    R("replay-two-tokens", ["replay", DEMO, "--token", "x", "--token-env", "GITCODE_TOKEN"], 2, ["--token"]),
    R("replay-token-env-unset", ["replay", DEMO, "--token-env", "NO_SUCH_VAR_X"], 2, ["NO_SUCH_VAR_X"]),
    R("replay-stall-negative", ["replay", DEMO, "--stall-seconds", "-1"], 2, ["--stall-seconds"]),
    R("replay-quirks", ["replay", DEMO, "--quirks", "bogus"], 2, ["bogus"]),
    R("replay-host-empty", ["replay", DEMO, "--host", ""], 2, ["--host", "empty"]),

    # -- export
    R("export-missing-store", ["export", "cases", "--db", "sqlite:///{tmp}/missing.db"], 2, ["no store", "missing.db"]),
    R("export-format", ["export", "cases", "--world", DEMO, "--format", "csv"], 2, ["csv"]),
    R("export-to-folder", ["export", "cases", "--world", DEMO, "--to", "{tmp}/noworld"], 2, ["--to", "folder"]),
    R("export-to-under-file", ["export", "cases", "--world", DEMO, "--to", "{tmp}/afile/x.jsonl"], 2, ["afile"]),
    R("export-config-binary", ["export", "cases", "--world", DEMO, "--config", "{tmp}/binary.yaml"], 2,
      ["binary.yaml"]),
    R("export-since-junk", ["export", "cases", "--world", DEMO, "--since", "2026-09-19T25:00"], 2, ["--since"]),
    R("export-top-k-negative", ["export", "cases", "--world", DEMO, "--top-k", "-1"], 2, ["--top-k"]),
    R("export-nothing", ["export", "cases"], 2, ["--out"]),
    R("export-world-missing", ["export", "cases", "--world", "{tmp}/nowhere"], 2, ["nowhere"]),
    R("export-db-postgres-unreachable", ["export", "cases", "--db", DEAD_PG], 5, ["store"]),
    R("export-unknown-subcommand", ["export", "digests"], 2, ["digests"]),

    # -- explain
    R("explain-missing-store", ["explain", "a/b#1", "--db", "sqlite:///{tmp}/missing.db"], 2, ["no store"]),
    R("explain-bad-key", ["explain", "not-a-key", "--cases", "{tmp}/cases_text.jsonl"], 2, ["OWNER/REPO#N"]),
    R("explain-out-missing", ["explain", "a/b#1", "--out", "{tmp}/nosuchrun"], 2, ["nosuchrun"]),
    R("explain-unknown-key", ["explain", "acme/nothing#999", "--out", "{run}"], 3, ["acme/nothing#999"]),
    R("explain-cases-missing", ["explain", "a/b#1", "--cases", "{tmp}/none.jsonl"], 2, ["none.jsonl"]),
    R("explain-cases-text", ["explain", "a/b#1", "--cases", "{tmp}/cases_text.jsonl"], 2, ["cases_text.jsonl"]),
    R("explain-since-junk", ["explain", "a/b#1", "--world", DEMO, "--since", "+99:99"], 2, ["--since"]),
    R("explain-nothing", ["explain", "a/b#1"], 2, ["--out"]),
    R("explain-db-postgres-unreachable", ["explain", "a/b#1", "--db", DEAD_PG], 5, ["store"]),

    # -- score
    R("score-truth-bad", ["score", "--truth", "{tmp}/badtruth/truth.yaml", "--cases", "{tmp}/cases_text.jsonl"], 2,
      ["truth.yaml", "YAML"]),
    R("score-truth-binary", ["score", "--truth", "{tmp}/bintruth/truth.yaml", "--cases", "{tmp}/cases_empty.jsonl"],
      2, ["binary"]),
    R("score-truth-rows", ["score", "--truth", "{tmp}/truth_rows.yaml", "--cases", "{tmp}/cases_empty.jsonl"], 2,
      ["truth_rows.yaml", "repo and number"]),
    R("score-cases-binary", ["score", "--truth", f"{DEMO}/truth.yaml", "--cases", "{tmp}/cases_bin.jsonl"], 2,
      ["cases_bin.jsonl"]),
    R("score-cases-text", ["score", "--truth", f"{DEMO}/truth.yaml", "--cases", "{tmp}/cases_text.jsonl"], 2,
      ["cases_text.jsonl:1"]),
    R("score-nothing", ["score", "--truth", f"{DEMO}/truth.yaml"], 2, ["--cases", "--out"]),
    R("score-world-and-truth", ["score", "--world", DEMO, "--truth", f"{DEMO}/truth.yaml"], 2, ["--world"]),
    R("score-world-missing", ["score", "--world", "{tmp}/nowhere"], 2, ["nowhere"]),
    R("score-out-no-cases", ["score", "--truth", f"{DEMO}/truth.yaml", "--out", "{tmp}/noworld"], 2,
      ["cases.jsonl"]),
    R("score-split-unknown", ["score", "--truth", f"{DEMO}/truth.yaml", "--out", "{run}", "--split", "nosplit"], 2,
      ["split", "nosplit"]),
    R("score-show-negative", ["score", "--truth", f"{DEMO}/truth.yaml", "--out", "{run}", "--show", "-1"], 2,
      ["--show"]),

    # -- analyse
    R("analyse-cases-missing", ["analyse", "--cases", "{tmp}/none.jsonl", "--out", "{tmp}/a.jsonl"], 2,
      ["none.jsonl"]),
    R("analyse-backend", [*ANALYSE, "--backend", "magic"], 2, ["--backend", "magic"]),
    R("analyse-llm-no-endpoint", [*ANALYSE, "--backend", "llm"], 2, ["--llm-base-url"]),
    R("analyse-llm-url-scheme", [*ANALYSE, "--backend", "llm", "--llm-base-url", "ftp://x", "--llm-model", "m"], 2,
      ["--llm-base-url"]),
    R("analyse-llm-url-secret", [*ANALYSE, "--backend", "llm", "--llm-base-url", f"http://u:{PW}@h st/v1",
                                 "--llm-model", "m"], 2, ["--llm-base-url", "space"]),
    R("analyse-workers-zero", [*ANALYSE, "--workers", "0"], 2, ["--workers"]),
    R("analyse-timeout-zero", [*ANALYSE, "--llm-timeout", "0"], 2, ["--llm-timeout"]),
    R("analyse-theme-size", [*ANALYSE, "--theme-size", "-1"], 2, ["--theme-size"]),
    R("analyse-out-under-file", ["analyse", "--cases", "{run}/cases.jsonl", "--out", "{tmp}/afile/a.jsonl"], 2,
      ["afile"]),
    R("analyse-out-folder", ["analyse", "--cases", "{run}/cases.jsonl", "--out", "{tmp}/noworld"], 2,
      ["--out", "folder"]),
    R("analyse-db-missing", [*ANALYSE, "--db", "sqlite:///{tmp}/missing.db"], 2, ["no store"]),
    R("analyse-world-missing", [*ANALYSE, "--world", "{tmp}/nowhere"], 2, ["nowhere"]),
    R("analyse-summary-under-file", [*ANALYSE, "--summary", "{tmp}/afile/s.json"], 2, ["afile"]),

    # -- digest
    R("digest-lang", ["digest", "--cases", "{run}/cases.jsonl", "--out", "{tmp}/dg", "--lang", "fr"], 2, ["--lang"]),
    R("digest-run-binary", ["digest", "--cases", "{tmp}/cases_empty.jsonl", "--run", "{tmp}/binary.toml", "--out",
                            "{tmp}/dg"], 2, ["binary.toml"]),
    R("digest-run-text", ["digest", "--cases", "{run}/cases.jsonl", "--run", "{tmp}/run_text.json", "--out",
                          "{tmp}/dg"], 2, ["run_text.json", "JSON"]),
    R("digest-run-missing", ["digest", "--cases", "{run}/cases.jsonl", "--run", "{tmp}/none.json", "--out",
                             "{tmp}/dg"], 2, ["none.json"]),
    R("digest-cases-missing", ["digest", "--cases", "{tmp}/none.jsonl", "--out", "{tmp}/dg"], 2, ["none.jsonl"]),
    R("digest-cases-text", ["digest", "--cases", "{tmp}/cases_text.jsonl", "--out", "{tmp}/dg"], 2,
      ["cases_text.jsonl"]),
    R("digest-out-is-file", ["digest", "--cases", "{run}/cases.jsonl", "--out", "{tmp}/afile"], 2, ["afile"]),
    R("digest-out-empty", ["digest", "--cases", "{run}/cases.jsonl", "--out", ""], 2, ["--out", "empty"]),
    R("digest-on-findings", ["digest", "--cases", "{run}/cases.jsonl", "--out", "{tmp}/dg", "--on-findings", "warn"], 2,
      ["--on-findings", "warn"]),
    R("run-on-findings", [*WORLD, "--on-findings", "warn"], 2, ["--on-findings", "warn"]),
    R("series-weights-out-typo", ["series", "weights", "weekly", "--out", "{tmp}/typo"], 2, ["typo", "not a folder"]),
    R("weights-learn-truth-missing", ["weights", "learn", "--truth", "{tmp}/none.yaml", "--to", "{tmp}/w.json"], 2,
      ["none.yaml"]),
    R("weights-learn-no-such-split", ["weights", "learn", "--truth", DEMO + "/truth.yaml", "--split", "heldout9",
                                      "--to", "{tmp}/w.json"], 2, ["heldout9", "tune"]),
    R("weights-learn-both-sources", ["weights", "learn", "--truth", DEMO + "/truth.yaml", "--overrides",
                                     "{tmp}/none.yaml", "--to", "{tmp}/w.json"], 2, ["--truth", "--overrides"]),
    R("weights-learn-overrides-no-world", ["weights", "learn", "--overrides", "{tmp}/none.yaml", "--to",
                                           "{tmp}/w.json"], 2, ["--world"]),
    R("weights-learn-to-folder", ["weights", "learn", "--truth", DEMO + "/truth.yaml", "--to", "{tmp}"], 2,
      ["--to", "is a folder"]),
    R("run-value-weights-not-json", [*WORLD, "--value-weights", "{tmp}/run_text.json"], 2,
      ["value weights", "run_text.json"]),
    R("run-value-weights-missing", [*WORLD, "--value-weights", "{tmp}/none.json"], 2, ["none.json"]),
    R("run-value-weights-series", ["run", "--series", "weekly", "--world", DEMO, "--out", "{tmp}/s",
                                   "--value-weights", "{tmp}/run_text.json"], 2, ["--value-weights", "series"]),
    R("series-publish-on-findings", ["series", "publish", "weekly", "--world", DEMO, "--out", "{tmp}/s",
                                     "--on-findings", "ignore"], 2, ["--on-findings", "ignore"]),

    # -- check (the editorial check on a digest)
    R("check-missing", ["check", "{tmp}/none.json"], 2, ["none.json"]),
    R("check-not-json", ["check", "{tmp}/run_text.json"], 2, ["run_text.json", "JSON"]),
    R("check-not-a-digest", ["check", "{run}/run.json"], 2, ["fixlore-digest/1"]),

    # -- kb
    R("kb-build-no-folder", ["kb", "build", "{tmp}/nodocs", "--index", "{tmp}/kbindex"], 2, ["nodocs", "not a folder"]),
    R("kb-build-index-is-file", ["kb", "build", "{tmp}/noworld", "--index", "{tmp}/afile"], 2, ["afile"]),
    R("kb-build-index-under-file", ["kb", "build", "{tmp}/noworld", "--index", "{tmp}/afile/kb"], 2, ["afile"]),
    R("kb-search-k-zero", ["kb", "search", "npu", "--out", "{run}", "-k", "0"], 2, ["-k"]),
    R("kb-search-k-negative", ["kb", "search", "npu", "--out", "{run}", "-k", "-5"], 2, ["-k"]),
    R("kb-search-kind", ["kb", "search", "npu", "--out", "{run}", "--kind", "bogus"], 2, ["--kind", "bogus"]),
    R("kb-search-empty-query", ["kb", "search", "", "--out", "{run}"], 2, ["empty"]),
    R("kb-search-no-index", ["kb", "search", "npu", "--index", "{tmp}/kbnone"], 2, ["kbnone"]),
    R("kb-search-default-index", ["kb", "search", "npu"], 2, [".fixlore/kb"]),
    R("kb-stats-no-index", ["kb", "stats", "--out", "{tmp}/noworld"], 2, ["kb"]),
    R("kb-calibrate-folds", ["kb", "calibrate", DEMO, "--out", "{run}", "--folds", "1"], 2, ["--folds"]),
    R("kb-calibrate-no-world", ["kb", "calibrate", "{tmp}/nowhere", "--out", "{run}"], 2, ["nowhere"]),
    R("kb-unknown-subcommand", ["kb", "rebuild"], 2, ["rebuild"]),

    # -- cases
    R("cases-missing-store", ["cases", "search", "x", "--db", "sqlite:///{tmp}/missing.db", "--case-index",
                              "{tmp}/ci"], 2, ["no store"]),
    R("cases-out-is-file", ["cases", "search", "x", "--out", "{tmp}/afile"], 2, ["afile", "not a folder"]),
    R("cases-out-no-store", ["cases", "search", "x", "--out", "{tmp}/noworld"], 2, ["no store"]),
    R("cases-k-zero", ["cases", "search", "x", "--out", "{run}", "-k", "0"], 2, ["-k"]),
    R("cases-k-huge", ["cases", "search", "x", "--out", "{run}", "-k", "100000"], 2, ["-k"]),
    R("cases-search-empty", ["cases", "search", "", "--out", "{run}"], 2, ["empty"]),
    R("cases-status-unknown", ["cases", "status", "acme/nothing#999", "--out", "{run}"], 3, ["acme/nothing#999"]),
    R("cases-status-bad-key", ["cases", "status", "not a key", "--out", "{run}"], 2, ["not a key"]),
    R("cases-related-unknown", ["cases", "related", "acme/nothing#999", "--out", "{run}"], 3, ["acme/nothing#999"]),
    R("cases-db-postgres-unreachable", ["cases", "search", "x", "--db", DEAD_PG, "--case-index", "{tmp}/ci"], 5,
      ["store"]),
    R("cases-nothing", ["cases", "search", "x"], 2, ["--out"]),
    R("cases-index-missing", ["cases", "search", "x", "--out", "{run}", "--index", "{tmp}/nokb"], 2, ["nokb"]),
    R("cases-case-index-under-file", ["cases", "search", "x", "--out", "{run}", "--case-index", "{tmp}/afile/ci"], 2,
      ["--case-index", "afile"]),
    R("cases-repo-empty", ["cases", "search", "x", "--out", "{run}", "--repo", ""], 2, ["--repo", "empty"]),
    R("cases-repo-unknown", ["cases", "search", "x", "--out", "{run}", "--repo", "nobody/none"], 3, ["nobody/none"]),

    # -- serve
    R("serve-http-port-high", ["serve", "http", "--out", "{run}", "--port", "99999"], 2, ["--port"]),
    R("serve-http-port-zero", ["serve", "http", "--out", "{run}", "--port", "0"], 2, ["--port"]),
    R("serve-http-port-negative", ["serve", "http", "--out", "{run}", "--port", "-1"], 2, ["--port"]),
    R("serve-http-host-empty", ["serve", "http", "--out", "{run}", "--host", ""], 2, ["--host", "empty"]),
    R("serve-http-out-missing", ["serve", "http", "--out", "{tmp}/nosuchrun"], 2, ["nosuchrun"]),
    R("serve-http-db-missing", ["serve", "http", "--db", "sqlite:///{tmp}/missing.db", "--case-index", "{tmp}/ci"], 2,
      ["no store"]),
    R("serve-mcp-transport", ["serve", "mcp", "--out", "{run}", "--transport", "carrier-pigeon"], 2, ["--transport"]),
    R("serve-mcp-port", ["serve", "mcp", "--out", "{run}", "--transport", "http", "--port", "70000"], 2, ["--port"]),
    R("serve-mcp-nothing", ["serve", "mcp"], 2, ["--out"]),

    # -- series
    R("series-create-no-title", ["series", "create", "weekly", "--out", "{tmp}/s"], 2, ["--title"]),
    R("series-create-since", ["series", "create", "weekly", "--title", "W", "--since", "2026-09-19T25:00",
                              "--out", "{tmp}/s"], 2, ["since"]),
    R("series-create-out-under-file", ["series", "create", "weekly", "--title", "W", "--out", "{tmp}/afile/s"], 2,
      ["afile"]),
    R("series-create-db-mysql", ["series", "create", "weekly", "--title", "W", "--db", f"mysql://u:{PW}@h/db"], 2,
      ["unsupported database"]),
    R("series-create-no-store", ["series", "create", "weekly", "--title", "W"], 2, ["--db", "--out"]),
    R("series-create-pointer", ["series", "create", "weekly", "--title", "W", "--agent-pointer", "ftp://x",
                                "--out", "{tmp}/s"], 2, ["pointer"]),
    R("series-create-top-k", ["series", "create", "weekly", "--title", "W", "--top-k", "-2", "--out", "{tmp}/s"], 2,
      ["top_k"]),
    R("series-show-out-typo", ["series", "show", "weekly", "--out", "{tmp}/typo"], 2, ["typo"]),
    R("series-show-unknown", ["series", "show", "nosuch", "--out", "{run}"], 3, ["nosuch"]),
    R("series-update-unknown", ["series", "update", "nosuch", "--title", "X", "--out", "{run}"], 3, ["nosuch"]),
    R("series-update-out-typo", ["series", "update", "weekly", "--title", "X", "--out", "{tmp}/typo"], 2, ["typo"]),
    R("series-list-out-typo", ["series", "list", "--out", "{tmp}/typo"], 2, ["typo"]),
    R("series-publish-out-typo", ["series", "publish", "weekly", "--world", DEMO, "--out", "{tmp}/typo"], 3,
      ["weekly"]),
    R("series-publish-no-source", ["series", "publish", "weekly", "--out", "{tmp}/s"], 2, ["--world"]),
    R("series-publish-as-of-live", ["series", "publish", "weekly", "--platform", "gitcode", "--as-of", SINCE,
                                    "--out", "{tmp}/s"], 2, ["--as-of"]),
    R("series-publish-since", ["series", "publish", "weekly", "--world", DEMO, "--since", "junk", "--out",
                               "{tmp}/s"], 2, ["--since"]),
    R("series-publish-db-postgres", ["series", "publish", "weekly", "--world", DEMO, "--db", DEAD_PG,
                                     "--out", "{tmp}/s"], 5, ["store"]),
    R("series-rebuild-unknown", ["series", "rebuild", "nosuch", "1", "--out", "{run}", "--to", "{tmp}/rb"], 3,
      ["nosuch"]),
    R("series-rebuild-to-file", ["series", "rebuild", "nosuch", "1", "--out", "{run}", "--to", "{tmp}/afile"], 2,
      ["afile"]),
    R("series-rebuild-number", ["series", "rebuild", "nosuch", "0", "--out", "{run}", "--to", "{tmp}/rb"], 2,
      ["NUMBER"]),
]

# Rows also run as real processes (a shell's view: stdout/stderr pipes, exit status).
SUBPROCESS = {"run-db-postgres-unreachable", "run-since-junk-time", "probe-url-userinfo-dead", "run-stage-bogus",
              "serve-http-port-zero", "series-publish-out-typo", "harvest-no-store", "kb-search-k-zero"}


def _files(folder: Path) -> dict[str, bytes | None]:
    return {str(p.relative_to(folder)): (p.read_bytes() if p.is_file() else None) for p in sorted(folder.rglob("*"))}


@pytest.fixture(scope="module")
def run_folder(demo_run) -> Path:
    return demo_run


@pytest.fixture(scope="module")
def run_files(run_folder) -> dict[str, bytes | None]:
    """The finished run's bytes when the module starts: every row must leave them so (read once,
    not before each row: 20 MB of indexes)."""
    return _files(run_folder)


@pytest.fixture
def clean_env(monkeypatch, tmp_path):
    for var in ("FIXLORE_OUT", "FIXLORE_DB", "FIXLORE_CONFIG", "FIXLORE_LOG_FILE", "FIXLORE_VERBOSE",
                "FIXLORE_KB_INDEX", "FIXLORE_LLM_BASE_URL", "FIXLORE_LLM_MODEL", "GITHUB_TOKEN"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("GITCODE_TOKEN", TOKEN)
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    monkeypatch.chdir(tmp_path)
    _prepare(tmp_path)
    return tmp_path


def _expand(text: str, tmp: Path, run: Path) -> str:
    return text.replace("{tmp}", str(tmp)).replace("{run}", str(run))


def _check(code: int, out: str, err: str, expected: int, words: tuple[str, ...], warns: int = 0) -> None:
    assert expected in EXIT_CODES
    lines = [line for line in err.splitlines() if line.strip()]
    assert code == expected, err
    assert len(lines) == 1 + warns and lines[-1].startswith("error: "), err
    assert all(line.startswith("fixlore: ") and "ignored" in line for line in lines[:-1]), err
    assert "Traceback" not in out + err
    for word in words:
        assert word in lines[-1], (word, lines[-1])
    for secret in SECRETS:
        assert secret not in out + err


@pytest.mark.timeout(120)
@pytest.mark.parametrize("argv,code,words,env,warns,may", ROWS)
def test_bad_input(argv, code, words, env, warns, may, clean_env, run_folder, run_files, monkeypatch, capsys,
                  request):
    tmp = clean_env
    for name, value in env.items():
        monkeypatch.setenv(name, _expand(value, tmp, run_folder))
    argv = [_expand(a, tmp, run_folder) for a in argv]
    before = _files(tmp)
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    out, err = capsys.readouterr()
    _check(exit_info.value.code, out, err, code, words, warns)
    after = {name: data for name, data in _files(tmp).items() if name not in may}
    assert after == before, "the failed command created or changed files"
    assert _files(run_folder) == run_files, "the failed command changed the run it read"
    if request.node.callspec.id in SUBPROCESS:
        proc = subprocess.run([sys.executable, "-m", "fixlore", *argv], capture_output=True, text=True, timeout=60,
                              cwd=tmp, env={**os.environ, "NO_COLOR": "1", "PYTHONPATH": str(ROOT / "src")})
        _check(proc.returncode, proc.stdout, proc.stderr, code, words, warns)
        after = {name: data for name, data in _files(tmp).items() if name not in may}
        assert after == before, "the failed command (a process) created or changed files"


def test_the_table_is_large_and_covers_every_command():
    import typer

    command = typer.main.get_command(app)
    argvs = [p.values[0] for p in ROWS]
    firsts = {argv[0] for argv in argvs}
    assert len(ROWS) >= 120
    assert set(command.commands) <= firsts, set(command.commands) - firsts
    for name, sub in command.commands.items():
        if hasattr(sub, "commands"):               # a group: every one of its commands is tried
            used = {argv[1] for argv in argvs if argv[0] == name}
            assert set(sub.commands) <= used, (name, set(sub.commands) - used)
    assert set(SUBPROCESS) <= {p.id for p in ROWS}
