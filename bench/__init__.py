"""Benchmarks of the game services, run through management commands (not timed tests)."""
