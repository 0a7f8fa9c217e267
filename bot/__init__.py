"""Game Master: a Discord bot that runs tabletop games."""
