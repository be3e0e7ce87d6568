"""analyse stage."""
