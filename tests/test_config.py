"""Settings from TOML and flags: defaults, overrides, and one clear message for bad input."""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

import pytest

from unobot.config import ConfigError, add_arguments, load

ROOT = Path(__file__).resolve().parent.parent


def parse(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    return parser.parse_args(list(argv))


def write(tmp_path: Path, text: str) -> str:
    path = tmp_path / "unobot.toml"
    path.write_text(text, encoding="utf-8")
    return str(path)


def run_with_config(tmp_path: Path, text: str) -> subprocess.CompletedProcess[str]:
    """The real command line, from ``tmp_path``, with ``text`` as its config file."""
    return subprocess.run(
        [sys.executable, str(ROOT / "unobot.py"), "--config", write(tmp_path, text)],
        capture_output=True,
        text=True,
        timeout=30,
        cwd=tmp_path,
    )


def test_no_settings_means_the_embedded_default() -> None:
    settings = load(parse())
    assert settings.embedded
    assert settings.irc.servers[0].host == "127.0.0.1"
    assert settings.irc.servers[0].effective_port == 6667
    assert dict(settings.irc.channels) == {"#uno": ""}
    assert settings.database == "sqlite:///stats.db"
    assert settings.bot.table.rules.name == "irc-classic"


def test_admin_flags_add_bot_admins_for_the_run(tmp_path: Path) -> None:
    """``--admin`` (repeatable, comma separated) adds to ``bot.admins``: a bare nick is any
    ``nick!*@*``, a mask or services account is kept as written."""
    path = write(tmp_path, '[bot]\nadmins = ["$a:alice"]\n')
    args = parse("--config", path, "--admin", "carol, dave!d@host", "--admin", "$a:erin")
    assert load(args).bot.admins == {"$a:alice", "carol!*@*", "dave!d@host", "$a:erin"}
    assert load(parse("--admin", "bob")).bot.admins == {"bob!*@*"}
    assert load(parse()).bot.admins == frozenset()
    with pytest.raises(ConfigError, match="--admin"):
        load(parse("--admin", "two words"))


def test_the_example_config_loads() -> None:
    settings = load(parse("--config", str(ROOT / "unobot.toml.example")))
    assert not settings.embedded
    server = settings.irc.servers[0]
    assert (server.host, server.effective_port, server.tls, server.tls_verify) == (
        "irc.example.net", 6697, True, True,
    )  # fmt: skip
    assert settings.irc.alt_nicks == ("unobot_", "unobot2")
    assert settings.irc.burst == 4 and settings.irc.rate == 1.0
    assert "$a:alice" in settings.bot.admins


def test_flags_override_the_file(tmp_path: Path) -> None:
    path = write(tmp_path, '[irc]\nnick = "filebot"\n[[irc.servers]]\nhost = "a.example"\n')
    settings = load(
        parse(
            "--config", path, "--server", "b.example", "--port", "7000", "--tls", "--insecure",
            "--nick", "flagbot", "--channel", "#one", "--channel", "#two",
            "--database", "sqlite:///x.db", "--preset", "official", "--send-rate", "0",
        )
    )  # fmt: skip
    server = settings.irc.servers[0]
    assert (server.host, server.port, server.tls, server.tls_verify) == (
        "b.example",
        7000,
        True,
        False,
    )
    assert settings.irc.nick == "flagbot"
    assert list(settings.irc.channels) == ["#one", "#two"]
    assert settings.database == "sqlite:///x.db"
    assert settings.bot.table.rules.name == "official"
    assert settings.irc.rate == 0


def test_channel_keys_and_per_channel_presets(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        '[irc.channels]\n"#a" = ""\n"#b" = "sekrit"\n'
        '[bot.channel_presets]\n"#B" = "ocuk-tournament"\n',
    )
    settings = load(parse("--config", path))
    assert dict(settings.irc.channels) == {"#a": "", "#b": "sekrit"}
    assert settings.bot.channel_rules["#b"].name == "ocuk-tournament"


@pytest.mark.parametrize(
    ("text", "flags", "message"),
    [
        ("[irc\n", (), "not valid TOML"),
        ("[irc]\nnick = 5\n", (), "irc.nick must be str"),
        ("[bogus]\n", (), "unknown section"),
        ("[[irc.servers]]\nport = 1\n", (), "needs at least host"),
        ('[[irc.servers]]\nhost = "x"\ncolour = 1\n', (), r"unknown setting irc\.servers\[0\]"),
        ('[[irc.servers]]\nhost = "x"\nport = 99999\n', (), "port must be a port number"),
        ("", ("--channel", "uno"), "is not a channel name"),
        ("", ("--preset", "speedy"), "no preset 'speedy'"),
        ("", ("--send-rate", "-1"), "send rate"),
        ('[bot]\nprefix = "ab"\n', (), "bot.prefix"),
        ("[bot]\nturn_timeout = 1\n", (), "turn_timeout"),
        ("[irc]\nconnections = 0\n", (), "irc.connections must be 1 to 10"),
        ("[irc]\nconnections = 11\n", (), "irc.connections must be 1 to 10"),
    ],
)
def test_bad_settings_give_one_clear_message(
    tmp_path: Path, text: str, flags: tuple[str, ...], message: str
) -> None:
    path = write(tmp_path, text)
    with pytest.raises(ConfigError, match=message):
        load(parse("--config", path, *flags))


def test_missing_file_and_cli_exit_cleanly(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="no config file"):
        load(parse("--config", str(tmp_path / "nope.toml")))
    proc = run_with_config(tmp_path, "[irc]\nnick = [\n")
    assert proc.returncode == 2
    assert proc.stderr.startswith("unobot: ") and "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1


def test_bots_section(tmp_path: Path) -> None:
    """``[bots]``: computer players' pause, hard's budget, worker processes; checked."""
    from unobot.core.computers import ComputerConfig

    assert load(parse()).bot.bots == ComputerConfig()
    assert ComputerConfig().uno_grace == 4.0  # a person's few seconds to call UNO late
    text = "[bots]\nenabled = true\ndelay = 0\nbudget_ms = 100\nworkers = 2\nuno_grace = 2\n"
    bots = load(parse("--config", write(tmp_path, text))).bot.bots
    assert (bots.delay, bots.budget_ms, bots.workers, bots.playouts) == (0.0, 100.0, 2, None)
    assert bots.uno_grace == 2.0
    for bad, message in [
        ("delay = -1", "bots.delay"),
        ("delay = 'slow'", "bots.delay must be float"),
        ("workers = 99", "bots.workers"),
        ("uno_grace = 61", "bots.uno_grace must be 0 to 60 seconds"),
        ("speed = 3", "unknown setting bots.speed"),
        ("delay = 59", "well under bot.turn_timeout"),
    ]:
        with pytest.raises(ConfigError, match=message):
            load(parse("--config", write(tmp_path, f"[bots]\n{bad}\n")))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('[irc]\nnik = "x"\n', "unknown setting irc.nik (did you mean irc.nick?)"),
        ('[irc]\nsasl_pasword = "x"\n', "unknown setting irc.sasl_pasword (did you mean "
         "irc.sasl_password?)"),
        ('[irc]\nchanels = ["#a"]\n', "unknown setting irc.chanels (did you mean irc.channels?)"),
        ('[[irc.server]]\nhost = "a"\n', "unknown setting irc.server (did you mean irc.servers?)"),
        ('[[irc.servers]]\nhots = "a"\n', "irc.servers[0] needs at least host"),
        ('[[irc.servers]]\nhost = "a"\ntsl = true\n',
         "unknown setting irc.servers[0].tsl (did you mean irc.servers[0].tls?)"),
        ("[bot]\nturn_timout = 60\n",
         "unknown setting bot.turn_timout (did you mean bot.turn_timeout?)"),
        ("[bots]\ndealy = 1\n", "unknown setting bots.dealy (did you mean bots.delay?)"),
        ('[stats]\ndatabse = "x"\n',
         "unknown setting stats.databse (did you mean stats.database?)"),
        ('[log]\nlevle = "INFO"\n', "unknown setting log.levle (did you mean log.level?)"),
        ("[irx]\n", "unknown section [irx] (did you mean [irc]?)"),
        ("[irc]\nzzz = 1\n", "unknown setting irc.zzz (known: nick, alt_nicks, username"),
        ("[irc]\nnik = 1\nzzz = 2\n", "unknown setting irc.nik (did you mean irc.nick?); also "
         "unknown: zzz"),
    ],
)  # fmt: skip
def test_unknown_settings_are_named_with_the_closest_known_one(
    tmp_path: Path, text: str, message: str
) -> None:
    with pytest.raises(ConfigError) as caught:
        load(parse("--config", write(tmp_path, text)))
    assert str(caught.value).startswith(message), str(caught.value)


