"""The stats database: peewee models (the schema) and the migrations applied at start-up.

The rows are the facts: players (with their nick history), games and each player's result in
a game, plus imported aggregate rows from the old bot's score file, and tournaments (the log of
entries each is rebuilt from, and their score sheet: ``unobot.tournament.store``).
``player_summary`` is derived data, one row per player, channel scope and calendar period: it
is brought up to date from the rows of the games written since ``summary_state.last_game``
before every query (and every few hundred games), and rebuilt wholesale by
``unobot.stats.summaries.rebuild_summaries``; it exists so a leaderboard is an index walk, not a
GROUP BY over a million rows.

The version lives in ``schema_version``; :func:`migrate` applies the missing steps in order,
each in its own transaction (serialised between bots sharing a PostgreSQL database by an
advisory lock, and on SQLite by an immediate transaction), so any number of bots may start at
once against one store.
"""

from __future__ import annotations

import json
import logging
import zlib
from collections.abc import Callable

import peewee as pee
from playhouse.migrate import SchemaMigrator
from playhouse.migrate import migrate as run_migrations

from unobot.stats.game_rows import unpack_moves
from unobot.stats.summaries import (
    backfill_stopped,
    backfill_team_games,
    rebuild_summaries,
    sql_for,
)

__all__ = ["MODELS", "SCHEMA_VERSION", "migrate", "schema_version"]

log = logging.getLogger(__name__)


class _Base(pee.Model):
    """Foreign keys get no index of their own (index=False) where a composite index or the
    primary key already starts with them: each index is one more page every game writes."""

    class Meta:
        database = None  # bound per store with bind_ctx: several stores may be open at once
        legacy_table_names = False


class Player(_Base):
    """One person on one network: ``ident`` is ``$a:account`` or the folded nick."""

    network = pee.CharField(max_length=100, default="")
    ident = pee.CharField(max_length=255)
    account = pee.CharField(max_length=255, null=True)
    nick = pee.CharField(max_length=255)
    """The current (last seen) nick, as typed."""
    nick_folded = pee.CharField(max_length=255)
    is_bot = pee.BooleanField(default=False)
    first_seen = pee.DateTimeField()
    last_seen = pee.DateTimeField()

    class Meta:
        # nick_folded alone (not with last_seen): an index whose columns a game doesn't change
        # is not rewritten, and every page a game touches is a page SQLite writes twice.
        indexes = ((("network", "ident"), True), (("nick_folded",), False))


class PlayerNick(_Base):
    """Nick history: every nick a player finished a game with, and when last."""

    player = pee.ForeignKeyField(Player, on_delete="CASCADE", index=False)
    nick = pee.CharField(max_length=255)
    nick_folded = pee.CharField(max_length=255)
    last_seen = pee.DateTimeField()

    class Meta:
        indexes = ((("player", "nick_folded"), True), (("nick_folded",), False))


class Game(_Base):
    game_id = pee.CharField(max_length=64, unique=True)
    """Chosen by the bot; the unique key that makes every write idempotent."""
    network = pee.CharField(max_length=100, default="")
    channel = pee.CharField(max_length=255)
    """Folded with IRC case rules."""
    preset = pee.CharField(max_length=64)
    started = pee.DateTimeField()
    ended = pee.DateTimeField()
    """Naive UTC, like every time in this schema."""
    seconds = pee.IntegerField()
    winner = pee.ForeignKeyField(Player, null=True, on_delete="SET NULL", index=False)
    """The first winner (a tie shows as several won=True results)."""
    teams = pee.BooleanField(default=False, constraints=[pee.SQL("DEFAULT FALSE")])
    """Played in teams of two (schema v8): both partners of the winning team won. A default
    in the database too: the game insert names it only for a team game."""
    stopped = pee.BooleanField(default=False, constraints=[pee.SQL("DEFAULT FALSE")])
    """Stopped before its end (schema v11, ``GameRecord.stopped``): nobody won it. A default
    in the database too: the game insert names it only for a stopped game."""


class GameResult(_Base):
    game = pee.ForeignKeyField(Game, on_delete="CASCADE", index=False)
    player = pee.ForeignKeyField(Player, on_delete="CASCADE", index=False)
    place = pee.IntegerField()
    won = pee.BooleanField()
    points_won = pee.IntegerField()
    points_left = pee.IntegerField()
    finished = pee.BooleanField()
    """False when they left or were removed before the end."""
    is_bot = pee.BooleanField(default=False)
    mu = pee.DoubleField(null=True)
    sigma = pee.DoubleField(null=True)
    """The player's skill rating right after this game (schema v5): a player's rating over
    time is their results in game order. None for a game nobody was rated in."""

    class Meta:
        indexes = ((("game", "player"), True),)


