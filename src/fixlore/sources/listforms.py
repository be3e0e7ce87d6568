"""Which query form asks a list for newest-updated first: tried in a documented order, or read from a probe.

A platform may understand one ordering form and refuse another (GitCode's pull list answers 400
to ``sort=desc``, reference gitcode-api.md §2.7). A 400 or 422 to a form is a statement about the
form, never about the repo: the next form is tried, and the one that worked is kept for the rest
of the run (one `OrderForms` per source, so per host). The last form asks for no order at all:
the list is then walked, or filtered by time where the platform can, as for any list whose order
is not proven (`sources.base.NewestFirst`).

The order (docs/harvest.md says where each form comes from):

GitCode issues  ``combined`` (every name at once: one request serves a server that reads any of
                them), ``order_by=updated_at&sort`` (seen to order live), ``sort=updated&direction``
                (documented; Perceval's Gitee backend asks it), ``order_by=updated_at&direction``, none.
GitCode pulls   ``combined``, ``order_by=updated_at&direction`` (seen to order live),
                ``sort=updated&direction`` (documented), none (``sort=desc`` is refused there).
GitHub          ``sort=updated&direction`` (documented), none.

A probe file (``fixlore probe --out FILE``) replaces the guesswork: forms it saw honoured come
first, then those that sort with the direction dropped, then the undecided in the order above;
forms it saw refused or ignored are left out. `read_probe` checks the file and says what is
wrong with it in one line.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator

from fixlore.core.errors import ConfigError
from fixlore.sources.responses import ApiError

log = logging.getLogger(__name__)

NONE = "none"
COMBINED = "combined"
REFUSING = frozenset({"400", "422"})

# name -> params asking newest-updated first (names as `fixlore probe` reports them: "order NAME").
FORMS: dict[str, dict[str, str]] = {
    COMBINED: {"order_by": "updated_at", "sort": "updated", "direction": "desc"},
    "order_by=updated_at&sort": {"order_by": "updated_at", "sort": "desc"},
    "sort=updated&direction": {"sort": "updated", "direction": "desc"},
    "order_by=updated_at&direction": {"order_by": "updated_at", "direction": "desc"},
    NONE: {},
}

DOCUMENTED_ORDER: dict[tuple[str, str], tuple[str, ...]] = {
    ("gitcode", "issues"): (COMBINED, "order_by=updated_at&sort", "sort=updated&direction",
                            "order_by=updated_at&direction", NONE),
    ("gitcode", "pulls"): (COMBINED, "order_by=updated_at&direction", "sort=updated&direction", NONE),
    ("github", "issues"): ("sort=updated&direction", NONE),
    ("github", "pulls"): ("sort=updated&direction", NONE),
}

# Probe verdicts (sources/probe.py), best first; "refused" and "ignored" take a form out.
_GOOD = ("honoured", "newest first only")
_DROP = frozenset({"refused", "ignored"})


@dataclass
class ProbeForms:
    """What a probe file says of the ordering forms: form name -> verdict, for one platform."""
    platform: str
    verdicts: dict[str, str]
    path: str = ""


def order_from_probe(documented: tuple[str, ...], verdicts: dict[str, str]) -> tuple[str, ...]:
    """The forms to try, best first: the probe's proven forms, then the undecided, then none."""
    good = [name for verdict in _GOOD for name in documented if verdicts.get(name) == verdict]
    rest = [name for name in documented
            if name not in good and name != NONE and verdicts.get(name) not in _DROP
            and (name != COMBINED or not good)]          # the catch-all is only worth a try when nothing is proven
    return tuple(good + rest + [NONE])


def read_probe(path: str | Path) -> ProbeForms:
    """Read a `fixlore probe` JSON file; ConfigError (one line) when it is missing or not a probe report."""
    where = Path(path)
    if not where.is_file():
        raise ConfigError(f"probe file not found: {where}")
    try:
        data = json.loads(where.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise ConfigError(f"probe file {where} is not readable JSON ({type(exc).__name__})") from None
    findings = data.get("findings") if isinstance(data, dict) else None
    platform = data.get("platform") if isinstance(data, dict) else None
    if not isinstance(findings, list) or platform not in ("gitcode", "github"):
        raise ConfigError(f"probe file {where} is not a `fixlore probe` report (no platform or findings)")
    verdicts: dict[str, str] = {}
    for finding in findings:
        if not isinstance(finding, dict) or not isinstance(finding.get("check"), str):
            raise ConfigError(f"probe file {where} has a finding without a check name")
        check, verdict = finding["check"], finding.get("verdict")
        if check.startswith("order ") and isinstance(verdict, str):
            verdicts[check[len("order "):]] = verdict
    return ProbeForms(platform=platform, verdicts=verdicts, path=str(where))


def check_probe_platform(probe: ProbeForms | None, platform: str) -> None:
    if probe is not None and probe.platform != platform:
        raise ConfigError(f"probe file {probe.path} describes {probe.platform}, not {platform}")


@dataclass
class OrderForms:
    """The forms one list kind of one host is asked in, and what was learned this run."""
    platform: str
    kind: str                                 # "issues" | "pulls"
    probe: ProbeForms | None = None
    order: tuple[str, ...] = ()
    at: int = 0
    refused: list[dict[str, Any]] = field(default_factory=list)

    def __post_init__(self) -> None:
        documented = DOCUMENTED_ORDER[(self.platform, self.kind)]
        self.order = order_from_probe(documented, self.probe.verdicts) if self.probe else documented

    @property
    def name(self) -> str:
        return self.order[self.at]

    @property
    def params(self) -> dict[str, str]:
        return dict(FORMS[self.name])

    def reject(self, status: Any, message: str = "") -> bool:
        """The current form was refused (400/422): move to the next; False when none is left."""
        if str(status) not in REFUSING or self.at + 1 >= len(self.order):
            return False
        self.refused.append({"list": self.kind, "form": self.name, "status": status, "message": message[:200]})
        self.at += 1
        return True

    def report(self) -> dict[str, Any]:
        out: dict[str, Any] = {"list": self.kind, "form": self.name, "tried": list(self.order[: self.at + 1])}
        if self.probe is not None:
            out["from_probe"] = self.probe.path
        if self.refused:
            out["refused"] = list(self.refused)
        return out


def ordered_pages(forms: OrderForms, pages_for: Callable[[dict[str, str]], Iterator[list[dict]]]
                  ) -> Iterator[list[dict]]:
    """The pages of a list asked in the current form; a form refused on the first page gives way to the next.

    Only the first page speaks for the form: a 400 later in the list concerns that page, and is raised.
    A list that refuses every form, no order included, refuses for a reason of its own: the forms
    are left as they were for the next list, and the error is raised.
    """
    start, noted = forms.at, len(forms.refused)
    while True:
        pages = pages_for(forms.params)
        try:
            first = next(pages, None)
        except ApiError as exc:
            refused = forms.name
            if forms.reject(exc.status, exc.message):
                log.warning("%s list: the ordering form %s was refused (HTTP %s); asking %s instead",
                            forms.kind, refused, exc.status, forms.name)
                continue
            if forms.at != start and str(exc.status) in REFUSING:
                forms.at = start
                del forms.refused[noted:]
            raise
        if first is None:
            return
        yield first
        yield from pages
        return
