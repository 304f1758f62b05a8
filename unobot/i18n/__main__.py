"""``python -m unobot.i18n update|compile|check [domain ...]``: see :mod:`unobot.i18n.catalogs`."""

from __future__ import annotations

import sys

from unobot.i18n import DOMAINS
from unobot.i18n.catalogs import check, compile_all, update


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if not args or args[0] not in ("update", "compile", "check"):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    domains = tuple(args[1:]) or DOMAINS
    unknown = [d for d in domains if d not in DOMAINS]
    if unknown:
        print(f"unknown domain(s): {', '.join(unknown)}; known: {', '.join(DOMAINS)}")
        return 2
    if args[0] == "update":
        update(domains)
        return 0
    if args[0] == "compile":
        print(f"{len(compile_all())} catalogues compiled")
        return 0
    problems = check(domains)
    if problems:
        print(problems.report())
        return 1
    print("catalogues complete")
    return 0


if __name__ == "__main__":
    sys.exit(main())
