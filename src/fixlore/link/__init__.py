"""link stage."""
