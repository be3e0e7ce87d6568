"""The bounds every front end (CLI, HTTP, MCP) shares, in a module light enough to import first."""

MAX_K = 50      # results per call; more is an error, never silently cut

# Relevance cut-off: a case is a hit only when its best passage shares at least a tenth of the
# query's key-term weight (retrieval.scoring's `coverage`; one distinctive term of the query is about
# a third of the coverage floor, common words stay below a tenth) or says the same thing in
# other words (a USE cosine of 0.5). Set from what the two measures mean, not fitted on a
# world; below both a "match" shares little more than common words, whatever its rank.
MIN_COVERAGE = 0.1
MIN_COSINE = 0.5


def relevant(cosine: float, coverage: float) -> bool:
    return coverage >= MIN_COVERAGE or cosine >= MIN_COSINE
