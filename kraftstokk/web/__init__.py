"""``kraftstokk serve``: the three games in a browser, on the engine (see :mod:`.app`)."""
