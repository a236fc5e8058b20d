"""Game engine: Idiot, Kraftidioten and Strømkrig (RULES.md), with bots."""

from kraftstokk.games.native import use_current_build

use_current_build()
