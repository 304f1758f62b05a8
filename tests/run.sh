#!/bin/sh
# Install everything the test suite needs into .venv and run it: lint, then pytest.
# This is the README's test command and what CI runs (.ci/run). Safe to re-run.
set -eu
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
    "$PY" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --disable-pip-version-check -e '.[test]'
# End-to-end tests run real IRC servers (ngircd, inspircd) and a real client (irssi, against the
# embedded server), all from Debian. As root with
# apt-get, install whichever is missing (without them the e2e tests skip, or fail under CI=1).
# A fresh Debian may auto-start them on port 6667: the tests always use their own free ports,
# and the system services are stopped again so nothing runs that the tests did not start.
missing=""
for prog in ngircd inspircd irssi; do
    command -v "$prog" >/dev/null 2>&1 || [ -x "/usr/sbin/$prog" ] || missing="$missing $prog"
done
if [ -n "$missing" ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    apt-get update -qq
    # shellcheck disable=SC2086
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null
    for svc in $missing; do
        if command -v service >/dev/null 2>&1; then
            service "$svc" stop >/dev/null 2>&1 || true
        fi
    done
fi
# The stats contract tests start a real PostgreSQL server (Debian's postgresql, version 15 on
# bookworm): install it as root with apt-get when initdb is missing. The tests run their own
# server on a free port; the Debian cluster service is stopped again if the install started it.
if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 && ! command -v initdb >/dev/null 2>&1 \
    && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
    if command -v service >/dev/null 2>&1; then
        service postgresql stop >/dev/null 2>&1 || true
    fi
fi
# The example systemd units are checked with `systemd-analyze verify` (tests/test_operations.py):
# install Debian's systemd as root with apt-get when it is missing (without it those tests skip,
# or fail under CI=1). Installing the package starts nothing in a container.
if ! command -v systemd-analyze >/dev/null 2>&1 \
    && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq systemd >/dev/null
fi
# The stats site's browser tests drive a real headless Chromium through WebDriver with Debian's
# chromium and chromium-driver (never a downloaded browser or driver): install them as root with
# apt-get when either binary is missing (without them those tests skip, or fail under CI=1).
if { [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; } \
    && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null
fi
# The servers big old networks run (ircu, irc2, ircd-hybrid) and the services atheme and anope,
# for tests/e2e/test_network_servers.py. Debian's IRC server packages conflict with each other
# and with ngircd, so they are never installed: as root, download the .debs and unpack them
# into .ci-cache/ircds/<package>/ (git-ignored; skipped once unpacked); the fixtures run them
# from there (tests/e2e/servers.py says how). Their runtime needs that conflict with nothing
# are installed: m4 (irc2 pipes its config through it), libltdl7 (hybrid), gcc (builds the
# fixtures' LD_PRELOAD shim).
IRCDS=.ci-cache/ircds
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    need=""
    for pkg in ircd-ircu ircd-irc2 ircd-hybrid atheme-services anope; do
        [ -f "$IRCDS/$pkg/.unpacked" ] || need="$need $pkg"
    done
    libs=""
    command -v m4 >/dev/null 2>&1 || libs="$libs m4"
    command -v gcc >/dev/null 2>&1 || libs="$libs gcc"
    ldconfig -p 2>/dev/null | grep -q 'libltdl\.so\.7 ' || libs="$libs libltdl7"
    if [ -n "$need$libs" ]; then
        apt-get update -qq
    fi
    if [ -n "$libs" ]; then
        # shellcheck disable=SC2086
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $libs >/dev/null
    fi
    if [ -n "$need" ]; then
        debs=$(mktemp -d)
        chown _apt "$debs" 2>/dev/null || true  # apt downloads as _apt where it can write
        # shellcheck disable=SC2086
        (cd "$debs" && apt-get download -qq $need)
        for pkg in $need; do
            rm -rf "$IRCDS/$pkg"
            mkdir -p "$IRCDS/$pkg"
            dpkg -x "$debs/${pkg}"_*.deb "$IRCDS/$pkg"
            touch "$IRCDS/$pkg/.unpacked"
        done
        rm -rf "$debs"
    fi
fi
.venv/bin/ruff check .
.venv/bin/ruff format --check .
# Four worker processes (pytest-xdist): most tests wait on servers, timers and bot processes,
# so four finish sooner than two even on two cores. tests/parallel.py says what shares a worker
# and what runs last, alone. UNOBOT_TEST_WORKERS=0 (or `-n 0` among the arguments) runs them all
# in this one process, in order.
exec .venv/bin/python -m pytest -n "${UNOBOT_TEST_WORKERS:-4}" --dist loadgroup "$@"
