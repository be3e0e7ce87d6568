"""The cases: each case's conclusions as the case export (one JSON document, what the stages
read back) and as rows a reader can query."""

from __future__ import annotations

from typing import Iterable

import sqlalchemy as sa

from fixlore import model as m
from fixlore.store import schema as t
from fixlore.store.rows import _jsonable, _now, upsert


class CaseConclusions:
    """`Store`'s cases (a mixin: it needs ``self.engine``)."""

    engine: sa.Engine

    def save_cases(self, cases: Iterable[m.Case], run_id: int | None = None) -> int:
        rows = [{"repo": c.repo, "number": c.number, "funnel": c.funnel, "export": _jsonable(c.to_export()),
                 "run_id": run_id, "updated_at": _now()} for c in cases]
        with self.engine.begin() as conn:
            upsert(conn, t.cases, rows)
        return len(rows)

    def load_cases(self) -> list[m.Case]:
        with self.engine.connect() as conn:
            rows = conn.execute(sa.select(t.cases.c.export).order_by(t.cases.c.repo, t.cases.c.number))
            return [m.Case.from_export(r.export) for r in rows if r.export]

