"""A run's settings (one precedence rule) and the context every stage receives."""
