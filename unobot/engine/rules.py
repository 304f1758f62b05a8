"""House rules as data: one frozen value holds every option the source documents disagree on.

Each rule set in ``shared/RULES.md`` is a preset of the same engine, so a channel can start from a
preset and change one option with ``dataclasses.replace`` (``HouseRules.with_option`` parses the
text a player types for it).
"""

# translations: domain("commands")  (the message ids of its errors, marked N_)

from __future__ import annotations

import dataclasses
import difflib
from dataclasses import dataclass
from enum import Enum
from typing import Any, Final

from unobot.engine.errors import N_, RuleError

__all__ = [
    "HIDDEN",
    "PRESETS",
    "PRESET_ALIASES",
    "AfterDraw",
    "CatchWindow",
    "Deck",
    "FirstPlayer",
    "HouseRules",
    "NoPlayableCard",
    "Scoring",
    "Stacking",
    "StartCard",
    "TeamGame",
    "UnoCall",
    "partner",
    "preset",
    "preset_name",
    "team_of",
    "team_scores",
    "teammates",
]


class FirstPlayer(Enum):
    """Who starts a hand."""

    LEFT_OF_DEALER = "left-of-dealer"
    """The player after the dealer (001, 002, 004); the dealer moves on one seat each hand."""
    HIGHEST_CARD = "highest-card"
    """Everyone draws a card, the highest number starts; specials ignored, redraw on ties (000)."""
    RANDOM = "random"


class StartCard(Enum):
    """What the first card turned up does."""

    OFFICIAL = "official"
    """Skip/Draw Two hit the first player, Reverse: the dealer starts the other way, Wild: the
    first player names the colour, Wild Draw Four: back in the deck and redraw (001, 004)."""
    REDRAW_WILDS = "redraw-wilds"
    """A Wild or Wild Draw Four is replaced by another card; action cards act as OFFICIAL (000)."""
    REDRAW_SPECIALS = "redraw-specials"
    """Only a number card may start the pile: anything else is replaced."""


class NoPlayableCard(Enum):
    """What a player does when they cannot (or choose not to) play."""

    DRAW_ONE = "draw-one"
    """Draw one card; what may follow is set by ``AfterDraw`` (001, 003, 004)."""
    DRAW_UNTIL_PLAYABLE = "draw-until-playable"
    """Draw until a playable card comes, then play it (000)."""
    DRAW_ONE_END_TURN = "draw-one-end-turn"
    """Draw one card and the turn ends (001: "pick one card up and skip their turn")."""


class AfterDraw(Enum):
    """What a player may do after drawing one card (with ``NoPlayableCard.DRAW_ONE``)."""

    DRAWN_CARD_MAY = "drawn-card-may"
    """May play the drawn card if it can be played, or keep it and pass (002, 004)."""
    DRAWN_CARD_MUST = "drawn-card-must"
    """Must play the drawn card if it can be played (000)."""
    ANY_CARD = "any-card"
    """May play any playable card from the hand, or pass (the original IRC bot, 003)."""


class Stacking(Enum):
    """Whether a draw card can be answered with another to pass the total on."""

    NONE = "none"
    """Take the consequences (002, official)."""
    SAME = "same"
    """+2 on +2 and +4 on +4, never mixed; the total carries on (000, 004's house rule)."""
    ANY = "any"
    """Any draw card on any draw card (a common house rule)."""
    HIGHER = "higher"
    """A draw card on one that draws as many or fewer, whatever its colour (No Mercy: +4 on
    +2, +6 on +4, +10 on anything; +2 never on +4)."""


class Deck(Enum):
    """Which cards are dealt."""

    CLASSIC = "classic"
    """The 108-card deck (``full_deck``)."""
    NO_MERCY = "no-mercy"
    """The 168 cards of UNO Show 'em No Mercy (``no_mercy_deck``)."""
    FLIP = "flip"
    """The 112 double-sided cards of UNO Flip (``unobot.engine.flip``): a game of its own
    (``FlipGame``), played by the table's Flip adapter (``unobot.core.flip_table``)."""


class UnoCall(Enum):
    """How "UNO" is called when a player goes down to one card."""

    AUTO = "auto"
    """The bot calls it for them (the original IRC bot)."""
    MANUAL = "manual"
    """The player calls it; others may catch a missed call within ``catch_window``."""


class CatchWindow(Enum):
    """Until when a missed UNO call can be caught."""

    NEXT_TURN = "next-turn"
    """Until the next player begins their turn by drawing or playing (001, 002, 004)."""
    NEXT_CARD = "next-card"
    """Until the next card is played by anyone ("HALT!", 000)."""


