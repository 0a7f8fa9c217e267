"""Observation -> PNG bytes. Pure functions; never imports discord, never sees engine states."""
