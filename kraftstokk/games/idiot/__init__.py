"""Idiot, the classic shedding game (RULES.md ID-1..ID-13), on the 52 plant cards.

``rules`` (predicates and tables), ``actions`` (kinds, phases, words), ``state`` (the
game and its positions), ``observation`` (what a seat may know), ``events`` (what
happened, in nb and en), ``bots``, and ``spec`` (the declaration the registry reads).
"""
