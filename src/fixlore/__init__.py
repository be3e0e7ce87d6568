"""fixlore: trace closed issues to the changes that really fixed them, and publish what was learned."""

__version__ = "0.1.0"
