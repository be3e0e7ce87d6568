"""`python -m fixlore …` runs the command-line interface (the same errors-as-one-line handling)."""

from fixlore.cli.commands import main

main()
