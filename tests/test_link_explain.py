from rich.console import Console

from fixlore.link.explain import render_case
from fixlore.core.model import Case, Evidence, FixRef


def test_hostile_text_is_printed_not_interpreted():
    case = Case("o/r", 7, title="[bold red]pwned[/] [link=http://evil]x[/link]",
                evidence=[Evidence("keyword", "PR body: '[blink]Fixes #7[/blink]'", "pulls/9")],
                fix=[FixRef("o/r", 9, "fix", state="merged")], traps=["stale_close"],
                trap_notes={"stale_close": "closed by [i]bot[/i]"})
    console = Console(record=True, width=160, color_system=None)
    console.print(render_case(case))
    text = console.export_text()
    assert "[bold red]pwned[/]" in text and "[blink]Fixes #7[/blink]" in text and "[i]bot[/i]" in text
    assert "!9" in text and "stale_close" in text
