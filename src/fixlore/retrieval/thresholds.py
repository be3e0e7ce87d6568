"""The score threshold a reference must reach: the calibrated one in the index, else the default."""

from __future__ import annotations

import json
from pathlib import Path

from fixlore.edges.atomicfile import write_atomic
from fixlore.retrieval.schema import THRESHOLD_NAME

DEFAULT_THRESHOLD = 0.476 # used until `calibrate` saves one (see docs/kb.md)


class ThresholdMixin:
    """`KnowledgeBase`'s threshold methods (the index directory is `self.dir`)."""

    dir: Path

    def threshold(self) -> float:
        path = self.dir / THRESHOLD_NAME
        if path.exists():
            return float(json.loads(path.read_text("utf-8"))["threshold"])
        return DEFAULT_THRESHOLD

    def save_threshold(self, info: dict) -> None:
        write_atomic(self.dir / THRESHOLD_NAME, json.dumps(info, ensure_ascii=False, indent=2, sort_keys=True))