def test_channel_names_are_not_settings(tmp_path: Path) -> None:
    """``[irc.channels]`` and ``[bot.channel_presets]`` are keyed by channel, not checked."""
    text = '[irc.channels]\n"#nik" = ""\n[bot.channel_presets]\n"#preset" = "official"\n'
    settings = load(parse("--config", write(tmp_path, text)))
    assert dict(settings.irc.channels) == {"#nik": ""}


def test_every_key_of_the_example_config_is_known() -> None:
    """The example documents every setting: each is known, and each known one is there."""
    import tomllib

    from unobot.config import KEYS

    data = tomllib.loads((ROOT / "unobot.toml.example").read_text(encoding="utf-8"))
    assert set(data) == set(KEYS)
    text = (ROOT / "unobot.toml.example").read_text(encoding="utf-8")
    for section, keys in KEYS.items():
        for key in keys:
            assert f"{key} =" in text or f"{section}.{key}" in text, f"{section}.{key}"


def test_a_misspelt_key_stops_the_real_command_with_one_line(tmp_path: Path) -> None:
    proc = run_with_config(tmp_path, '[irc]\nnik = "x"\n')
    assert proc.returncode == 2
    assert proc.stderr == "unobot: unknown setting irc.nik (did you mean irc.nick?)\n"
    assert proc.stdout == ""  # no server was started, nothing announced
    assert not (tmp_path / "stats.db").exists()


