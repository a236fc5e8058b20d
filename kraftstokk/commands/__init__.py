"""CLI commands, one module per pipeline stage (registered in :mod:`kraftstokk.cli`)."""
