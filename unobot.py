#!/usr/bin/env python3
"""Entry point: ``python unobot.py`` (the same as the ``unobot`` console script)."""

from unobot.main import main

if __name__ == "__main__":
    main()
