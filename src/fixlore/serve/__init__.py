"""serve stage: the knowledge base (cases + documents) for people and agents.

`knowledge.Knowledge` is the read-only facade; `views` shapes what it returns; `http` serves
it as a JSON API with a search page (FastAPI); `mcp` as MCP tools (the official SDK); `cli`
adds `fixlore serve ...` and `fixlore cases ...`; `stage` indexes a run's cases for search.
"""
