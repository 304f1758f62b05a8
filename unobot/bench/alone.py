"""One benchmark on its own: ``python -m unobot.bench.<name>`` takes the options of
``python -m unobot.bench <name>`` (a module of its own so that benchmarks can use it without
importing the package's ``main``, which imports every benchmark)."""

from __future__ import annotations

import argparse
import contextlib
from collections.abc import Callable

__all__ = ["run_alone"]


def run_alone(
    name: str,
    add_arguments: Callable[[argparse.ArgumentParser], None],
    description: str | None,
    argv: list[str] | None = None,
) -> None:
    """``python -m unobot.bench.<name>``: one benchmark with the options of ``bench <name>``
    (its ``add_arguments`` sets ``run``); Ctrl-C ends it quietly."""
    parser = argparse.ArgumentParser(prog=f"python -m unobot.bench {name}", description=description)
    add_arguments(parser)
    args = parser.parse_args(argv)
    with contextlib.suppress(KeyboardInterrupt):
        args.run(args)
