"""`python -m fixlore …` runs the command-line interface."""

from fixlore.cli import app

app(prog_name="fixlore")
