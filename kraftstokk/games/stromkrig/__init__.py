"""Strømkrig, the power war (RULES.md SK-1..SK-14), with all 55 cards.

``rules`` (the card predicates, shared with the deck flags and the booklet), ``actions``
(kinds, phases, words), ``state`` (the game and its positions), ``observation`` (what a
seat may know), ``events`` (what happened, in nb and en), ``bots``, and ``spec`` (the
declaration the registry reads).
"""
