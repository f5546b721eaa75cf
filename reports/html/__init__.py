"""HTML reports: the match report with its step-by-step viewer, and the players report."""
