"""Thin discord.py adapters: each turns an interaction into a service call and a reply."""