class Scoring(Enum):
    """Who gets the points left in the losers' hands."""

    WINNER_COLLECTS = "winner-collects"
    """The hand's winner scores everyone else's cards; first to ``target_score`` wins."""
    OWN_POINTS = "own-points"
    """Each player keeps the points of their own cards; low is good; the lowest total wins."""


class TeamGame(Enum):
    """How a teams game (``HouseRules.teams``) makes its teams (the 1993 Mattel/International
    Games sheet has both: "partners" for four, and a team game for 4, 6, 8 and 10)."""

    PAIRS = "pairs"
    """Teams of two, partners sitting opposite: 4 or 6 players (two or three pairs)."""
    TWO_TEAMS = "two-teams"
    """Two teams of equal size, seats alternating between them (A B A B ...): 4, 6, 8 or 10
    players (the sheet: "two teams, seats alternating")."""


HIDDEN = frozenset({"name", "legacy_no_mercy"})
"""``HouseRules`` fields that are no rule option: never set by text, stored or listed."""

DECK_SIZE = 108
"""Cards in one deck (``unobot.engine.cards.full_deck``)."""

TEAM_SIZES = (4, 6)
"""Player counts a game in pairs is dealt to: two or three pairs."""

TWO_TEAM_SIZES = (4, 6, 8, 10)
"""Player counts a game of two teams is dealt to (the 1993 sheet's 4, 6, 8 and 10)."""

_START_REFUSED = {StartCard.OFFICIAL: 4, StartCard.REDRAW_WILDS: 8, StartCard.REDRAW_SPECIALS: 32}
"""Cards of one deck that each start-card rule puts back (Wild Draw Fours are never kept)."""
NO_MERCY_DECK_SIZE = 168
_NO_MERCY_REFUSED = {
    StartCard.OFFICIAL: 0,
    StartCard.REDRAW_WILDS: 24,
    StartCard.REDRAW_SPECIALS: 88,
}
"""The same for the No Mercy deck (24 wilds, 88 cards that aren't numbers)."""
FLIP_DECK_SIZE = 112
FLIP_REFUSED = 40
"""UNO Flip's start card is a number of the light side: 40 of its faces are not."""
FLIP_OPTIONS = frozenset({"target_score", "hand_size", "min_players", "max_players"})
"""The options a Flip game may change: its engine plays the sheet's rules, and only these."""


_TOO_FEW: dict[tuple[bool, bool], str] = {
    (True, False): N_(
        "{players} players with {hand_size} cards each leave {left} of {cards} cards, "
        "too few to turn a start card ({start_card}): hand_size {most} at most"
    ),
    (False, False): N_(
        "{players} players with {hand_size} cards each leave {left} of {cards} cards, "
        "too few to turn a start card ({start_card}): fewer players"
    ),
    (True, True): N_(
        "{players} players with {hand_size} cards each leave {left} of {cards} cards, "
        "too few to turn a start card ({start_card}): hand_size {most} at most, or "
        "max_players {max_players}"
    ),
    (False, True): N_(
        "{players} players with {hand_size} cards each leave {left} of {cards} cards, "
        "too few to turn a start card ({start_card}): fewer players, or max_players "
        "{max_players}"
    ),
}
"""Rules that can't deal a hand (:meth:`HouseRules.validate`): what would fix them."""


