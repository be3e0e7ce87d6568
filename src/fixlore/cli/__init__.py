"""The command line: the typer app and `fixlore run`."""
