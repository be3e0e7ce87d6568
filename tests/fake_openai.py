"""The scripted loopback chat completions server, under the name the tests import it by (it lives
in fixlore.replay.chatscript so bench/rows.py can run it too)."""

from fixlore.replay.chatscript import FakeOpenAI, Ok, Raw, Sleep, Status, default_reply

__all__ = ["FakeOpenAI", "Ok", "Raw", "Sleep", "Status", "default_reply"]