def test_connections(tmp_path: Path) -> None:
    assert load(parse()).irc.connections == 1
    path = write(tmp_path, "[irc]\nconnections = 3\n")
    assert load(parse("--config", path)).irc.connections == 3


def test_web_section_defaults_to_the_bots_database() -> None:
    """``[web]`` unset: the site listens locally and reads the stats database."""
    web = load(parse("--database", "sqlite:///x.db")).web
    assert (web.host, web.port, web.public_url, web.root_path) == ("127.0.0.1", 8080, "", "")
    assert web.database == "sqlite:///x.db"
    assert web.forwarded_allow_ips == "127.0.0.1"


def test_web_section_is_read(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        '[web]\nhost = "0.0.0.0"\nport = 8181\npublic_url = "https://example.net/uno/"\n'
        'database = "sqlite:///site.db"\nroot_path = "/uno/"\n'
        'forwarded_allow_ips = ["10.0.0.1", "::1"]\n',
    )
    web = load(parse("--config", path)).web
    assert (web.host, web.port) == ("0.0.0.0", 8181)
    assert web.public_url == "https://example.net/uno"  # no trailing slash: links append /game/
    assert web.database == "sqlite:///site.db"
    assert web.root_path == "/uno"
    assert web.forwarded_allow_ips == "10.0.0.1,::1"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[web]\nport = 0\n", "web.port must be a port number"),
        ('[web]\nport = "80"\n', "web.port must be int"),
        ('[web]\npublic_url = "example.net"\n', "web.public_url 'example.net' must be an http"),
        ('[web]\nroot_path = "uno"\n', "web.root_path 'uno' must start with"),
        ("[web]\nforwarded_allow_ips = 3\n", "web.forwarded_allow_ips must be addresses"),
        ('[web]\ndatabase = "mysql://u:secret@h/db"\n', "web.database: mysql:// is not a sqlite"),
        ('[web]\nhots = "x"\n', "unknown setting web.hots (did you mean web.host?)"),
    ],
)
def test_bad_web_settings_get_one_clear_message(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(ConfigError) as caught:
        load(parse("--config", write(tmp_path, text)))
    assert str(caught.value).startswith(message), str(caught.value)
    assert "secret" not in str(caught.value)


def test_the_web_public_url_reaches_the_bot(tmp_path) -> None:
    """``.unogame`` links to the site: the bot's configuration carries ``[web] public_url``."""
    path = tmp_path / "bot.toml"
    path.write_text('[web]\npublic_url = "https://uno.example.org/stats/"\n')
    settings = load(parse("--config", str(path)))
    assert settings.bot.web_public_url == "https://uno.example.org/stats"
    assert load(parse()).bot.web_public_url == ""


def test_flood_model(tmp_path: Path) -> None:
    """auto by default; numbers of one's own mean one's own bucket unless a model is named;
    a wrong name or probe interval is refused in one line."""
    settings = load(parse()).irc
    assert (settings.flood_model, settings.lag_probe) == ("auto", 30.0)
    assert load(parse("--send-rate", "2")).irc.flood_model == "bucket"
    own = write(tmp_path, "[irc]\nsend_rate = 2.0\n")
    assert load(parse("--config", own)).irc.flood_model == "bucket"
    named = write(tmp_path, '[irc]\nsend_rate = 2.0\nflood_model = "ircu"\nlag_probe = 0\n')
    irc = load(parse("--config", named)).irc
    assert (irc.flood_model, irc.lag_probe) == ("ircu", 0.0)
    with pytest.raises(ConfigError, match=r"irc\.flood_model must be one of auto, bucket, ircu"):
        load(parse("--config", write(tmp_path, '[irc]\nflood_model = "fast"\n')))
    with pytest.raises(ConfigError, match=r"irc\.lag_probe"):
        load(parse("--config", write(tmp_path, "[irc]\nlag_probe = 0.5\n")))


def test_trusted_hosts(tmp_path: Path) -> None:
    """``bot.trusted_hosts``: networks and host masks whose command budget is larger."""
    assert load(parse()).bot.trusted_hosts == ()
    text = '[bot]\ntrusted_hosts = ["192.168.0.0/16", " *.LAN ", "fd00::/8"]\n'
    text += "trusted_multiplier = 6\n"
    bot = load(parse("--config", write(tmp_path, text))).bot
    assert bot.trusted_hosts == ("192.168.0.0/16", "*.LAN", "fd00::/8")
    assert bot.trusted_multiplier == 6.0


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('trusted_hosts = ["300.1.2.0/24"]', "bot.trusted_hosts: '300.1.2.0/24' is not an addr"),
        ('trusted_hosts = ["10.0.0.0/33"]', "bot.trusted_hosts: '10.0.0.0/33' is not an address"),
        ('trusted_hosts = ["*"]', "bot.trusted_hosts: '*' would trust every host"),
        ('trusted_hosts = ["a b.lan"]', "bot.trusted_hosts: 'a b.lan' is not a network"),
        ('trusted_hosts = "10.0.0.0/8"', "bot.trusted_hosts must be list"),
        ("trusted_hosts = [10]", "bot.trusted_hosts must be a list of strings"),
        ("trusted_multiplier = 0.5", "bot.trusted_multiplier must be 1 to 100"),
        ('trusted_host = ["*.lan"]', "unknown setting bot.trusted_host (did you mean bot.truste"),
    ],
)  # fmt: skip
def test_bad_trusted_hosts_get_one_clear_message(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(ConfigError) as caught:
        load(parse("--config", write(tmp_path, "[bot]\n" + text + "\n")))
    assert str(caught.value).startswith(message), str(caught.value)
    assert "\n" not in str(caught.value)


def test_the_live_view_is_on_unless_turned_off(tmp_path: Path) -> None:
    assert load(parse()).live is True
    path = write(tmp_path, "[stats]\nlive = false\n")
    assert load(parse("--config", path)).live is False
