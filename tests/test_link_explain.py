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


def test_a_pending_fix_is_named_by_its_state():
    """A pending fix merged after the close is not "not landed"; an open one is (issue #26)."""
    from datetime import datetime, timezone

    merged = FixRef("o/r", 145, "fix", state="merged", merged_at=datetime(2026, 9, 18, tzinfo=timezone.utc))
    case = Case("o/r", 95, title="t", pending_fix=[merged, FixRef("o/r", 146, "fix", state="open")])
    console = Console(record=True, width=160, color_system=None)
    console.print(render_case(case))
    lines = console.export_text().splitlines()
    row145 = next(line for line in lines if "!145" in line)
    row146 = next(line for line in lines if "!146" in line)
    assert "merged after the close" in row145 and "not landed" not in row145
    assert "not landed" in row146
