#!/bin/sh
# The quick lane: the rules engine, the core (tables, bot, plugins, journal) and the stats
# stores in memory and SQLite, with no IRC server, no PostgreSQL, no browser and no apt-get:
# about a minute. Run it while you work; sh tests/run.sh (the whole suite, what CI runs)
# before you push. Extra arguments go to pytest.
set -eu
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
    "$PY" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --disable-pip-version-check -e '.[test]'
exec .venv/bin/python -m pytest -q -n "${UNOBOT_TEST_WORKERS:-auto}" \
    --hypothesis-profile=quick -m "not slow and not serial" -k "not postgresql" \
    tests/engine tests/core tests/stats tests/test_layers.py "$@"
