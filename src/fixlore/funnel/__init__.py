"""funnel stage."""
