"""twentynine."""
