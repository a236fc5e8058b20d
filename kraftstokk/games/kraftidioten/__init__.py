"""Kraftidioten, the bluffing game of claims (RULES.md KI-1..KI-9), on all 55 cards.

``rules`` (constants and predicates), ``actions`` (kinds, phases, words), ``state`` (the
game and its positions), ``observation`` (what a seat may know), ``events`` (what
happened, in nb and en), ``bots``, and ``spec`` (the declaration the registry reads).
"""
