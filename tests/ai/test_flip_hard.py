"""``hard`` at UNO Flip (:mod:`unobot.ai.flip_hard`): it plays only legal moves, it decides on
what its seat sees and remembers and nothing else (two games that differ only in what the seat
can't see get the same move), its worlds are consistent with what it sees, its playouts follow
``normal`` exactly, and the arena plays Flip."""

from __future__ import annotations

from collections import Counter
from random import Random

import pytest

from unobot.ai.arena import main as arena_main
from unobot.ai.arena import play_flip_hand, run_arena
from unobot.ai.flip import flip_action
from unobot.ai.flip_hard import (
    FlipHard,
    FlipMemory,
    FlipView,
    _play_out,
    determinise,
    flip_hard_action,
    normal_move,
)
from unobot.engine.flip import FlipCard, FlipEvent, FlipGame, FlipPhase, Side, side_faces


def play_until(game: FlipGame, seat: int, rng: Random, memory: FlipMemory, turns: int) -> None:
    """``normal`` moves for everyone until ``seat`` is to move in PLAY for the ``turns``-th
    time (or the hand ends), ``memory`` fed every batch."""
    seen = 0
    while not game.over:
        if game.current == seat and game.phase is FlipPhase.PLAY:
            seen += 1
            if seen >= turns:
                return
        events = game.apply(game.current, flip_action(game, "normal", rng))
        memory.see(events, game)


def hidden_reshuffled(game: FlipGame, seat: int, rng: Random) -> FlipGame:
    """A copy of ``game`` that differs only in what ``seat`` can't see: the faces in play of
    the other hands and of the draw pile dealt among those cards afresh (each card keeps its
    back, the face the seat sees), and the draw pile reordered under its top card."""
    other = Side(1 - game.side)
    copy = game.copy()
    places = [(s, i) for s in range(game.n) if s != seat for i in range(len(game.hands[s]))]
    places += [(-1, i) for i in range(len(game.draw_pile))]

    def at(place: tuple[int, int]) -> FlipCard:
        s, i = place
        return copy.draw_pile[i] if s < 0 else copy.hands[s][i]

    fronts = [at(p).face(game.side) for p in places]
    rng.shuffle(fronts)
    for place, front in zip(places, fronts, strict=True):
        back = at(place).face(other)
        light, dark = (front, back) if game.side is Side.LIGHT else (back, front)
        s, i = place
        (copy.draw_pile if s < 0 else copy.hands[s])[i] = FlipCard(-1, light, dark)
    under = copy.draw_pile[:-1]
    rng.shuffle(under)
    copy.draw_pile[:-1] = under
    return copy


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_hard_plays_only_legal_moves_in_whole_flip_hands(players: int) -> None:
    flips = 0
    for seed in range(6):
        levels = ["hard", *["normal"] * (players - 1)]
        levels = levels[seed % players :] + levels[: seed % players]
        game, events = FlipGame.deal(players, Random(seed))
        hard = levels.index("hard")
        memory = FlipMemory(hard, players)
        memory.see(events, game)
        rng = Random(seed)
        moves = 0
        while not game.over:
            if game.current == hard:
                action = flip_hard_action(game, rng, playouts=30, memory=memory)
            else:
                action = flip_action(game, "normal", rng)
            assert action in game.legal_actions()
            events = game.apply(game.current, action)
            flips += sum(e.kind == "flipped" for e in events)
            memory.see(events, game)
            moves += 1
            assert moves < 3000
        assert game.outcome is not None
    assert flips > 0  # the hands went through Flips: both sides were played


