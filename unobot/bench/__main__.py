"""``python -m unobot.bench``: see :mod:`unobot.bench`."""

import sys

from unobot.bench import main

main(sys.argv[1:])
