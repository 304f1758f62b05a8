"""The player page's charts: pygal SVG drawn on the server and inlined in the page.

Server-side SVG so a chart needs no script, no network (pygal's tooltip script is left out:
``js=[]``) and no second request; each point carries a ``<title>``, which browsers show on
hover. Each SVG is given ``role="img"`` and a sentence describing it (the trend in words) as
its accessible name, and the page repeats that sentence as the figure's caption.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import pygal
from pygal.style import Style

from unobot.web.queries import RatingPoint, WeekPoints

__all__ = ["ppg_chart", "rating_chart"]

STYLE = Style(
    background="transparent",
    plot_background="#ffffff",
    foreground="#1f2937",
    foreground_strong="#111827",
    foreground_subtle="#6b7280",
    colors=("#1d4ed8", "#b91c1c"),
    font_family='system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
    title_font_size=18,
    label_font_size=13,
    major_label_font_size=13,
    value_font_size=13,
    tooltip_font_size=13,
)
_DOTS_UP_TO = 60
"""Points shown as dots (each with its hover title) up to this many; a line beyond."""
_SVG_OPEN = re.compile(r"<svg\b")
_DROPPED = re.compile(r"<script\b.*?</script>|<!--.*?-->", re.S)
"""pygal writes its tooltip configuration as an inline script even with ``js=[]``: dropped
(no script runs in a chart, and the site's Content-Security-Policy forbids inline ones), with
its comments (a generator banner and links)."""


def _render(chart: pygal.XY, label: str) -> str:
    """The chart's SVG element, named ``label`` for assistive technology."""
    svg = _DROPPED.sub("", chart.render(is_unicode=True))
    return _SVG_OPEN.sub(
        f'<svg role="img" aria-label="{_attr(label)}" focusable="false"', svg, count=1
    )


def _attr(text: str) -> str:
    return (
        text.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;").replace(">", "&gt;")
    )


def _series(
    title: str, y_title: str, labels: Sequence[str], values: Sequence[float], unit: str
) -> pygal.XY:
    """A line of ``values`` over their ``labels`` (dates, oldest first), as an XY chart on the
    values' positions: a handful of the labels are printed (pygal's ``Line`` lays out every
    label, blank or not: twice the time for 500 games), each point's hover title says its
    label and value."""
    chart = pygal.XY(
        js=[],
        disable_xml_declaration=True,
        style=STYLE,
        title=title,
        y_title=y_title,
        width=800,
        height=320,
        show_legend=False,
        show_dots=len(values) <= _DOTS_UP_TO,
        dots_size=3,
        stroke_style={"width": 2.5},
        x_label_rotation=0,
        truncate_label=-1,
        no_data_text="No games yet",
        margin=8,
        margin_right=48,
        show_x_guides=False,
    )
    chart.x_labels = _ticks(len(labels))
    chart.x_value_formatter = lambda x: _label(labels, x)
    chart.value_formatter = lambda v: f"{v:{unit}}"
    chart.add(y_title, list(enumerate(values)))
    return chart


def _ticks(count: int, most: int = 5) -> list[int]:
    """Up to ``most`` evenly spaced positions of ``count`` points, first and last included."""
    if count <= most:
        return list(range(count))
    step = (count - 1) / (most - 1)
    return sorted({round(i * step) for i in range(most)})


def _label(labels: Sequence[str], x: float) -> str:
    index = round(x)
    return labels[index] if 0 <= index < len(labels) else ""


def rating_summary(points: Sequence[RatingPoint]) -> str:
    if not points:
        return "No rated games yet."
    first, last = points[0], points[-1]
    high = max(p.rating for p in points)
    return (
        f"Rating over the last {len(points)} rated game{'s' * (len(points) != 1)}: "
        f"from {first.rating} ({first.ended:%Y-%m-%d}) to {last.rating} "
        f"({last.ended:%Y-%m-%d}), highest {high}."
    )


def rating_chart(points: Sequence[RatingPoint]) -> str:
    """The displayed rating after each game, oldest first."""
    chart = _series(
        "Rating after each game", "rating",
        [f"{p.ended:%Y-%m-%d}" for p in points], [p.rating for p in points], ".0f",
    )  # fmt: skip
    return _render(chart, rating_summary(points))


def ppg_summary(weeks: Sequence[WeekPoints]) -> str:
    if not weeks:
        return "No games yet."
    best = max(weeks, key=lambda w: (w.ppg, w.week))
    return (
        f"Points per game in each of {len(weeks)} week{'s' * (len(weeks) != 1)} played, "
        f"from the week of {weeks[0].week} ({weeks[0].ppg:.1f}) to the week of "
        f"{weeks[-1].week} ({weeks[-1].ppg:.1f}); best the week of {best.week} "
        f"({best.ppg:.1f})."
    )


def ppg_chart(weeks: Sequence[WeekPoints]) -> str:
    """Points per game in each week played (weeks without a game are left out)."""
    chart = _series(
        "Points per game, by week", "points per game",
        [w.week for w in weeks], [round(w.ppg, 2) for w in weeks], ".1f",
    )  # fmt: skip
    return _render(chart, ppg_summary(weeks))
