"""Lodestone, a multibody dynamics solver: Python package (sweeps, plots)."""
