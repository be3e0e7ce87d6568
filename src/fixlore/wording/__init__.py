"""The pipeline's own facts worded per language, and issue text made inert for pages and terminals."""