def test_the_decision_ignores_what_the_seat_cannot_see() -> None:
    """The same seed, the same memory, two games alike in everything the seat sees but the
    other hands' faces in play and the draw pile's order: the same view, the same move."""
    checked = 0
    for seed in range(12):
        game, events = FlipGame.deal(4, Random(seed))
        memory = FlipMemory(0, 4)
        memory.see(events, game)
        play_until(game, 0, Random(seed), memory, 2 + seed % 5)
        if game.over:
            continue
        other = hidden_reshuffled(game, 0, Random(seed + 99))
        assert [c.face(game.side) for c in other.draw_pile] != [
            c.face(game.side) for c in game.draw_pile
        ] or not game.draw_pile
        assert FlipView.of(game, 0, memory) == FlipView.of(other, 0, memory)
        a = flip_hard_action(game, Random(7), playouts=60, memory=memory)
        b = flip_hard_action(other, Random(7), playouts=60, memory=memory)
        assert a == b
        checked += 1
    assert checked >= 8


def test_the_memory_reads_only_public_faces_of_the_events() -> None:
    """A card another seat draws is known to the seat by its back only: events whose drawn
    cards carry other faces in play leave the memory as it was."""
    for seed in range(10):
        game, events = FlipGame.deal(4, Random(seed))
        real = FlipMemory(0, 4)
        masked = FlipMemory(0, 4)
        real.see(events, game)
        masked.see(events, game)
        rng = Random(seed)
        lie = Random(seed + 5)
        faces = {s: side_faces(s) for s in Side}
        while not game.over:
            side = game.side
            events = game.apply(game.current, flip_action(game, "normal", rng))
            real.see(events, game)
            bent = []
            for e in events:
                if e.kind == "drew" and e.seat != 0:
                    cards = tuple(
                        FlipCard(-1, lie.choice(faces[Side.LIGHT]), c.dark)
                        if side is Side.LIGHT
                        else FlipCard(-1, c.light, lie.choice(faces[Side.DARK]))
                        for c in e.cards
                    )
                    e = FlipEvent(e.kind, e.seat, cards, e.color, e.value)
                bent.append(e)
            masked.see(bent, game)
            assert real.recall(game, None) == masked.recall(game, None)


def test_the_memory_remembers_only_what_is_true() -> None:
    """Faces it holds as known in another hand are in that hand; a card it takes to lack a
    colour, a rank and wilds leaves a hand whose unknown cards can meet that (the hands are
    played by ``normal``, who draws only with nothing to play); its own backs are its own."""
    known = total = 0
    for seed in range(40):
        game, events = FlipGame.deal(4, Random(seed))
        memory = FlipMemory(0, 4)
        memory.see(events, game)
        rng = Random(seed)
        while not game.over:
            view = FlipView.of(game, 0, memory)
            for s in range(1, 4):
                held = Counter(game.hand(s))
                fronts = Counter(view.fronts[s])
                assert not fronts - held
                known += sum(fronts.values())
                total += len(game.hands[s])
                assert len(view.lacks[s]) + sum(fronts.values()) == len(game.hands[s])
            assert not Counter(view.own_backs) - Counter(game.public_hand(0))
            events = game.apply(game.current, flip_action(game, "normal", rng))
            memory.see(events, game)
    assert known > total // 4  # a Flip shows the backs: much of the other hands is known


def test_a_world_is_consistent_with_the_view() -> None:
    """Every card of the 112 faces once per side; the seat's own faces, the others' backs, the
    draw pile's top back and the discard pile exactly as seen; the remembered faces where the
    memory put them."""
    for seed in range(20):
        game, events = FlipGame.deal(3 + seed % 3, Random(seed))
        memory = FlipMemory(1, game.n)
        memory.see(events, game)
        play_until(game, 1, Random(seed), memory, 1 + seed % 7)
        if game.over:
            continue
        view = FlipView.of(game, 1, memory)
        world = determinise(view, Random(seed))
        cards = [*world.draw_pile, *world.discard, *(c for h in world.hands for c in h)]
        assert Counter(c.light for c in cards) == Counter(side_faces(Side.LIGHT))
        assert Counter(c.dark for c in cards) == Counter(side_faces(Side.DARK))
        assert FlipView.of(world, 1) == FlipView.of(game, 1)
        for s in range(game.n):
            if s != 1:
                assert not Counter(view.fronts[s]) - Counter(world.hand(s))
        assert world.legal_actions() == game.legal_actions()