class GameMoves(_Base):
    """A game's move list (schema v5): its table journal, zlib-compressed UTF-8 (a game of four
    is ~1-2 KB). Kept apart from ``game`` so leaderboard and player queries never read it."""

    game = pee.ForeignKeyField(Game, primary_key=True, on_delete="CASCADE")
    data = pee.BlobField()


class ImportedScore(_Base):
    """Totals from the old bot's score file: no dates, so they count in the ALL period only;
    in one channel's figures only when imported for that channel (``channel`` "" = none)."""

    player = pee.ForeignKeyField(Player, on_delete="CASCADE", index=False)
    channel = pee.CharField(max_length=255, default="")
    source = pee.CharField(max_length=255)
    games = pee.IntegerField()
    wins = pee.IntegerField()
    points = pee.BigIntegerField()
    seconds = pee.BigIntegerField()
    imported_at = pee.DateTimeField()

    class Meta:
        indexes = ((("player", "channel", "source"), True),)


class PlayerSummary(_Base):
    """Derived: a player's totals in one channel ("" = all channels) and bucket ("all",
    "w<monday>", "m<yyyy-mm>"), with the two ratios stored so an index can rank by them."""

    player = pee.ForeignKeyField(Player, on_delete="CASCADE", index=False)
    network = pee.CharField(max_length=100, default="")
    channel = pee.CharField(max_length=255)
    bucket = pee.CharField(max_length=16)
    games = pee.IntegerField()
    wins = pee.IntegerField()
    points = pee.BigIntegerField()
    seconds = pee.BigIntegerField()
    ppg = pee.DoubleField()
    pw = pee.DoubleField()
    is_bot = pee.BooleanField(default=False)
    team_games = pee.IntegerField(default=0, constraints=[pee.SQL("DEFAULT 0")])
    """Of ``games``, those played in teams of two (schema v10), so a leaderboard row can say
    so without a scan of the games. A default in the database too: a bot older than v10
    sharing the store writes its rows without it."""
    stopped_games = pee.IntegerField(default=0, constraints=[pee.SQL("DEFAULT 0")])
    """Of ``games``, those stopped before their end (schema v11), counted apart in a
    player's line; a default in the database for the same reason as ``team_games``."""

    class Meta:
        primary_key = pee.CompositeKey("player", "channel", "bucket")
        # without_rowid (SQLite only, set in _v2_summaries): a player's rows share a page, and
        # there is one tree fewer to write per game.


class SummaryState(_Base):
    """How far player_summary has caught up: every game with ``id <= last_game`` is in it."""

    last_game = pee.BigIntegerField(default=0)


class PlayerSetting(_Base):
    """Player preferences (``.pce-on``/``.pce-off``); same table DatabaseSettings uses, so an
    existing stats.db keeps its preferences and the table is versioned with the rest."""

    player = pee.CharField(primary_key=True, max_length=200)
    colors = pee.BooleanField(default=True)


class Tournament(_Base):
    """A tournament (``unobot.tournament``): its state is the log of its entries, replayed
    into the format's logic after a restart; this row is what lists and finds it."""

    name = pee.CharField(max_length=100)
    """As typed when it was opened."""
    name_key = pee.CharField(max_length=100, unique=True)
    """Folded with IRC case rules: a name is never used twice, finished or not."""
    format = pee.CharField(max_length=32)
    channel = pee.CharField(max_length=255)
    status = pee.CharField(max_length=16, default="signup")
    """signup, running, done or cancelled (set from the kinds of the entries appended)."""
    created = pee.DateTimeField()
    ended = pee.DateTimeField(null=True)


class TournamentEntry(_Base):
    """One change to a tournament, in order: ``seq`` 0, 1, 2 … per tournament; ``data`` is
    the director's JSON, kept as text; ``at`` wall-clock epoch seconds."""

    tournament = pee.ForeignKeyField(Tournament, on_delete="CASCADE", index=False)
    seq = pee.IntegerField()
    kind = pee.CharField(max_length=32)
    data = pee.TextField()
    at = pee.DoubleField()

    class Meta:
        indexes = ((("tournament", "seq"), True),)