@dataclass(frozen=True, slots=True)
class HouseRules:
    """Every rule option, with the official game as the default."""

    name: str = "official"
    first_player: FirstPlayer = FirstPlayer.LEFT_OF_DEALER
    start_card: StartCard = StartCard.OFFICIAL
    start_card_effects: bool = True
    """Does a Skip, Reverse or Draw Two start card act on the first player (001, 004)? Off: it
    only starts the pile, and the first player plays on it, clockwise (000: "the highest-card
    player from setup goes first, play continues clockwise")."""
    no_playable: NoPlayableCard = NoPlayableCard.DRAW_ONE
    after_draw: AfterDraw = AfterDraw.DRAWN_CARD_MAY
    voluntary_draw: bool = True
    """May a player draw while holding a playable card? Mattel's sheet (T8231): "You may also
    choose NOT to play a playable card from your hand. If so, you must draw a card from the DRAW
    pile. If playable, that card can be put down in the same turn, however you may not play any
    other card from your hand after the draw" (with ``AfterDraw.DRAWN_CARD_MAY``: only the
    drawn card). The original IRC bot (003) takes ``.draw`` on your turn whatever you hold, and
    then any card or ``.pass`` (``AfterDraw.ANY_CARD``); 002 allows it too. Off: ``.draw`` is
    refused while you hold a card you can play (ocuk-tournament, knockout and no-mercy keep
    that reading: their sheets speak only of drawing for want of a match, 001's "when in
    need")."""
    stacking: Stacking = Stacking.NONE
    wd4_challenge: bool = True
    """With a challenge the Wild Draw Four may be played as a bluff and challenged; without one
    the engine refuses a Wild Draw Four while the player holds the current colour."""
    challenge_guilty_draw: int = 4
    """Cards the bluffer draws when a challenge succeeds (the victim then plays normally)."""
    challenge_innocent_extra: int = 2
    """Cards a wrong challenger draws on top of the pending total; they also lose the turn."""
    uno_call: UnoCall = UnoCall.MANUAL
    uno_penalty: int = 2
    catch_window: CatchWindow = CatchWindow.NEXT_TURN
    late_uno_call: bool = True
    """May a player who laid their next-to-last card without calling UNO still call it, safe
    until caught (002: "calls Uno! before any other player catches them, is safe")? Off: UNO
    is said with or before the card, and a missed call can only be caught (000)."""
    false_uno_penalty: int = 0
    """Cards drawn for calling UNO while holding more than one card (001: 3); 0 = just refused."""
    illegal_play_penalty: int = 0
    """Cards drawn for trying a card that can't be played (001: 2); 0 = just refused."""
    target_score: int = 500
    """Match ends when a total reaches this; 0 = a single hand."""
    scoring: Scoring = Scoring.WINNER_COLLECTS
    time_limit_minutes: int = 0
    """A timed match (001: 60, 002: a round); 0 = untimed. The table owns the clock."""
    min_players: int = 2
    max_players: int = 10
    hand_size: int = 7
    double_deck_above: int = 0
    """Play with two decks above this many players (the original IRC bot: 4); 0 = never."""
    extra_hand_if_first: bool = False
    """If the target is reached in the very first hand, one more hand is played and everyone
    at or above the target then wins (000: both go through to the final)."""
    warning_ends_round: bool = False
    """In a timed match, once the time warning is given, the hand in play is the last: when it
    ends, so does the match (002: "if the round warning has been given, do not start another
    game"). The table owns the clock and applies this."""
    teams: bool = False
    """Team play, in the teams ``team_game`` makes: a player going out wins the hand for the
    team, which scores the cards in the opponents' hands (a teammate's cards don't count);
    every teammate is credited the same, so a seat's total is its team's and the match is won
    by a team (:func:`team_scores`)."""
    team_game: TeamGame = TeamGame.PAIRS
    """With ``teams``: pairs (4 or 6 players, partners opposite: seat ``s`` and
    ``s + players/2``) or two teams (4, 6, 8 or 10 players, seats alternating: the even seats
    against the odd). Either way seat ``s`` plays for team ``s % team_count(players)``."""
    seven_o: bool = False
    """Seven-O: a 7 swaps hands with a player of the mover's choice, a 0 passes every hand to
    the next player in the direction of play; a 7 or 0 played as the last card just goes out.
    A one-card hand that arrives by a swap or rotation needs no UNO call and can't be caught
    (see docs/rules.md for why)."""
    jump_in: bool = False
    """Jump-In: a player holding the very card on top (same colour and value, not a wild) may
    play it out of turn, until the next turn action is accepted; play goes on from them. A
    card played by jumping in can't itself be jumped, so the first jump read wins a race."""

    deck: Deck = Deck.CLASSIC
    mercy_limit: int = 0
    """No Mercy's mercy rule: a player holding this many cards or more is out of the hand at
    once (their cards go under the discard pile); the last one standing wins it. 0 = off."""
    mercy_bonus: int = 0
    """Points the hand's winner scores for each player the mercy rule knocked out during the
    hand (No Mercy's sheet: "250 Points for each player knocked out of the game during the
    hand"), on top of the cards left in the others' hands; winner-collects scoring only."""
    legacy_no_mercy: bool = False
    """Not an option players set: No Mercy as this bot played it before journal version 4
    (the Roulette's colour named by its player, a Reverse or Wild Reverse Draw Four acting as
    with more players when two are left of more, a final draw card still drawn). The journal
    sets it to replay a game journaled then (``unobot.core.journal``); never stored, listed
    or compared as a difference (:data:`HIDDEN`)."""

    @property
    def deck_size(self) -> int:
        if self.deck is Deck.FLIP:
            return FLIP_DECK_SIZE
        return NO_MERCY_DECK_SIZE if self.deck is Deck.NO_MERCY else DECK_SIZE

    @property
    def flip(self) -> bool:
        """UNO Flip: the table deals a ``FlipGame`` (its own rules, not these options)."""
        return self.deck is Deck.FLIP

    def _refused(self) -> int:
        if self.deck is Deck.FLIP:
            return FLIP_REFUSED
        if self.deck is Deck.NO_MERCY:
            return _NO_MERCY_REFUSED[self.start_card]
        return _START_REFUSED[self.start_card]

    def decks_for(self, players: int) -> int:
        return 2 if self.double_deck_above and players > self.double_deck_above else 1

    def deal_problem(self, players: int) -> str:
        """Why a hand for ``players`` can't be dealt under these rules (empty if it can).

        After the deal the draw pile must hold a card the start-card rule accepts, whatever
        the shuffle: more cards than the rule can refuse (4 Wild Draw Fours a deck, 8 wilds,
        or 32 wilds and action cards). Fewer, and turning a start card could go on for ever.
        A teams game also needs 4 or 6 players (:meth:`team_problem`).
        """
        return self.team_problem(players) or self._cards_problem(players)

    def team_problem(self, players: int) -> str:
        """Why ``players`` can't play these rules' teams (empty if they can)."""
        if self.teams and players not in self.team_sizes:
            if self.team_game is TeamGame.TWO_TEAMS:
                return f"two teams are played by 4, 6, 8 or 10 players, not {players}"
            return f"teams of two are played by 4 or 6 players, not {players}"
        return ""

    @property
    def team_sizes(self) -> tuple[int, ...]:
        """The player counts these rules' teams are dealt to (every count without teams)."""
        if not self.teams:
            return tuple(range(2, 11))
        return TWO_TEAM_SIZES if self.team_game is TeamGame.TWO_TEAMS else TEAM_SIZES

    def team_count(self, players: int) -> int:
        """How many teams ``players`` make: seat ``s`` plays for team ``s % team_count``
        (0: no teams). Pairs: ``players / 2`` teams; two teams: 2."""
        if not self.teams:
            return 0
        return 2 if self.team_game is TeamGame.TWO_TEAMS else players // 2

    def _cards_problem(self, players: int) -> str:
        if self.hand_size <= self.max_hand_size(players):
            return ""
        cards = self.deck_size * self.decks_for(players)
        left = max(cards - players * self.hand_size, 0)
        return (
            f"{players} players with {self.hand_size} cards each leave {left} of {cards} "
            f"cards, too few to turn a start card ({self.start_card.value})"
        )

    def max_hand_size(self, players: int) -> int:
        """The most cards each of ``players`` can be dealt (see :meth:`deal_problem`)."""
        decks = self.decks_for(players)
        return (self.deck_size * decks - self._refused() * decks - 1) // players

    def differences(self, other: HouseRules | None = None) -> dict[str, Any]:
        """Options that differ from ``other`` (by default, from this rule set's named preset)."""
        base = other if other is not None else PRESETS.get(self.name, HouseRules())
        return {
            f.name: getattr(self, f.name)
            for f in dataclasses.fields(self)
            if f.name not in HIDDEN and getattr(self, f.name) != getattr(base, f.name)
        }

    def with_option(self, option: str, value: str) -> HouseRules:
        """A copy with one option set from text (``stacking same``, ``target_score 251``)."""
        key = option.strip().lower().replace("-", "_")
        fields = {f.name: f for f in dataclasses.fields(self) if f.name not in HIDDEN}
        if key not in fields:
            close = difflib.get_close_matches(key, fields, 1)
            if close:
                raise RuleError(
                    N_("no rule option '{option}' (did you mean {close}?)"),
                    option=option[:30],
                    close=close[0],
                )
            raise RuleError(
                N_("no rule option '{option}'; options: {options}"),
                option=option[:30],
                options=", ".join(fields),
            )
        kind = type(getattr(self, key))
        text = value.strip().lower()
        parsed: Any
        if issubclass(kind, Enum):
            choices = {m.value: m for m in kind}
            if text not in choices:
                raise RuleError(N_("{key} is one of: {choices}"), key=key,
                                choices=", ".join(choices))  # fmt: skip
            parsed = choices[text]
        elif kind is bool:
            if text not in ("on", "off", "yes", "no", "true", "false", "1", "0"):
                raise RuleError(N_("{key} is on or off"), key=key)
            parsed = text in ("on", "yes", "true", "1")
        else:
            if not text.isdecimal() or len(text) > 5:  # isdigit() takes "²": int() does not
                raise RuleError(N_("{key} is a whole number"), key=key)
            parsed = int(text)
        new = dataclasses.replace(self, **{key: parsed})
        new.validate()
        return new

    def validate(self) -> None:
        """Raise ValueError for combinations no game can be played with."""
        if not 2 <= self.min_players <= self.max_players <= 10:
            raise RuleError(N_("players per table must satisfy 2 <= min <= max <= 10"))
        if not 1 <= self.hand_size <= 15:
            raise RuleError(N_("hand size is 1 to 15"))
        counts = range(self.min_players, self.max_players + 1)
        failing = [n for n in counts if self._cards_problem(n)]
        if failing:
            most = min(self.max_hand_size(n) for n in counts)
            smaller = failing[0] > self.min_players
            players = failing[0]
            cards = self.deck_size * self.decks_for(players)
            facts = {
                "players": players,
                "hand_size": self.hand_size,
                "left": max(cards - players * self.hand_size, 0),
                "cards": cards,
                "start_card": self.start_card.value,
                "most": most,
                "max_players": players - 1,
            }
            raise RuleError(_TOO_FEW[most >= 1, smaller], **facts)
        if not 0 <= self.mercy_bonus <= 1000:
            raise RuleError(N_("mercy_bonus is 0 to 1000"))
        if self.mercy_limit and not self.hand_size < self.mercy_limit <= 200:
            raise RuleError(N_("mercy_limit is 0 (off) or more than hand_size, up to 200"))
        if self.mercy_limit and (self.teams or self.jump_in):
            raise RuleError(N_("the mercy rule is not played with teams or jump_in"))
        if self.deck is Deck.FLIP:
            flip = PRESETS.get("flip")
            if flip is not None and set(self.differences(flip)) - FLIP_OPTIONS:
                raise RuleError(
                    N_("UNO Flip plays its own rules: only {options} can change"),
                    options=", ".join(sorted(FLIP_OPTIONS)),
                )
        if self.deck is Deck.NO_MERCY and self.jump_in:
            raise RuleError(N_("jump_in is not played with the no-mercy deck"))
        if self.teams and not any(n in self.team_sizes for n in counts):
            if self.team_game is TeamGame.TWO_TEAMS:
                raise RuleError(
                    N_("two teams need 4, 6, 8 or 10 players: min_players 4, max_players 10")
                )
            raise RuleError(N_("teams of two need 4 or 6 players: min_players 4, max_players 6"))
        for name in (
            "uno_penalty",
            "false_uno_penalty",
            "illegal_play_penalty",
            "challenge_guilty_draw",
            "challenge_innocent_extra",
        ):
            if not 0 <= getattr(self, name) <= 10:
                raise RuleError(N_("{name} is 0 to 10"), name=name)


