"""Scorers for the stages against gold files (see ../shared/guidelines)."""