def test_the_playouts_follow_normal_exactly() -> None:
    """``normal_move`` (the playouts' fast policy) makes ``normal``'s move in every position
    met, whatever the side, phase and number of players."""
    checked = 0
    for seed in range(120):
        game, _ = FlipGame.deal(2 + seed % 5, Random(seed))
        rng = Random(seed)
        while not game.over:
            action = flip_action(game, "normal", rng)
            assert normal_move(game) == action
            checked += 1
            if rng.random() < 0.3:  # now and then another move: other positions
                action = rng.choice(game.legal_actions())
            game.apply(game.current, action)
    assert checked > 5000


def test_a_wild_draw_played_on_hard_is_drawn_and_one_move_is_not_searched() -> None:
    """No search where there is nothing to choose: a Wild Draw on it is drawn (a ``normal``
    player is never guilty), and a lone legal card is played."""
    for seed in range(200):
        game, events = FlipGame.deal(3, Random(seed))
        memory = FlipMemory(0, 3)
        memory.see(events, game)
        rng = Random(seed)
        while not game.over and not (game.current == 0 and game.phase is FlipPhase.PENDING):
            events = game.apply(game.current, flip_action(game, "normal", rng))
            memory.see(events, game)
        if not game.over:
            view = FlipView.of(game, 0, memory)
            assert type(FlipHard(Random(1), playouts=10).act(view)).__name__ == "Draw"
            return
    pytest.fail("no Wild Draw was played on seat 0")


def test_the_arena_plays_flip_hands_with_seats_rotated(capsys: pytest.CaptureFixture[str]) -> None:
    result = run_arena(["hard", "normal", "normal", "normal"], 8, "flip", seed=3, playouts=20)
    assert result.games == 8 and sum(result.wins) == 8
    assert sum(result.points) > 0
    winner, scores, actions = play_flip_hand(["hard", "easy"], 5, playouts=10)
    assert winner in (0, 1) and scores[winner] > 0 and scores[1 - winner] == 0 and actions > 0
    assert (
        arena_main(
            ["--preset", "flip", "--players", "normal,easy,easy", "--games", "6", "--seed", "2"]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "preset flip" in out and "normal" in out and "(95% CI)" in out


def test_the_fast_play_out_ends_every_hand_as_the_engine_does() -> None:
    """``_play_out`` (the playouts' own loop, without the engine's checks and events) and
    ``FlipGame.apply`` with ``normal``'s moves, from the same positions (reached by random and
    ``normal`` moves, 2-6 players) with the same reshuffle dice: the same end, card for card."""
    compared = 0
    for seed in range(600):
        game, _ = FlipGame.deal(2 + seed % 5, Random(seed))
        rng = Random(seed)
        for _ in range(rng.randrange(40)):
            if game.over:
                break
            move = rng.choice(game.legal_actions()) if rng.random() < 0.5 else normal_move(game)
            game.apply(game.current, move)
        if game.over or game.phase is not FlipPhase.PLAY:
            continue
        slow, fast = game.copy(), game.copy()
        slow.rng, fast.rng = Random(seed), Random(seed)
        for _ in range(3000):
            if slow.over:
                break
            slow.apply(slow.current, normal_move(slow))
        winner = _play_out(fast)
        if slow.over:
            assert slow.outcome == fast.outcome and winner == fast.outcome.winner  # type: ignore[union-attr]
            # Everything but the challenge flag the engine leaves behind after a Wild Draw and
            # the UNO call's state (``exposed``, ``armed``: the playouts call automatically).
            assert slow._state()[:-3] == fast._state()[:-3]
            compared += 1
    assert compared > 400
