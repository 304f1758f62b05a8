"""Helpers for the exact rule tests: positions from notation, snapshots, refused actions."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from random import Random
from typing import Any

import pytest

from unobot.engine import PRESETS, Event, Game, HouseRules, errors
from unobot.engine.actions import Action
from unobot.engine.cards import Card, Color
from unobot.engine.notation import format_position, parse_position

OFFICIAL = PRESETS["official"]

R, Y, G, B = Color.RED, Color.YELLOW, Color.GREEN, Color.BLUE


def card(text: str) -> Card:
    """One card from strict notation (``R5``, ``WD4``)."""
    return Card.parse(text)


def cards(text: str) -> tuple[Card, ...]:
    """Cards from space-separated notation, in the order given."""
    return tuple(Card.parse(tok) for tok in text.split())


def rules(base: HouseRules = OFFICIAL, **changes: Any) -> HouseRules:
    """``base`` with some options changed (validated)."""
    new = dataclasses.replace(base, **changes)
    new.validate()
    return new


def position(text: str, rule_set: HouseRules = OFFICIAL, seed: int = 0) -> Game:
    """The game a position describes (a seeded rng for reshuffles)."""
    game, _names = parse_position(text, rule_set, Random(seed))
    return game


def hand(game: Game, seat: int) -> str:
    """A seat's hand as sorted notation, for exact comparisons."""
    return " ".join(str(c) for c in game.hand(seat))


def pile(game: Game) -> str:
    """The draw pile in drawing order (first card drawn first)."""
    return " ".join(str(c) for c in reversed(game.draw_pile))


def snapshot(game: Game) -> tuple[object, ...]:
    """Everything observable about a game: refused actions must leave all of it unchanged."""
    return (
        format_position(game),
        game.phase,
        game.current,
        game.direction,
        game.color,
        game.pending,
        game.drawn,
        game.exposed,
        game.wd4_offender,
        game.wd4_guilty,
        game.outcome,
        tuple(game.discard),
        tuple(game.draw_pile),
        tuple(tuple(h) for h in game.hands),
        tuple(game.legal_actions(seat) for seat in range(game.n)),
        game.rng.getstate(),
    )


def refuse(
    game: Game, seat: int, action: Action, error: type[errors.UnoError], phrase: str
) -> errors.UnoError:
    """``action`` must raise exactly ``error``, its message holding ``phrase``, changing nothing."""
    before = snapshot(game)
    with pytest.raises(errors.UnoError) as info:
        game.apply(seat, action)
    assert type(info.value) is error, f"{type(info.value).__name__}: {info.value}"
    message = str(info.value)
    assert phrase in message, message
    assert len(message) <= 100 and "\n" not in message
    assert snapshot(game) == before
    return info.value


def of_type(events: Iterable[Event], kind: type) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]


def find_seed(
    condition: Callable[[Game, list[Event]], bool],
    players: int,
    rule_set: HouseRules,
    dealer: int = 0,
    limit: int = 5000,
) -> tuple[int, Game, list[Event]]:
    """The first seed whose deal satisfies ``condition`` (deterministic: seeds 0, 1, 2, ...)."""
    for seed in range(limit):
        game, events = Game.deal(players, rule_set, Random(seed), dealer)
        if condition(game, events):
            return seed, game, events
    raise AssertionError("no seed found")