class TournamentScore(_Base):
    """The seeds' score sheet (``Beank > T1,G1,170``): one row per player per hand played."""

    tournament = pee.ForeignKeyField(Tournament, on_delete="CASCADE")
    game_key = pee.CharField(max_length=64)
    """The format's key of the match the hand belongs to ("t2", "final")."""
    table = pee.IntegerField(column_name="table_number")
    game = pee.IntegerField()
    """The sheet's game number: in a heat, hands counted per table across the heats; in a
    labelled game (the final, later rounds), hands counted within it."""
    player = pee.CharField(max_length=255)
    points = pee.IntegerField()
    won = pee.BooleanField()
    label = pee.CharField(max_length=100, default="")
    """Schema v6: "" for a heat (the seeds' ``T1,G3``: ``game`` counted per table), else the
    game's name on the sheet ("Final", "Round 2 game 1"; ``game`` counted within it)."""
    clock = pee.BooleanField(default=False)
    """Schema v6: the hand was cut short by a timed game's clock; its points count."""
    round = pee.IntegerField(column_name="round_number", default=1)
    """Schema v6: the tournament round of the game (heats are 1)."""


class PlayerRating(_Base):
    """Derived: a player's skill rating (``unobot.stats.ratings``: openskill Plackett-Luce),
    updated in the same transaction as each game is written, in game id order, and rebuilt
    from the game rows by ``unobot ratings rebuild``. ``ordinal`` is ``mu - 3*sigma``, kept so
    an index can rank by it."""

    player = pee.ForeignKeyField(Player, primary_key=True, on_delete="CASCADE")
    network = pee.CharField(max_length=100, default="")
    mu = pee.DoubleField()
    sigma = pee.DoubleField()
    ordinal = pee.DoubleField()
    games = pee.IntegerField()
    updated = pee.DateTimeField()


class LiveGame(_Base):
    """A game being played now (schema v6): written by the bot that runs it, at most a few
    times a second, through its database worker (``unobot.stats.live``), and read by the web
    process for ``/live`` and the spectator view. Public state only: the discard pile's top,
    whose turn, each player's card count, never a card of a hand. ``ended`` is set (epoch
    seconds) when the game ends; the row stays until the channel's next game replaces it or
    the bot's upkeep ages it out. Keyed by network so bots sharing a database never touch each
    other's rows."""

    network = pee.CharField(max_length=100)
    channel_key = pee.CharField(max_length=255)
    """Folded with IRC case rules."""
    channel = pee.CharField(max_length=255)
    """As typed."""
    tournament = pee.CharField(max_length=100, null=True)
    table_no = pee.IntegerField(null=True)
    players = pee.TextField()
    """JSON: ``[{"nick": ..., "cards": n}, ...]`` in seat order."""
    turn = pee.CharField(max_length=255, default="")
    top = pee.CharField(max_length=32, default="")
    """The discard pile's top card, as the channel shows it (``R5``, ``W``)."""
    color = pee.CharField(max_length=16, default="")
    """The colour in play (a wild's chosen colour)."""
    direction = pee.IntegerField(default=1)
    info = pee.TextField(default="{}")
    """JSON: rules, hand number, phase, pending draw, totals: what the view shows besides."""
    version = pee.IntegerField(default=1)
    """+1 with every write: what a self-updating page compares."""
    started = pee.DoubleField()
    updated = pee.DoubleField()
    ended = pee.DoubleField(null=True)

    class Meta:
        primary_key = pee.CompositeKey("network", "channel_key")


class LiveLine(_Base):
    """The bot's last public lines in a live game's channel (schema v6), colour codes removed:
    never a NOTICE, so never a hand. ``seq`` counts up per channel."""

    network = pee.CharField(max_length=100)
    channel_key = pee.CharField(max_length=255)
    seq = pee.IntegerField()
    at = pee.DoubleField()
    text = pee.TextField()

    class Meta:
        primary_key = pee.CompositeKey("network", "channel_key", "seq")


class GameFigures(_Base):
    """Derived (schema v9, ``unobot.stats.record_rows``): what each player did in a game, for
    the records. Move-list figures are NULL for a game stored without one."""

    game = pee.ForeignKeyField(Game, on_delete="CASCADE", index=False)
    player = pee.ForeignKeyField(Player, on_delete="CASCADE", index=False)
    moves = pee.IntegerField(null=True)
    seconds = pee.IntegerField(null=True)
    points = pee.IntegerField(null=True)
    cards = pee.IntegerField(null=True)
    comeback = pee.IntegerField(null=True)
    streak = pee.IntegerField()
    day_games = pee.IntegerField()

    class Meta:
        primary_key = pee.CompositeKey("game", "player")


