"""Tölp rule tests."""
