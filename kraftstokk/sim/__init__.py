"""Playability simulation: run many seeded games, measure them, compare decks, report."""
