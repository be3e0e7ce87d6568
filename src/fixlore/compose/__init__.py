"""compose stage."""
