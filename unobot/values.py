"""Small immutable records made on every command's path (a line, its tag, a hand, a status).

``@value`` is ``@dataclass(frozen=True, slots=True)`` to the type checker and to every
reader of the code: equal and hashable by their fields, never changed after they are made.
At run time they are plain slotted dataclasses: a frozen dataclass's ``__init__`` stores each
field through ``object.__setattr__``, four times slower than a plain store (2.0 against
0.5 µs for a nine-field tag), and a command makes a dozen of them (docs/benchmarks.md, "The
cost of speaking"). Nothing assigns to their fields; the type checker keeps it so.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeVar, dataclass_transform

__all__ = ["value"]

T = TypeVar("T")


@dataclass_transform(frozen_default=True)
def value(cls: type[T]) -> type[T]:
    """A frozen-by-contract, slotted dataclass (see the module's docstring for why)."""
    return dataclass(slots=True, unsafe_hash=True)(cls)