NO_MERCY: Final = HouseRules(
    name="no-mercy",
    deck=Deck.NO_MERCY,
    start_card=StartCard.REDRAW_SPECIALS,
    no_playable=NoPlayableCard.DRAW_UNTIL_PLAYABLE,
    after_draw=AfterDraw.DRAWN_CARD_MUST,
    voluntary_draw=False,
    stacking=Stacking.HIGHER,
    wd4_challenge=False,
    seven_o=True,
    mercy_limit=25,
    mercy_bonus=250,
    target_score=0,
    max_players=6,
)
"""Mattel's No Mercy sheet (HVW18); ``no-mercy-1000`` is the same with its optional scoring
("When a player reaches 1000 points, they are the winner"), made from it, not written twice."""


PRESETS: dict[str, HouseRules] = {
    "official": HouseRules(),
    "irc-classic": HouseRules(
        name="irc-classic",
        start_card=StartCard.OFFICIAL,
        after_draw=AfterDraw.ANY_CARD,
        wd4_challenge=False,
        uno_call=UnoCall.AUTO,
        target_score=0,
        double_deck_above=4,
    ),
    "ocuk-tournament": HouseRules(
        name="ocuk-tournament",
        first_player=FirstPlayer.HIGHEST_CARD,
        start_card=StartCard.REDRAW_WILDS,
        no_playable=NoPlayableCard.DRAW_UNTIL_PLAYABLE,
        after_draw=AfterDraw.DRAWN_CARD_MUST,
        voluntary_draw=False,
        start_card_effects=False,
        stacking=Stacking.SAME,
        wd4_challenge=False,
        uno_penalty=4,
        catch_window=CatchWindow.NEXT_CARD,
        late_uno_call=False,
        target_score=251,
        extra_hand_if_first=True,
        min_players=3,
    ),
    "bac-tournament": HouseRules(
        name="bac-tournament",
        voluntary_draw=True,
        wd4_challenge=False,
        target_score=0,
        scoring=Scoring.OWN_POINTS,
        min_players=4,
        max_players=5,
        warning_ends_round=True,
    ),
    "knockout": HouseRules(
        name="knockout",
        after_draw=AfterDraw.DRAWN_CARD_MUST,
        voluntary_draw=False,
        challenge_innocent_extra=2,
        false_uno_penalty=3,
        illegal_play_penalty=2,
        target_score=0,
        scoring=Scoring.OWN_POINTS,
        time_limit_minutes=60,
        max_players=4,
    ),
    "pairs": HouseRules(
        name="pairs",
        teams=True,
        min_players=4,
        max_players=6,
    ),
    "two-teams": HouseRules(
        name="two-teams",
        teams=True,
        team_game=TeamGame.TWO_TEAMS,
        min_players=4,
        max_players=10,
    ),
    "seven-o": HouseRules(name="seven-o", seven_o=True),
    "jump-in": HouseRules(name="jump-in", jump_in=True),
    "no-mercy": NO_MERCY,
    "no-mercy-1000": dataclasses.replace(NO_MERCY, name="no-mercy-1000", target_score=1000),
    "flip": HouseRules(  # the UNO call as ``official`` (the engine plays it: unobot.engine.flip)
        name="flip",
        deck=Deck.FLIP,
        target_score=500,
    ),
    "house": HouseRules(
        name="house",
        seven_o=True,
        jump_in=True,
        stacking=Stacking.SAME,
        wd4_challenge=False,
    ),
}


