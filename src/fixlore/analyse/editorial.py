"""The editorial pass with a model: after the cases are analysed, one request per theme (headline,
paragraph, a line per case, in Chinese and English), per repository (subtitle and positioning)
and per Chinese case (its cells in English), from the versioned prompt `editorial.v1`.

Each reply is JSON against its schema and goes through the same grounding check as a written
row (`grounding`): every identifier, number, version and PR it writes must be in the material it
was given, else one repair round, else the part is not used. An English field holding Chinese is
a failure too. A part that fails (timeout, malformed JSON, unfounded claims) falls back to the
offline wording at compose time, and the record says which and why. The record (text by part,
fallbacks, grounding counts, tokens, cost, cache hits) goes into the analyse stage's summary, so
run.json holds it and the digest can be written again from it."""

from __future__ import annotations

import json
import re
import threading
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable

from pydantic import BaseModel, ValidationError, field_validator

from fixlore.analyse.cache import AnswerCache, input_key
from fixlore.analyse.grounding import ungrounded
from fixlore.analyse.promptfile import load_prompt
from fixlore.core.model import Case
from fixlore.edges.llmclient import ChatClient
from fixlore.edges.llmclient import failure_reason as client_failure
from fixlore.rules.text import cjk_count
from fixlore.wording.facts import close_sentence, fix_sentence, pr_label


class Bullet(BaseModel):
    case: str
    zh: str = ""
    en: str = ""


class ThemeReply(BaseModel):
    headline_zh: str
    headline_en: str
    paragraph_zh: str = ""
    paragraph_en: str = ""
    bullets: list[Bullet] = []

    @field_validator("headline_zh", "headline_en")
    @classmethod
    def _sentence(cls, v: str) -> str:
        v = v.strip()
        if not v:
            raise ValueError("must not be empty")
        return v if v[-1] in "。.！!？?" else v + ("。" if cjk_count(v) else ".")


class RepoReply(BaseModel):
    subtitle_zh: str
    subtitle_en: str
    positioning_zh: str = ""
    positioning_en: str = ""


class TranslateReply(BaseModel):
    problem: str = ""
    answer: str = ""
    symptom: str = ""
    action: str = ""


SHAPES: dict[str, type[BaseModel]] = {"theme": ThemeReply, "repo": RepoReply, "translate": TranslateReply}
SCHEMAS = {kind: shape.model_json_schema() for kind, shape in SHAPES.items()}
ENGLISH = {"theme": ("headline_en", "paragraph_en"), "repo": ("subtitle_en", "positioning_en"),
           "translate": ("problem", "answer", "symptom", "action")}


class PartFailed(Exception):
    pass


def _texts(reply: BaseModel) -> list[str]:
    out = []
    for v in reply.model_dump().values():
        if isinstance(v, str):
            out.append(v)
        elif isinstance(v, list):
            out += [x.get("zh", "") + "\n" + x.get("en", "") for x in v if isinstance(x, dict)]
    return out


def _english_holds_chinese(kind: str, reply: BaseModel) -> list[str]:
    data = reply.model_dump()
    bad = [f for f in ENGLISH[kind] if cjk_count(data.get(f) or "") >= 2]
    if kind == "theme":
        bad += [f"bullet {b['case']}" for b in data["bullets"] if cjk_count(b.get("en") or "") >= 2]
    return bad


def _parse(kind: str, content: str) -> BaseModel:
    text = (content or "").strip()
    fence = re.match(r"^```(?:json)?\s*(.*?)\s*```$", text, re.S)
    try:
        data = json.loads(fence.group(1) if fence else text)
    except json.JSONDecodeError as exc:
        raise PartFailed(f"malformed reply: not JSON ({exc.msg})") from exc
    if not isinstance(data, dict):
        raise PartFailed("malformed reply: JSON is not an object")
    try:
        return SHAPES[kind].model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        raise PartFailed(f"malformed reply: invalid field {'.'.join(map(str, first['loc'])) or '-'}") from exc


