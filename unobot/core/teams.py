"""The teams of a game in teams, made in the lobby and seated at the deal.

Pairs (``.uno pairs``): ``.team <nick>`` asks a partner, two asks (or one of a computer player,
which never refuses) make a team; at the deal partners sit opposite. Two teams (``.uno
two-teams``): ``.team a``/``.team b`` or ``.team <nick>`` choose a side; at the deal the seats
alternate between the sides. A :class:`Teams` keeps what was agreed, as the players
(:class:`~unobot.core.seats.Player` values, so a team survives a nick change), and says the
teams' refusals; the table asks it at the deal for the seat order.
"""

from __future__ import annotations

from collections.abc import Sequence

from unobot.core.seats import NAME, Player, find_seat
from unobot.core.updates import TableEvent, TeamAsked, TeamJoined, TeamMade, Totals
from unobot.engine.errors import UnoError
from unobot.engine.rules import HouseRules, Scoring, TeamGame
from unobot.i18n import domain

_, ngettext = domain("game")

__all__ = ["Teams"]


class Teams:
    """What the lobby agreed on teams, and the seat order it gives at the deal."""

    def __init__(self, rules: HouseRules) -> None:
        self.kind: TeamGame | None = rules.team_game if rules.teams else None
        """The kind of teams the game is played in; None: not in teams."""
        self._sizes = rules.team_sizes
        self._most = rules.max_players // 2
        self.pairs: list[tuple[Player, Player]] = []
        """Teams agreed in the lobby (``.team``), in the order they were made; at the deal the
        rest are paired in join order (:meth:`seat`)."""
        self.asks: list[tuple[Player, Player]] = []
        """``.team`` requests not answered yet: (who asked, whom)."""
        self.sides: list[tuple[Player, int]] = []
        """Two teams: who chose a team in the lobby and which (0: A, 1: B), in the order
        chosen; after the deal every player is here."""

    # --- the lobby's .team -------------------------------------------------------------------

    def choose(self, me: Player, word: str, players: Sequence[Player]) -> TableEvent:
        """``me`` said ``.team <word>`` in the lobby (the table has checked it is a lobby of a
        game in teams): a partner asked or agreed (pairs), or a side chosen (two teams)."""
        if self.kind is TeamGame.TWO_TEAMS:
            return self._join_side(me, word, players)
        seat = find_seat(players, word, computer=None) if NAME.fullmatch(word) else None
        if seat is None:
            raise UnoError(_("no player of that name is in this game: they .join first"))
        them = players[seat]
        if them is me:
            raise UnoError(_("your partner is another player: .team <their nick>"))
        mine = self.partner_of(me)
        if mine is them:
            raise UnoError(_("you already play with {nick}", nick=them.nick))
        if mine is not None:
            raise UnoError(_("you already play with {nick}: a team is two players", nick=mine.nick))
        theirs = self.partner_of(them)
        if theirs is not None:
            raise UnoError(
                _(
                    "{nick} already plays with {other}: a team is two players",
                    nick=them.nick,
                    other=theirs.nick,
                )
            )
        if them.computer or (them, me) in self.asks:
            self.asks = [a for a in self.asks if me not in a and them not in a]
            self.pairs.append((me, them) if players.index(me) < seat else (them, me))
            return TeamMade(me.nick, them.nick)
        self.asks = [a for a in self.asks if a[0] is not me] + [(me, them)]
        return TeamAsked(me.nick, them.nick)

    def _join_side(self, me: Player, word: str, players: Sequence[Player]) -> TableEvent:
        """Two teams: ``.team a`` / ``.team b`` joins that team; ``.team <nick>`` joins the
        team of that player; when they have none yet, they come to ours, and when neither of
        us has one both join the smaller team (A on a tie). A team holds at most half the
        table's seats (``max_players / 2``); a player may change team until the deal. The
        letters win over a player called ``a`` or ``b``."""
        letter = word.lower()
        joining = [me]
        if letter in ("a", "b"):
            side = "ab".index(letter)
        else:
            seat = find_seat(players, word, computer=None) if NAME.fullmatch(word) else None
            if seat is None:
                raise UnoError(_("name a team, .team a or .team b, or a player of this game"))
            them = players[seat]
            if them is me:
                raise UnoError(_("name a team, .team a or .team b, or another player"))
            theirs, mine = self.side_of(them), self.side_of(me)
            if theirs is not None:
                side = theirs
            elif mine is not None:  # they come to our team
                joining, side = [them], mine
            else:
                joining.append(them)
                others = [s for _p, s in self.sides]
                side = 1 if others.count(1) < others.count(0) else 0
        name = "AB"[side]
        joining = [p for p in joining if self.side_of(p) != side]
        if not joining:
            raise UnoError(_("you already play for team {team}", team=name))
        staying = [p for p, s in self.sides if s == side]
        if len(staying) + len(joining) > self._most:
            raise UnoError(_("team {team} is full: {n} players at most", team=name, n=self._most))
        self.sides = [c for c in self.sides if c[0] not in joining]
        self.sides += [(p, side) for p in joining]
        members = tuple(p.nick for p, s in self.sides if s == side)
        return TeamJoined(tuple(p.nick for p in joining), name, members)

    def drop(self, player: Player) -> None:
        """``player`` left the lobby: their team, asks and side go with them."""
        self.pairs = [p for p in self.pairs if player not in p]
        self.asks = [a for a in self.asks if player not in a]
        self.sides = [c for c in self.sides if c[0] is not player]

    # --- reading -----------------------------------------------------------------------------

    def partner_of(self, player: Player) -> Player | None:
        """``player``'s partner agreed in the lobby (or seated opposite after the deal)."""
        for a, b in self.pairs:
            if a is player:
                return b
            if b is player:
                return a
        return None

    def side_of(self, player: Player) -> int | None:
        """Two teams: ``player``'s team (0: A, 1: B), chosen in the lobby or dealt; None."""
        return next((side for p, side in self.sides if p is player), None)

    def names(self, players: Sequence[Player], *, dealt: bool) -> tuple[tuple[str, ...], ...]:
        """The teams in seat order of their first member (after the deal: partners sit
        opposite, seat ``t`` and ``t + players/2``); () when the game is not in teams. Two
        teams: team A, then team B (before the deal only those who chose, maybe nobody; after
        it the even seats, then the odd)."""
        if self.kind is None:
            return ()
        if self.kind is TeamGame.TWO_TEAMS:
            if not dealt:
                return tuple(
                    tuple(p.nick for p, side in self.sides if side == team) for team in (0, 1)
                )
            return (
                tuple(p.nick for p in players[0::2]),
                tuple(p.nick for p in players[1::2]),
            )
        if not dealt:
            return tuple((a.nick, b.nick) for a, b in self.pairs)
        half = len(players) // 2
        return tuple((players[t].nick, players[t + half].nick) for t in range(half))

    def totals(self, players: Sequence[Player], totals: Sequence[int], rules: HouseRules) -> Totals:
        """A match's ``totals`` (by seat, or by team in teams) as the channel reads them:
        two teams by their letters, partners' once per team (their totals are the team's),
        else each player's."""
        own = rules.scoring is Scoring.OWN_POINTS
        if self.kind is TeamGame.TWO_TEAMS:
            return Totals(
                (("A", totals[0]), ("B", totals[1])), rules.target_score, own, lettered=True
            )
        if self.kind is not None:
            teams = self.names(players, dealt=True)
            named = tuple((" + ".join(team), totals[t]) for t, team in enumerate(teams))
            return Totals(named, rules.target_score, own)
        scores = tuple(zip((p.nick for p in players), totals, strict=True))
        return Totals(scores, rules.target_score, own)

    # --- the deal ------------------------------------------------------------------------------

    def check_deal(self, n: int) -> None:
        """Refuse a deal to ``n`` players that these teams can't be dealt to: a number of
        players the teams don't divide, or two teams one of which more than half chose."""
        if self.kind is None:
            return
        two_teams = self.kind is TeamGame.TWO_TEAMS
        if n not in self._sizes:
            if two_teams:  # at most 10 can sit: an odd number wants one more
                raise UnoError(
                    _(
                        "two teams are dealt to 4, 6, 8 or 10 players, not {n}: others can .join",
                        n=n,
                    )
                )
            if n < 6:
                raise UnoError(
                    _("teams of two are dealt to 4 or 6 players, not {n}: others can .join", n=n)
                )
            raise UnoError(
                _("teams of two are dealt to 4 or 6 players, not {n}: someone must .leave", n=n)
            )
        if two_teams:
            self._check_sides(n)

    def _check_sides(self, n: int) -> None:
        """Two teams are even at the deal: a team chosen by more than half the players can't
        be."""
        half = n // 2
        for side, name in enumerate("AB"):
            chosen = sum(1 for _p, s in self.sides if s == side)
            if chosen > half:
                raise UnoError(
                    _(
                        "team {team} has {k} players, more than half of {n}: someone moves "
                        "with .team {other}",
                        team=name,
                        k=chosen,
                        n=n,
                        other="ba"[side],
                    )
                )

    def seat(self, players: Sequence[Player]) -> list[Player]:
        """The seat order at the deal (the teams then are those seats'); ``players`` in join
        order. Not in teams: as they are."""
        if self.kind is TeamGame.TWO_TEAMS:
            return self._seat_two_teams(players)
        if self.kind is not None:
            return self._seat_pairs(players)
        return list(players)

    def _seat_two_teams(self, players: Sequence[Player]) -> list[Player]:
        """Seats alternate between the teams (the sheet: "two teams, seats alternating"):
        the players who chose no team are dealt, in join order, each to the smaller team (A
        on a tie), so with no choices the seats are the join order; then team A takes the even
        seats and team B the odd, each team in join order."""
        order = {id(p): i for i, p in enumerate(players)}
        teams: list[list[Player]] = [[], []]
        chosen = {id(p): side for p, side in self.sides}
        for p in players:
            if id(p) in chosen:
                teams[chosen[id(p)]].append(p)
        for p in players:
            if id(p) not in chosen:
                teams[1 if len(teams[1]) < len(teams[0]) else 0].append(p)
        a, b = (sorted(t, key=lambda p: order[id(p)]) for t in teams)
        seated = [p for pair in zip(a, b, strict=True) for p in pair]
        self.sides = [(p, s % 2) for s, p in enumerate(seated)]
        return seated

    def _seat_pairs(self, players: Sequence[Player]) -> list[Player]:
        """Seat partners opposite: the players not paired with ``.team`` are paired in join
        order, then team ``t`` (teams ordered by their earliest joiner, so the starter's team
        comes first) takes seats ``t`` and ``t + players/2``, its earlier joiner first."""
        order = {id(p): i for i, p in enumerate(players)}
        paired = {id(p) for pair in self.pairs for p in pair}
        alone = [p for p in players if id(p) not in paired]
        pairs = [*self.pairs, *zip(alone[::2], alone[1::2], strict=True)]
        teams = sorted(
            (sorted(pair, key=lambda p: order[id(p)]) for pair in pairs),
            key=lambda team: order[id(team[0])],
        )
        self.pairs = [(t[0], t[1]) for t in teams]
        self.asks = []
        return [t[0] for t in teams] + [t[1] for t in teams]
