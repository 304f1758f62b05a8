"""``@value`` records (unobot/values.py): what a frozen dataclass promises its users, equal and
hashable by fields, slotted, without the frozen ``__init__``'s cost."""

from __future__ import annotations

import dataclasses

from unobot.core.render_irc import Line
from unobot.core.updates import HandNotice
from unobot.engine.cards import Card
from unobot.irc.transport import Tag
from unobot.values import value


@value
class Pair:
    left: str
    right: int = 0


def test_equal_and_hashable_by_fields() -> None:
    assert Pair("a", 1) == Pair("a", 1) and hash(Pair("a", 1)) == hash(Pair("a", 1))
    assert Pair("a", 1) != Pair("a", 2)
    assert len({Pair("a"), Pair("a"), Pair("b")}) == 2


def test_slotted_and_replaceable() -> None:
    made = Pair("a")
    assert not hasattr(made, "__dict__")
    assert dataclasses.replace(made, right=3) == Pair("a", 3) and made.right == 0


def test_the_hot_records_keep_their_contract() -> None:
    tag = Tag("#uno", key="hand ann", part=1)
    assert tag == Tag("#uno", key="hand ann", part=1) and hash(tag) == hash(
        Tag("#uno", key="hand ann", part=1)
    )
    # A line's tag is not part of its identity (two sends of one text are one line).
    assert Line("notice", "ann", "hi", tag) == Line("notice", "ann", "hi")
    hand = HandNotice((Card.parse("R5"),))
    assert {hand, HandNotice((Card.parse("R5"),))} == {hand}
