"""Generator of the worlds/ascend-2026-09 GitCode world (seed digest 16, September 2026)."""
