"""How a case is named and worded as a knowledge-base document."""

from __future__ import annotations

from fixlore.core.model import Case


def case_doc(case: Case) -> str:
    return f"cases/{case.repo}/{case.number}"


def case_text(case: Case) -> str:
    parts = [case.title, case.problem, case.answer, case.symptom, case.first_action]
    return "\n\n".join(p.strip() for p in parts if p and p.strip())
