"""The yardstick for ``bench engine``: a straightforward object-per-card engine.

Issue 2 measured the rules engine against "a straightforward object-per-card Python engine"
(and RLCard's, ~10× slower still). This is that engine, written as a competent programmer
would write it without optimising: a ``Card`` dataclass per card, lists for the hands and the
piles, the legal moves found by scanning the hand every turn, and random agents choosing
uniformly among them. It plays the official rules of the printed sheet (RULES.md, 001/004):
Skip, Reverse (a skip with two players), Draw Two, Wild, Wild Draw Four only without a card of
the colour in force, the start card's effects (a Wild Draw Four turned first goes back), draw
one card when nothing can be played and play it if it can be played, the discards reshuffled
into an empty draw pile. UNO is called for the player (no catching, no challenges): the
yardstick is a game engine, not a table.

Its agents play a card whenever they hold one, as the engine benchmark's agents do
(``unobot.bench.engine.play_random_game``), so both play hands of the same kind.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from random import Random

__all__ = ["NaiveCard", "NaiveGame", "naive_deck", "play_naive_game"]

COLORS = ("red", "yellow", "green", "blue")
ACTIONS = ("skip", "reverse", "draw2")


@dataclass(frozen=True)
class NaiveCard:
    """One physical card: ``color`` is None for the wilds; ``value`` is 0-9 or an action name."""

    color: str | None
    value: int | str

    @property
    def is_wild(self) -> bool:
        return self.color is None


def naive_deck() -> list[NaiveCard]:
    """The 108 cards: per colour one 0, two each of 1-9 and of the three actions; four Wilds
    and four Wild Draw Fours."""
    deck: list[NaiveCard] = []
    for color in COLORS:
        deck.append(NaiveCard(color, 0))
        for value in [*range(1, 10), *ACTIONS]:
            deck.append(NaiveCard(color, value))
            deck.append(NaiveCard(color, value))
    for _ in range(4):
        deck.append(NaiveCard(None, "wild"))
        deck.append(NaiveCard(None, "wild4"))
    return deck


@dataclass
class NaiveGame:
    """One hand: the state and the rules, in the plainest form."""

    players: int
    rng: Random
    hands: list[list[NaiveCard]] = field(default_factory=list)
    draw_pile: list[NaiveCard] = field(default_factory=list)
    discard: list[NaiveCard] = field(default_factory=list)
    color: str = "red"
    current: int = 0
    direction: int = 1
    winner: int | None = None
    actions: int = 0

    def deal(self) -> None:
        self.draw_pile = naive_deck()
        self.rng.shuffle(self.draw_pile)
        self.hands = [[self.draw_pile.pop() for _ in range(7)] for _ in range(self.players)]
        # The start card: a Wild Draw Four goes back into the deck and another is turned.
        while True:
            card = self.draw_pile.pop()
            if card.value != "wild4":
                break
            self.draw_pile.insert(self.rng.randrange(len(self.draw_pile) + 1), card)
        self.discard = [card]
        self.current = 0  # the player to the dealer's left (the dealer is the last seat)
        if card.is_wild:
            self.color = self.rng.choice(COLORS)  # the first player names it
        else:
            self.color = card.color  # type: ignore[assignment]
            if card.value == "skip":
                self.current = self.next_player()
            elif card.value == "reverse":
                self.direction = -1
                self.current = self.players - 1  # the dealer starts, the other way
            elif card.value == "draw2":
                self.draw(self.current, 2)
                self.current = self.next_player()

    def next_player(self, steps: int = 1) -> int:
        return (self.current + self.direction * steps) % self.players

    def can_play(self, card: NaiveCard, hand: list[NaiveCard]) -> bool:
        top = self.discard[-1]
        if card.value == "wild4":
            return not any(c.color == self.color for c in hand)
        if card.is_wild:
            return True
        return card.color == self.color or card.value == top.value

    def legal_moves(self, player: int) -> list[NaiveCard]:
        hand = self.hands[player]
        return [c for c in hand if self.can_play(c, hand)]

    def draw(self, player: int, count: int) -> list[NaiveCard]:
        got = []
        for _ in range(count):
            if not self.draw_pile:
                if len(self.discard) < 2:
                    break
                top = self.discard.pop()
                self.draw_pile = self.discard
                self.rng.shuffle(self.draw_pile)
                self.discard = [top]
            card = self.draw_pile.pop()
            self.hands[player].append(card)
            got.append(card)
        return got

    def play(self, player: int, card: NaiveCard) -> None:
        if card not in self.legal_moves(player):
            raise ValueError(f"{card} can't be played now")
        self.hands[player].remove(card)
        self.discard.append(card)
        self.actions += 1
        if card.is_wild:
            self.color = self.rng.choice(COLORS)  # the random agent names a colour
        else:
            self.color = card.color  # type: ignore[assignment]
        if not self.hands[player]:
            self.winner = player
            return
        if card.value == "skip":
            self.current = self.next_player(2)
        elif card.value == "reverse":
            self.direction = -self.direction
            self.current = self.next_player(2 if self.players == 2 else 1)
        elif card.value == "draw2":
            self.draw(self.next_player(), 2)
            self.current = self.next_player(2)
        elif card.value == "wild4":
            self.draw(self.next_player(), 4)
            self.current = self.next_player(2)
        else:
            self.current = self.next_player()

    def turn(self) -> None:
        """The player to move plays a random legal card; with none they draw one and play it
        or keep it (a random choice) when it can be played."""
        player = self.current
        moves = self.legal_moves(player)
        if moves:
            self.play(player, self.rng.choice(moves))
            return
        got = self.draw(player, 1)
        self.actions += 1
        if got and self.can_play(got[0], self.hands[player]) and self.rng.random() < 0.5:
            self.play(player, got[0])
        else:
            self.actions += 1  # keeps it: passes
            self.current = self.next_player()


def play_naive_game(players: int, rng: Random) -> NaiveGame:
    """One complete hand between random agents; the finished game."""
    game = NaiveGame(players, rng)
    game.deal()
    while game.winner is None:
        game.turn()
    return game
