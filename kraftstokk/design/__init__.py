"""What the deck's checks and the drawing code both need, below both of them.

Card layouts (``layouts/*.toml`` and their loader), printer presets (``presets/*.toml``),
the card fonts, fitting a name into its box, millimetre geometry, the map outline, and
the printed form of a figure. Nothing here imports the deck, the drawing code, the games,
the simulation, the web app or the CLI (``tests/test_import_layers.py`` checks it).
"""