def case_material(c: Case, ref: str) -> dict[str, Any]:
    """What the editor is told about one case: the analysts' fields and the pipeline's facts."""
    zh = (c.written.lang or "zh") == "zh"
    return {"key": c.key, "ref": ref, "problem": c.problem or c.title, "answer": c.written.text() or c.answer,
            "symptom": c.symptom, "action": c.written.action, "numbers": list(c.written.numbers),
            "fix": fix_sentence(c, zh), "close": close_sentence(c, zh), "timing": c.timing, "traps": c.traps,
            "fix_prs": [pr_label(f, c.repo) for f in c.fix + c.pending_fix]}


def short_ref(c: Case) -> str:
    return f"{c.repo.split('/')[-1]}#{c.number}"


class LlmEditor:
    """Writes the editorial parts with `chat`; `record()` is what the summary keeps."""

    def __init__(self, chat: ChatClient, model: str, cache: AnswerCache | None = None, repair: bool = True,
                 workers: int = 2, price_prompt: float | None = None, price_completion: float | None = None):
        self.chat, self.model = chat, model
        self.prompt = load_prompt("editorial.v1")
        self.cache = cache or AnswerCache(None)
        self.repair, self.workers = repair, max(1, workers)
        self.price_prompt, self.price_completion = price_prompt, price_completion
        self._lock = threading.Lock()
        self.grounding: Counter = Counter()
        self.tokens: Counter = Counter()
        self.requests = self.cache_hits = 0
        self.fallbacks: list[dict[str, str]] = []

    # -- one part ----------------------------------------------------------------------------
    def _ask(self, kind: str, messages: list[dict], usage: Counter) -> str:
        with self._lock:
            self.requests += 1        # asked, whether or not an answer comes
        reply = self.chat.ask(messages, SCHEMAS[kind], f"editorial_{kind}")
        usage.update({"prompt": reply.usage.get("prompt_tokens", 0), "completion": reply.usage.get("completion_tokens", 0)})
        return reply.content

    def part(self, kind: str, material: dict[str, Any], known: frozenset[int]) -> BaseModel:
        """The grounded reply for one part, or PartFailed saying why not."""
        text = json.dumps(material, ensure_ascii=False, indent=1)
        messages = [{"role": "system", "content": self.prompt.system},
                    {"role": "user", "content": self.prompt.render(task=kind, material=text)}]
        key = input_key(self.prompt.version_id, self.model, messages)
        cached = self.cache.get(key)
        if cached is not None:
            with self._lock:
                self.cache_hits += 1
            return SHAPES[kind].model_validate(cached)
        usage: Counter = Counter()
        try:
            content = self._ask(kind, messages, usage)
            reply = _parse(kind, content)
            bad = self._unfounded(reply, text, known)
            with self._lock:
                self.grounding["checked"] += 1
            if bad and self.repair:
                ask = messages + [{"role": "assistant", "content": content}, {"role": "user", "content": (
                    "These claims of your reply are not in the material: " + "; ".join(bad) + ". "
                    "Write the same JSON object again, without those claims.")}]
                try:
                    reply = _parse(kind, self._ask(kind, ask, usage))
                    bad = self._unfounded(reply, text, known)
                except PartFailed:
                    pass
                if not bad:
                    with self._lock:
                        self.grounding["repaired"] += 1
            if bad:
                with self._lock:
                    self.grounding["dropped"] += 1
                raise PartFailed("ungrounded: " + ", ".join(bad))
            chinese = _english_holds_chinese(kind, reply)
            if chinese:
                raise PartFailed("untranslated: " + ", ".join(chinese))
        except PartFailed:
            raise
        except Exception as exc:  # noqa: BLE001 - a failing part falls back to the offline wording
            raise PartFailed(client_failure(exc)) from exc
        finally:
            with self._lock:
                self.tokens.update(usage)
        self.cache.put(key, self.prompt.version_id, self.model, reply.model_dump(), dict(usage))
        return reply

    @staticmethod
    def _unfounded(reply: BaseModel, sources: str, known: frozenset[int]) -> list[str]:
        seen: list[str] = []
        for t in _texts(reply):
            for c in ungrounded(t, sources, known):
                if str(c) not in seen:
                    seen.append(str(c))
        return seen

    # -- the pass ----------------------------------------------------------------------------
    def edit(self, kept: list[Case], themes: dict[str, list[str]]) -> dict[str, Any]:
        by_key = {c.key: c for c in kept}
        jobs: list[tuple[str, str, Callable[[], dict[str, Any]]]] = []
        for theme, keys in sorted(themes.items()):
            cs = [by_key[k] for k in keys if k in by_key]
            if len(cs) >= 2:
                jobs.append(("themes", theme, lambda cs=cs, theme=theme: self._theme(theme, cs)))
        repos: dict[str, list[Case]] = {}
        for c in kept:
            repos.setdefault(c.repo, []).append(c)
        for repo, cs in sorted(repos.items()):
            jobs.append(("repos", repo, lambda cs=cs, repo=repo: self._repo(repo, cs)))
        for c in sorted(kept, key=lambda c: c.key):
            if (c.written.lang or "zh") == "zh" or cjk_count(c.problem) >= 2:
                jobs.append(("cases", c.key, lambda c=c: self._translate(c)))

        def run(job):
            kind, key, make = job
            try:
                return kind, key, make(), None
            except PartFailed as exc:
                return kind, key, None, str(exc)

        out: dict[str, Any] = {"themes": {}, "repos": {}, "cases": {}}
        with ThreadPoolExecutor(max_workers=self.workers) as pool:
            for kind, key, value, why in pool.map(run, jobs):     # map keeps the order: deterministic
                if value is None:
                    self.fallbacks.append({"part": f"{kind[:-1]} {key}", "reason": why or "?"})
                else:
                    out[kind][key] = value
        return self.record(out)

    def _theme(self, theme: str, cs: list[Case]) -> dict[str, Any]:
        material = {"theme": theme, "cases": [case_material(c, short_ref(c)) for c in cs]}
        r = self.part("theme", material, _known(cs))
        bullets = {b.case: b for b in r.bullets if b.case in {c.key for c in cs}}
        return {lang: {"headline": getattr(r, f"headline_{lang}"), "paragraph": getattr(r, f"paragraph_{lang}"),
                       "bullets": {k: getattr(b, lang) for k, b in bullets.items() if getattr(b, lang).strip()}}
                for lang in ("zh", "en")}

    def _repo(self, repo: str, cs: list[Case]) -> dict[str, Any]:
        material = {"repository": repo, "cases": [case_material(c, short_ref(c)) for c in cs]}
        r = self.part("repo", material, _known(cs))
        return {lang: {"subtitle": getattr(r, f"subtitle_{lang}"), "positioning": getattr(r, f"positioning_{lang}")}
                for lang in ("zh", "en")}

    def _translate(self, c: Case) -> dict[str, Any]:
        m = case_material(c, short_ref(c))
        material = {k: m[k] for k in ("key", "problem", "answer", "symptom", "action")}
        r = self.part("translate", material, _known([c]))
        return {"en": {k: v for k, v in r.model_dump().items() if v.strip()}}

    def record(self, parts: dict[str, Any]) -> dict[str, Any]:
        with self._lock:
            rec = {"backend": f"llm:{self.model}", "prompt_version": self.prompt.version_id,
                   "wrote": {k: len(v) for k, v in parts.items()}, **parts,
                   "fallbacks": sorted(self.fallbacks, key=lambda f: f["part"]),
                   "grounding": {k: self.grounding.get(k, 0) for k in ("checked", "repaired", "dropped")},
                   "tokens": {"prompt": self.tokens.get("prompt", 0), "completion": self.tokens.get("completion", 0)},
                   "requests": self.requests, "cache_hits": self.cache_hits}
        if self.price_prompt is not None or self.price_completion is not None:
            rec["cost"] = round(rec["tokens"]["prompt"] * (self.price_prompt or 0.0)
                                + rec["tokens"]["completion"] * (self.price_completion or 0.0), 6)
        return rec


def _known(cs: list[Case]) -> frozenset[int]:
    return frozenset([c.number for c in cs] + [f.number for c in cs for f in c.fix + c.pending_fix])
