"""Drawing the deck: card faces and backs, print sheets, the print-shop file, previews."""