PRESET_ALIASES: dict[str, str] = {"teams": "pairs", "partners": "pairs"}
"""Other names a preset answers to: ``teams`` was the pairs preset's name before the game of
two teams came, so channel rules stored under it and ``.uno teams`` still mean pairs."""


def preset_name(name: str) -> str | None:
    """The preset ``name`` stands for (its own name or an alias), or None."""
    key = name.strip().lower()
    key = PRESET_ALIASES.get(key, key)
    return key if key in PRESETS else None


def partner(seat: int, players: int) -> int:
    """The seat of ``seat``'s partner in a game of pairs of ``players`` (sitting opposite)."""
    return (seat + players // 2) % players


def team_of(seat: int, players: int) -> int:
    """A pair's number (0 .. players/2 - 1): the lower of its two seats."""
    return seat % (players // 2)


def teammates(seat: int, players: int, count: int) -> tuple[int, ...]:
    """The seats of ``seat``'s team, ``seat`` included, of ``count`` teams (seat ``s`` plays
    for team ``s % count``: :meth:`HouseRules.team_count`)."""
    return tuple(range(seat % count, players, count))


def team_scores(
    winner: int, points: tuple[int, ...], scoring: Scoring, count: int = 0
) -> tuple[int, ...]:
    """What each seat scores for a teams hand that ``winner`` went out of (``points``: the
    card points left in each seat's hand; ``count``: how many teams, seat ``s`` in team
    ``s % count``; 0: pairs, ``len(points) / 2``).

    Winner collects: the winning team scores the cards in the opponents' hands (a teammate's
    don't count) and every teammate is credited the same, so a seat's total is its team's.
    Own points: each seat scores its team's cards (its own and its teammates').
    """
    n = len(points)
    k = count or n // 2
    if scoring is Scoring.WINNER_COLLECTS:
        team = winner % k
        won = sum(p for s, p in enumerate(points) if s % k != team)
        return tuple(won if s % k == team else 0 for s in range(n))
    sums = [0] * k
    for s, p in enumerate(points):
        sums[s % k] += p
    return tuple(sums[s % k] for s in range(n))


def preset(name: str) -> HouseRules:
    """A named preset (or an alias of one: :data:`PRESET_ALIASES`); ValueError naming the
    choices for anything else."""
    try:
        return PRESETS[preset_name(name) or name.strip().lower()]
    except KeyError:
        raise RuleError(
            N_("no preset '{name}'; presets: {presets}"), name=name[:30], presets=", ".join(PRESETS)
        ) from None
