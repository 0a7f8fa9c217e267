"""Services: the game table (create/join/start/act/observe), rules lookup, the scheduler."""
