"""Rule tests per game."""
