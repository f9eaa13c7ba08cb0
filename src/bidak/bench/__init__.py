"""Benchmarks: scripts that print figures next to a reference measured in the same run."""
