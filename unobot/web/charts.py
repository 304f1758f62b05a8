"""The player page's charts: pygal SVG drawn on the server and inlined in the page.

Server-side SVG so a chart needs no script, no network (pygal's tooltip script is left out:
``js=[]``) and no second request; each point carries a ``<title>``, which browsers show on
hover. Each SVG is given ``role="img"`` and a sentence describing it (the trend in words) as
its accessible name, and the page repeats that sentence as the figure's caption.
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date, datetime

import pygal
from babel.dates import format_date
from pygal.style import Style

from unobot.i18n import domain
from unobot.web import lang as site_lang
from unobot.web.queries import RatingPoint, WeekPoints

_, ngettext = domain("web")

__all__ = [
    "PPG_CHART_FROM",
    "RATING_CHART_FROM",
    "axis_ticks",
    "ppg_chart",
    "ppg_summary",
    "rating_chart",
    "rating_summary",
]

FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif'


def _style(text: int, title: int) -> Style:
    """The site's colours with every font size pygal knows set (its defaults leave value
    labels at 10 and "no data" at 64 user units)."""
    return Style(
        background="transparent",
        plot_background="#ffffff",
        foreground="#1f2937",
        foreground_strong="#111827",
        foreground_subtle="#6b7280",
        colors=("#1d4ed8", "#b91c1c"),
        font_family=FONT,
        title_font_size=title,
        label_font_size=text,
        major_label_font_size=text,
        value_font_size=text,
        value_label_font_size=text,
        tooltip_font_size=text,
        legend_font_size=text,
        no_data_font_size=title,
    )


@dataclass(frozen=True)
class Layout:
    """One drawing of a chart. The SVG scales to its column (viewBox, ``width: 100%``), so a
    label of ``text`` user units shows at ``text * column / width`` CSS pixels: one drawing
    800 wide for columns from 608 px (the site's 40rem breakpoint; 15 units show as 11.4 px
    there, 18.6 px in the 992 px desktop column) and one 400 wide below it (14 units show as
    11.8 px in a 360 px phone's 336 px column). The page's CSS shows one of the two."""

    css: str
    width: int
    height: int
    style: Style
    titled: bool
    """Chart and axis titles drawn (the narrow drawing leaves them to the page's heading)."""
    x_labels: int


WIDE = Layout("chart-wide", 800, 320, _style(15, 18), True, 5)
NARROW = Layout("chart-narrow", 400, 280, _style(14, 15), False, 3)
LAYOUTS = (WIDE, NARROW)
RATING_CHART_FROM = 4
"""Rated games the rating chart needs; with fewer (a new player, a new database) the page's
sentence gives every value instead of a chart of one dot in an empty frame."""
PPG_CHART_FROM = 3
"""Weeks played the points-per-game chart needs (each week's point already sums its games)."""
_DOTS_UP_TO = 60
"""Points shown as dots (each with its hover title) up to this many; a line beyond."""
_SVG_OPEN = re.compile(r"<svg\b")
_DROPPED = re.compile(r"<script\b.*?</script>|<!--.*?-->", re.S)
"""pygal writes its tooltip configuration as an inline script even with ``js=[]``: dropped
(no script runs in a chart, and the site's Content-Security-Policy forbids inline ones), with
its comments (a generator banner and links)."""


def _render(chart: pygal.XY, label: str, css: str) -> str:
    """The chart's SVG element, named ``label`` for assistive technology."""
    svg = _DROPPED.sub("", chart.render(is_unicode=True))
    return _SVG_OPEN.sub(
        f'<svg role="img" aria-label="{_attr(label)}" focusable="false" data-chart="{css}"',
        svg,
        count=1,
    ).replace('class="pygal-chart"', f'class="pygal-chart {css}"', 1)


def _attr(text: str) -> str:
    return (
        text.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;").replace(">", "&gt;")
    )


def _series(
    layout: Layout,
    title: str,
    y_title: str,
    labels: Sequence[str],
    values: Sequence[float],
    unit: str,
    min_span: int,
) -> pygal.XY:
    """A line of ``values`` over their ``labels`` (dates, oldest first), as an XY chart on the
    values' positions: a handful of the labels are printed (pygal's ``Line`` lays out every
    label, blank or not: twice the time for 500 games), each point's hover title says its
    label and value. The y axis is :func:`axis_ticks` of the values (pygal's own ticks
    repeat a label when the values barely move: ``131, 131, 131, 130``)."""
    chart = pygal.XY(
        js=[],
        disable_xml_declaration=True,
        style=layout.style,
        title=title if layout.titled else None,
        y_title=y_title if layout.titled else None,
        width=layout.width,
        height=layout.height,
        show_legend=False,
        show_dots=len(values) <= _DOTS_UP_TO,
        dots_size=3,
        stroke_style={"width": 2.5},
        x_label_rotation=0,
        truncate_label=-1,
        no_data_text=_("No games yet"),
        margin=8,
        margin_right=48,  # half the last date label sticks out past the plot
        show_x_guides=False,
    )
    ticks = axis_ticks(min(values, default=0), max(values, default=0), min_span)
    chart.range = (ticks[0], ticks[-1])
    chart.y_labels = [{"label": str(t), "value": t} for t in ticks]
    chart.x_labels = _ticks(len(labels), layout.x_labels)
    chart.x_value_formatter = lambda x: _label(labels, x)
    chart.value_formatter = lambda v: f"{v:{unit}}"
    chart.add(y_title, list(enumerate(values)))
    return chart


def axis_ticks(low: float, high: float, min_span: int, most: int = 5) -> list[int]:
    """Distinct whole-number ticks from a round number at or below ``low`` to one at or above
    ``high``, at most ``most`` intervals of 1, 2 or 5 times a power of ten, spanning at least
    ``min_span`` (centred on the data; never below 0 for data that is not)."""
    span = max(min_span, 1)
    if high - low < span:
        middle = (low + high) / 2
        low = middle - span / 2
        if low < 0 <= min(middle, high):
            low = 0
        high = low + span
    for power in itertools.count():
        for factor in (1, 2, 5):
            step = factor * 10**power
            first = math.floor(low / step) * step
            last = math.ceil(high / step) * step
            if last - first <= most * step:
                return list(range(first, last + 1, step))
    raise AssertionError("unreachable")


def _ticks(count: int, most: int = 5) -> list[int]:
    """Up to ``most`` evenly spaced positions of ``count`` points, first and last included."""
    if count <= most:
        return list(range(count))
    step = (count - 1) / (most - 1)
    return sorted({round(i * step) for i in range(most)})


def _label(labels: Sequence[str], x: float) -> str:
    index = round(x)
    return labels[index] if 0 <= index < len(labels) else ""


def _drawings(draw: Callable[[Layout], str], enough: bool) -> str:
    """Every layout's drawing of a chart, or "" without ``enough`` points (the page then says
    the values in words)."""
    return "".join(draw(layout) for layout in LAYOUTS) if enough else ""


def _day(when: datetime | str) -> str:
    """A day (a datetime, or an ISO date as the weeks are keyed) as the language writes it:
    ``2026-11-16`` in English (the axis's own form), ``16.11.2026``, ``16 lis 2026``..."""
    day = date.fromisoformat(when) if isinstance(when, str) else when.date()
    loc = site_lang.babel_locale()
    return day.isoformat() if loc is None else format_date(day, "medium", locale=loc)


def _one_decimal(value: float) -> str:
    """``12.5`` as the language writes it (``12,5`` in German, Polish...)."""
    loc = site_lang.babel_locale()
    return f"{value:.1f}" if loc is None else site_lang.format_number(value, "#,##0.0", loc)


def rating_summary(points: Sequence[RatingPoint]) -> str:
    if not points:
        return _("No rated games yet.")
    if len(points) < RATING_CHART_FROM:
        values = ", ".join(f"{p.rating} ({_day(p.ended)})" for p in points)
        return _(
            "Rating after each rated game so far: {values}. The chart starts at {n} rated games.",
            values=values,
            n=RATING_CHART_FROM,
        )
    first, last = points[0], points[-1]
    high = max(p.rating for p in points)
    return ngettext(
        "Rating over the last {n} rated game: from {first} ({first_date}) to {last} "
        "({last_date}), highest {high}.",
        "Rating over the last {n} rated games: from {first} ({first_date}) to {last} "
        "({last_date}), highest {high}.",
        len(points),
        first=first.rating,
        first_date=_day(first.ended),
        last=last.rating,
        last_date=_day(last.ended),
        high=high,
    )


RATING_SPAN = 20
"""The rating axis spans at least this much (a newcomer's first games move it a few points)."""
PPG_SPAN = 5


def rating_chart(points: Sequence[RatingPoint]) -> str:
    """The displayed rating after each game, oldest first: one SVG per layout, or "" for
    fewer than :data:`RATING_CHART_FROM` games."""
    labels = [f"{p.ended:%Y-%m-%d}" for p in points]
    values = [p.rating for p in points]
    label = rating_summary(points)
    return _drawings(
        lambda layout: _render(
            _series(layout, _("Rating after each game"), _("rating"), labels, values, ".0f",
                    RATING_SPAN),
            label, layout.css,
        ),
        len(points) >= RATING_CHART_FROM,
    )  # fmt: skip


def ppg_summary(weeks: Sequence[WeekPoints]) -> str:
    if not weeks:
        return _("No games yet.")
    if len(weeks) < PPG_CHART_FROM:
        values = "; ".join(
            ngettext(
                "{ppg} in the week of {week} ({n} game)",
                "{ppg} in the week of {week} ({n} games)",
                w.games,
                ppg=_one_decimal(w.ppg),
                week=_day(w.week),
            )
            for w in weeks
        )
        return _(
            "Points per game: {values}. The chart starts at {n} weeks played.",
            values=values,
            n=PPG_CHART_FROM,
        )
    best = max(weeks, key=lambda w: (w.ppg, w.week))
    return ngettext(
        "Points per game in each of {n} week played, from the week of {first} ({first_ppg}) "
        "to the week of {last} ({last_ppg}); best the week of {best} ({best_ppg}).",
        "Points per game in each of {n} weeks played, from the week of {first} ({first_ppg}) "
        "to the week of {last} ({last_ppg}); best the week of {best} ({best_ppg}).",
        len(weeks),
        first=_day(weeks[0].week),
        first_ppg=_one_decimal(weeks[0].ppg),
        last=_day(weeks[-1].week),
        last_ppg=_one_decimal(weeks[-1].ppg),
        best=_day(best.week),
        best_ppg=_one_decimal(best.ppg),
    )


def ppg_chart(weeks: Sequence[WeekPoints]) -> str:
    """Points per game in each week played (weeks without a game are left out); "" for fewer
    than :data:`PPG_CHART_FROM` weeks."""
    labels = [w.week for w in weeks]
    values = [round(w.ppg, 2) for w in weeks]
    label = ppg_summary(weeks)
    return _drawings(
        lambda layout: _render(
            _series(layout, _("Points per game, by week"), _("points per game"), labels,
                    values, ".1f", PPG_SPAN),
            label, layout.css,
        ),
        len(weeks) >= PPG_CHART_FROM,
    )  # fmt: skip
