"""Deck stage: spec, selection, suits and values, nr., flags, build, validate, diff."""
