"""harvest stage."""