class RecordRun(_Base):
    """Derived (schema v9): a player's winning streaks and games that day after their last
    game, in all channels (``channel`` "") and in each channel: what the next game adds to."""

    player = pee.ForeignKeyField(Player, on_delete="CASCADE", index=False)
    channel = pee.CharField(max_length=255)
    week = pee.CharField(max_length=16)
    month = pee.CharField(max_length=16)
    day = pee.CharField(max_length=16)
    streak = pee.IntegerField()
    streak_w = pee.IntegerField()
    streak_m = pee.IntegerField()
    day_games = pee.IntegerField()

    class Meta:
        primary_key = pee.CompositeKey("player", "channel")


class RecordBest(_Base):
    """Derived (schema v9): who holds each record, per network, channel ("" = all), bucket
    (as ``player_summary``) and audience (``people``: computer players left out)."""

    network = pee.CharField(max_length=100)
    channel = pee.CharField(max_length=255)
    bucket = pee.CharField(max_length=16)
    record = pee.CharField(max_length=16)
    people = pee.BooleanField()
    figure = pee.IntegerField()
    player = pee.ForeignKeyField(Player, on_delete="CASCADE", index=False)
    game = pee.ForeignKeyField(Game, on_delete="CASCADE", index=False)
    at = pee.DateTimeField()

    class Meta:
        primary_key = pee.CompositeKey("network", "channel", "bucket", "record", "people")


class SchemaVersion(_Base):
    version = pee.IntegerField()


MODELS: list[type[pee.Model]] = [
    Player,
    PlayerNick,
    Game,
    GameResult,
    ImportedScore,
    PlayerSummary,
    SummaryState,
    PlayerSetting,
    Tournament,
    TournamentEntry,
    TournamentScore,
    PlayerRating,
    GameMoves,
    LiveGame,
    LiveLine,
    GameFigures,
    RecordRun,
    RecordBest,
    SchemaVersion,
]


def _v1_core(db: pee.Database, migrator: SchemaMigrator) -> None:
    """Players, nick history, games, results, imported totals, preferences."""
    db.create_tables([Player, PlayerNick, Game, GameResult, ImportedScore, PlayerSetting])


def _v2_summaries(db: pee.Database, migrator: SchemaMigrator) -> None:
    """Per-channel game lookups, and the derived summary table with its ranking indexes."""
    run_migrations(migrator.add_index("game", ("network", "channel", "ended"), False))
    PlayerSummary._meta.without_rowid = isinstance(db, pee.SqliteDatabase)
    db.create_tables([PlayerSummary, SummaryState])
    SummaryState.insert(last_game=0).execute()
    for name, column in (("ppg", "ppg"), ("pw", "pw")):
        db.execute_sql(
            f"CREATE INDEX player_summary_rank_{name} ON player_summary "
            f"(channel, bucket, {column} DESC, games DESC, player_id, network, is_bot)"
        )
    rebuild_summaries(db, teams=False, stopped=False)  # no game.teams before v8, .stopped v11


def _v3_tournaments(db: pee.Database, migrator: SchemaMigrator) -> None:
    """Tournaments: one row each, the log of their entries, their score sheet."""
    db.create_tables([Tournament, TournamentEntry, TournamentScore])


def _v4_ratings(db: pee.Database, migrator: SchemaMigrator) -> None:
    """Skill ratings, one row per player, computed from the games already stored."""
    from unobot.stats.rating_rows import rebuild_rating_rows

    db.create_tables([PlayerRating])
    db.execute_sql(
        "CREATE INDEX player_rating_rank ON player_rating "
        "(network, ordinal DESC, games DESC, player_id)"
    )
    rebuild_rating_rows(db, history=False)  # v5 adds the history columns


def _v5_replays(db: pee.Database, migrator: SchemaMigrator) -> None:
    """Ratings over time (each result's rating after the game, filled by rebuilding the
    ratings), a player's games by index, and each game's move list for replays."""
    from unobot.stats.rating_rows import rebuild_rating_rows

    have = {c.name for c in db.get_columns("game_result")}  # a new store's v1 made them
    run_migrations(
        *(
            migrator.add_column("game_result", name, field)
            for name, field in (("mu", GameResult.mu), ("sigma", GameResult.sigma))
            if name not in have
        ),
        migrator.add_index("game_result", ("player_id", "game_id"), False),
    )
    db.create_tables([GameMoves])
    rebuild_rating_rows(db)


