"""The engine protocol every game implements (no discord, no I/O, no clock, no global random)."""
