"""The shared rules: decisions more than one stage makes, kept once, below every stage.

A stage consumes these; none owns them. References in text (`refs`), bots and stale notices
(`bots`), the best answer in an issue's replies (`answers`), text helpers (`text`), and the
funnel's rule set (`funnel`: which issues are in the pool, how a case is valued) that the
harvester and the linker both run. Pure logic over model objects and strings: no I/O, no store.
"""
