"""A value-weights file (`fixlore weights learn`, a series' own): read and checked once, with a
one-line error naming the file when it is not one."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from fixlore.core.errors import ConfigError


def read_weights(path: Path, relearn: str = "") -> dict[str, Any]:
    """A saved weights file (`learn`'s mapping, perhaps with the gate's `check`); ConfigError
    naming the file when it is not one (``relearn``: how to make it again)."""
    try:
        saved = json.loads(Path(path).read_text(encoding="utf-8"))
        n = len(saved["features"])
        if not (len(saved["mean"]) == len(saved["scale"]) == len(saved["coef"]) == n):
            raise ValueError("features, mean, scale and coef differ in length")
        float(saved["intercept"])
    except OSError as exc:
        raise ConfigError(f"value weights {path} cannot be read ({exc.strerror or exc})") from None
    except (ValueError, KeyError, TypeError) as exc:
        raise ConfigError(f"value weights {path} cannot be read ({exc})"
                          + (f"; learn them again with `{relearn}`" if relearn else "")) from None
    return saved