def _v6_sheet_labels(db: pee.Database, migrator: SchemaMigrator) -> None:
    """The score sheet says which game a line belongs to beyond the heats (``label``: "Final",
    "Round 2 game 1"), which hands the clock cut short (``clock``) and the round. Old rows
    read as heats of round 1, as they were written."""
    have = {c.name for c in db.get_columns("tournament_score")}  # a new store's v3 made them
    added = [
        migrator.add_column("tournament_score", column, field)
        for column, field in (
            ("label", TournamentScore.label),
            ("clock", TournamentScore.clock),
            ("round_number", TournamentScore.round),
        )
        if column not in have
    ]
    if added:
        run_migrations(*added)


def _v7_live(db: pee.Database, migrator: SchemaMigrator) -> None:
    """Live games: what is being played now, for the site's ``/live`` and spectator pages
    (kept apart from every other step so it can be renumbered)."""
    db.create_tables([LiveGame, LiveLine])
    db.execute_sql("CREATE INDEX live_game_tournament ON live_game (tournament, table_no)")


def _v8_teams(db: pee.Database, migrator: SchemaMigrator) -> None:
    """Which games were played in teams of two (``game.teams``): the leaderboards, player and
    game pages say so. Old games were not (the default). A step of its own, so it can be
    renumbered when merged with others."""
    if "teams" not in {c.name for c in db.get_columns("game")}:  # a new store's v1 made it
        run_migrations(migrator.add_column("game", "teams", Game.teams))


def _v9_records(db: pee.Database, migrator: SchemaMigrator) -> None:
    """Records (``unobot.stats.record_rows``): each result's figures, the running streaks
    and the holders, filled from the stored games. Here without the move lists (replaying
    them is the core's job, above this layer): ``unobot records rebuild`` adds the fastest
    wins, hands and cards held of the games stored before. Kept apart from every other step
    so it can be renumbered."""
    from unobot.stats.record_rows import rebuild_records

    db.create_tables([GameFigures, RecordRun, RecordBest])
    rebuild_records(db, None)


def _v10_team_boards(db: pee.Database, migrator: SchemaMigrator) -> None:
    """The leaderboards say how many of a player's games were team games: a count in
    ``player_summary`` (``team_games``), backfilled from the stored team games into the rows
    they were folded into (not a rebuild: that keeps only the current week and month, and the
    catch-up's older buckets are the rows' too). A step of its own, so it can be renumbered
    when merged with others."""
    if "team_games" not in {c.name for c in db.get_columns("player_summary")}:  # new store: v2
        # Plain SQL, one statement on both engines: peewee's add_column of a NOT NULL column
        # rebuilds a SQLite table, and this one is WITHOUT ROWID with its rank indexes.
        db.execute_sql(
            "ALTER TABLE player_summary ADD COLUMN team_games INTEGER NOT NULL DEFAULT 0"
        )
    backfill_team_games(db)


def _v11_stopped(db: pee.Database, migrator: SchemaMigrator) -> None:
    """Stopped games (issue 37): ``game.stopped`` and ``player_summary.stopped_games``. A
    stopped game was recorded with whoever led as its winner; it now has none. The games
    stored before whose move list ends in the table's ``stop`` call (``.unostop``) are marked
    stopped and their wins taken back, in the rows and in the summaries they were folded
    into. (A game the table stopped itself when no person was left can't be told from its
    rows without replaying it: those keep their winner.) The records' winning streaks are
    recounted by ``unobot records rebuild``. A step of its own, so it can be renumbered."""
    if "stopped" not in {c.name for c in db.get_columns("game")}:  # a new store's v1 made it
        run_migrations(migrator.add_column("game", "stopped", Game.stopped))
    if "stopped_games" not in {c.name for c in db.get_columns("player_summary")}:
        db.execute_sql(  # plain SQL, as v10: the table is WITHOUT ROWID on SQLite
            "ALTER TABLE player_summary ADD COLUMN stopped_games INTEGER NOT NULL DEFAULT 0"
        )
    stopped = stopped_by_move_list(db)
    if stopped:
        log.info("stats schema: %d game(s) stored before v11 were stopped: no winner", len(stopped))
        backfill_stopped(db, stopped)  # the summary first: it reads the wins taken back
        mark_stopped(db, stopped)


