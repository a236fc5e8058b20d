"""``kraftstokk play`` on a terminal: the table redrawn at each turn, not scrolled.

At the person's turn the screen is cleared and drawn again: what happened since (the last
lines of the story), the table as their seat sees it, and the moves. Suits are in colour
where the terminal has colour (hearts and diamonds red, as on the cards). Everything the
table says comes from the game's narration, with control characters escaped (plant
names come from files); only rich's own sequences reach the terminal.
"""

from __future__ import annotations

import re
import sys
from collections import deque
from collections.abc import Sequence

from rich.console import Console, Group
from rich.panel import Panel
from rich.text import Text

from kraftstokk.terminal import printable, unguarded

#: Lines of the story kept on screen above the table.
STORY_LINES = 12
#: Card colours: hearts and diamonds (the second and fourth suits of ``models.SUITS``).
RED_SUITS = (1, 3)


class TableScreen:
    """A :class:`kraftstokk.games.play_session.Screen` for a terminal."""

    def __init__(
        self, suits: Sequence[str], console: Console | None = None, notes: Sequence[str] = ()
    ) -> None:
        self.console = console or Console(
            file=unguarded(sys.stdout), highlight=False, markup=False, emoji=False
        )
        self.title = ""  # the session's first line: the game, the seats, the seed
        self.story: deque[str] = deque(maxlen=STORY_LINES)
        self.notes = [printable(note) for note in notes]  # said before the first redraw
        red = "|".join(re.escape(suits[i]) for i in RED_SUITS)
        black = "|".join(re.escape(s) for i, s in enumerate(suits) if i not in RED_SUITS)
        # "(hearts 3)", "(hjerter dame)": a card's suit and value as the narration names it.
        self.red = re.compile(rf"\((?:{red}) [^()]+\)")
        self.black = re.compile(rf"\((?:{black}) [^()]+\)")

    def styled(self, line: str) -> Text:
        text = Text(printable(line))
        text.highlight_regex(self.red, "bold red")
        text.highlight_regex(self.black, "bold")
        return text

    def say(self, line: str) -> None:
        if not self.title:
            self.title = printable(line)
        self.console.print(self.styled(line))

    def event(self, line: str) -> None:
        self.story.append(line)
        self.console.print(self.styled(line))

    def turn(self, view: Sequence[str], moves: Sequence[str], hint: str) -> None:
        console = self.console
        console.clear()
        for note in self.notes:
            console.print(Text(note, style="dim"))
        story = Group(*(self.styled(line) for line in self.story)) if self.story else Text("")
        console.print(Panel(story, title=self.title, title_align="left", border_style="dim"))
        console.print(Group(*(self.styled(line) for line in view)))
        console.print()
        for line in moves:
            console.print(self.styled(line))
        if hint:
            console.print(self.styled(hint), style="dim")

    def ask(self, prompt: str) -> str:
        try:
            return self.console.input(Text(printable(prompt), style="bold")) + "\n"
        except EOFError:
            return ""
