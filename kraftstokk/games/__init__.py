"""Game engine: Idiot, Kraftidioten and Strømkrig (RULES.md), with bots."""