def _last_call(moves: str) -> str:
    """The method of a move list's last journal line (``"stop"``, ``"play"`` ...), "" for
    none. Journal lines are ``[method, arguments]`` JSON (``unobot.core.journal``)."""
    for line in reversed(moves.splitlines()):
        if line.strip():
            try:
                record = json.loads(line)
            except ValueError:
                return ""
            return record[0] if isinstance(record, list) and record else ""
    return ""


def stopped_by_move_list(db: pee.Database) -> list[int]:
    """The ids of the games with a winner whose move list ends with the table's ``stop``
    call: games stopped with ``.unostop``, recorded before v11 as won by whoever led."""
    cur = db.cursor()
    cur.execute(
        "SELECT m.game_id, m.data FROM game_moves m JOIN game g ON g.id = m.game_id "
        "WHERE g.winner_id IS NOT NULL"
    )
    found = []
    for gid, data in cur:
        try:
            moves = unpack_moves(data)
        except (ValueError, zlib.error):
            continue
        if _last_call(moves) == "stop":
            found.append(int(gid))
    return found


def mark_stopped(db: pee.Database, games: list[int]) -> None:
    """Mark ``games`` (row ids) stopped, with no winner (the caller rebuilds the summaries)."""
    cur = db.cursor()
    for start in range(0, len(games), 500):
        chunk = games[start : start + 500]
        marks = ", ".join("?" for _ in chunk)
        cur.execute(
            sql_for(db, f"UPDATE game SET stopped = ?, winner_id = NULL WHERE id IN ({marks})"),
            (True, *chunk),
        )
        cur.execute(
            sql_for(db, f"UPDATE game_result SET won = ? WHERE game_id IN ({marks})"),
            (False, *chunk),
        )


MIGRATIONS: list[Callable[[pee.Database, SchemaMigrator], None]] = [
    _v1_core,
    _v2_summaries,
    _v3_tournaments,
    _v4_ratings,
    _v5_replays,
    _v6_sheet_labels,
    _v7_live,
    _v8_teams,
    _v9_records,
    _v10_team_boards,
    _v11_stopped,
]
SCHEMA_VERSION = len(MIGRATIONS)
REPLAYS_VERSION = 5
"""The version that added the rating history and move lists (``game_result.mu``/``sigma``,
``game_moves``)."""
SHEET_LABELS_VERSION = 6
"""The version that added ``tournament_score.label``, ``clock`` and ``round_number``."""
LIVE_VERSION = 7
"""The version that added ``live_game`` and ``live_line`` (``unobot.stats.live_rows``)."""
TEAMS_VERSION = 8
"""The version that added ``game.teams``."""
RECORDS_VERSION = 9
"""The version that added ``game_figures``, ``record_run`` and ``record_best``."""
TEAM_BOARDS_VERSION = 10
"""The version that added ``player_summary.team_games``."""
STOPPED_VERSION = 11
"""The version that added ``game.stopped`` and ``player_summary.stopped_games``."""
RATINGS_VERSION = 4
"""The version that added ``player_rating``: a store built for an older schema (a test's
stand-in for the bot before ratings) writes games without rating them; the v4 migration and
``unobot ratings rebuild`` rate every game from the rows."""


def schema_version(db: pee.Database) -> int:
    with db.bind_ctx([SchemaVersion]):
        if not db.table_exists("schema_version"):
            return 0
        row = SchemaVersion.select(pee.fn.MAX(SchemaVersion.version)).scalar()
        return int(row or 0)


def migrate(db: pee.Database) -> int:
    """Bring the schema up to :data:`SCHEMA_VERSION`; returns the number of steps applied."""
    applied = 0
    with db.bind_ctx(MODELS):
        db.create_tables([SchemaVersion])
        migrator = SchemaMigrator.from_database(db)
        while True:
            atomic = db.atomic("IMMEDIATE") if isinstance(db, pee.SqliteDatabase) else db.atomic()
            with atomic:
                if isinstance(db, pee.PostgresqlDatabase):
                    db.execute_sql("SELECT pg_advisory_xact_lock(4242042)")
                current = schema_version(db)
                if current >= SCHEMA_VERSION:
                    return applied
                step = MIGRATIONS[current]
                log.info("stats schema: applying v%d (%s)", current + 1, step.__name__)
                step(db, migrator)
                SchemaVersion.delete().execute()
                SchemaVersion.insert(version=current + 1).execute()
                applied += 1
