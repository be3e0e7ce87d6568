"""Prompt files live in analyse/prompts/<name>.v<N>.md with `## system` and `## user` sections.
The version id (name, version and a digest of the text) goes into the cache key, so editing a
prompt invalidates exactly the answers it produced."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from importlib import resources

from fixlore.core.errors import ConfigError


@dataclass(frozen=True, slots=True)
class Prompt:
    name: str            # "analyse_case.v1"
    system: str
    user: str
    digest: str          # first 12 hex of sha256 of the file

    @property
    def version_id(self) -> str:
        return f"{self.name}@{self.digest}"

    def render(self, **fields: str) -> str:
        # plain substitution of {field} markers: issue text may hold braces of its own
        out = self.user
        for k, v in fields.items():
            out = out.replace("{" + k + "}", v)
        return out


def load_prompt(name: str = "analyse_case.v1") -> Prompt:
    try:
        text = resources.files("fixlore.analyse").joinpath("prompts", f"{name}.md").read_text("utf-8")
    except FileNotFoundError as exc:
        raise ConfigError(f"no prompt file analyse/prompts/{name}.md") from exc
    m = re.search(r"^## system\s*\n(.*?)^## user\s*\n(.*)\Z", text, re.S | re.M)
    if not m:
        raise ConfigError(f"prompt {name}: needs '## system' and '## user' sections")
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]
    return Prompt(name=name, system=m.group(1).strip(), user=m.group(2).strip(), digest=digest)
