"""A person's rating over the events as a small SVG line chart, rendered on the server. Pure.

The line is the rating's ``mu`` after each event, the band around it ``mu ± sigma`` (how unsure it
still is); each event is a point with its own tooltip (``<title>``). Every word comes in already
translated (``ChartText``), and numbers are written by the caller's ``format_number`` (the reader's
decimal separator): the module knows no language.

The site's Content-Security-Policy allows no inline style: the SVG uses presentation attributes
(``stroke``, ``fill``, ``stroke-width``, ``fill-opacity``) and class names only, never ``style=``.
Colours are ``currentColor``, so the chart takes the text colour of where it stands (the page's
CSS may colour ``.chart-line``, ``.chart-band``, ``.chart-point`` further). Accessible: ``role="img"``
named by its ``<title>`` and ``<desc>`` (``aria-labelledby``, ids made from ``chart_id``: give each
chart on a page its own), a scalable ``viewBox`` and no fixed size. With no event there is no
chart: a paragraph with ``ChartText.empty`` instead.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from xml.sax.saxutils import escape, quoteattr

from tournament.season.rating import HistoryPoint

WIDTH = 640
HEIGHT = 260
LEFT, RIGHT, TOP, BOTTOM = 64, 28, 16, 56  # room for the first and last labels
# At most this many event labels under the axis (every k-th beyond, the last always).
MAX_X_LABELS = 8
TARGET_TICKS = 5


@dataclass(frozen=True)
class ChartPoint:
    """One event on the chart: its label under the axis, the value and its band."""

    label: str
    value: float
    low: float
    high: float


@dataclass(frozen=True)
class ChartText:
    """The chart's words, already translated: its name and description (read out by a screen
    reader), the axes' titles, and what is shown instead of a chart without any event."""

    title: str
    description: str
    x_axis: str
    y_axis: str
    empty: str


def points_of(history: Sequence[HistoryPoint], labels: Sequence[str]) -> list[ChartPoint]:
    """The chart's points of a rating's history: ``mu`` with ``mu ± sigma``, labelled by ``labels``
    (one per history point, the event as the reader knows it: its date or name)."""
    return [
        ChartPoint(label, point.mu, point.mu - point.sigma, point.mu + point.sigma)
        for point, label in zip(history, labels, strict=True)
    ]


def _one_decimal(value: float) -> str:
    return f"{value:.1f}"


def nice_ticks(low: float, high: float, target: int = TARGET_TICKS) -> list[float]:
    """Round values from at or below ``low`` to at or above ``high``, about ``target`` of them
    (steps of 1, 2 or 5 times a power of ten)."""
    if high <= low:
        low, high = low - 1, high + 1
    raw = (high - low) / max(target - 1, 1)
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    first = math.floor(low / step) * step
    count = math.ceil((high - first) / step - 1e-9)
    return [round(first + i * step, 10) for i in range(count + 1)]


@dataclass(frozen=True)
class _Frame:
    """Where values and events land in the viewBox."""

    ticks: list[float]
    count: int

    def x(self, index: int) -> float:
        inner = WIDTH - LEFT - RIGHT
        if self.count == 1:
            return LEFT + inner / 2
        return LEFT + inner * index / (self.count - 1)

    def y(self, value: float) -> float:
        low, high = self.ticks[0], self.ticks[-1]
        return TOP + (HEIGHT - TOP - BOTTOM) * (high - value) / (high - low)


def _num(value: float) -> str:
    """A coordinate, short and the same on every machine."""
    return f"{value:.1f}"


def _axes(frame: _Frame, points: Sequence[ChartPoint], text: ChartText, fmt: Callable[[float], str]) -> list[str]:
    """The grid with the values' ticks, the events' labels and the axes' titles."""
    parts = ['<g class="chart-grid" stroke="currentColor" stroke-opacity="0.2">']
    parts += [
        f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{_num(frame.y(t))}" y2="{_num(frame.y(t))}"/>' for t in frame.ticks
    ]
    parts.append("</g>")
    parts.append('<g class="chart-ticks" fill="currentColor" font-size="12">')
    parts += [
        f'<text x="{LEFT - 6}" y="{_num(frame.y(t) + 4)}" text-anchor="end">{escape(fmt(t))}</text>'
        for t in frame.ticks
    ]
    every = math.ceil(len(points) / MAX_X_LABELS)
    for index, point in enumerate(points):
        if index % every == 0 or index == len(points) - 1:
            y = HEIGHT - BOTTOM + 18
            parts.append(f'<text x="{_num(frame.x(index))}" y="{y}" text-anchor="middle">{escape(point.label)}</text>')
    parts.append("</g>")
    middle = TOP + (HEIGHT - TOP - BOTTOM) / 2
    parts.append(
        f'<text class="chart-axis" x="{(LEFT + WIDTH - RIGHT) // 2}" y="{HEIGHT - 8}" text-anchor="middle"'
        f' fill="currentColor" font-size="12">{escape(text.x_axis)}</text>'
    )
    parts.append(
        f'<text class="chart-axis" x="14" y="{_num(middle)}" text-anchor="middle" fill="currentColor"'
        f' font-size="12" transform="rotate(-90 14 {_num(middle)})">{escape(text.y_axis)}</text>'
    )
    return parts


def _series(frame: _Frame, points: Sequence[ChartPoint], fmt: Callable[[float], str]) -> list[str]:
    """The band, the line and a point per event (each with its tooltip)."""
    parts: list[str] = []
    if len(points) == 1:
        x, (point,) = frame.x(0), points
        parts.append(
            f'<line class="chart-band" x1="{_num(x)}" x2="{_num(x)}" y1="{_num(frame.y(point.low))}"'
            f' y2="{_num(frame.y(point.high))}" stroke="currentColor" stroke-opacity="0.35" stroke-width="8"/>'
        )
    else:
        upper = [f"{_num(frame.x(i))},{_num(frame.y(p.high))}" for i, p in enumerate(points)]
        lower = [f"{_num(frame.x(i))},{_num(frame.y(p.low))}" for i, p in reversed(list(enumerate(points)))]
        parts.append(
            f'<polygon class="chart-band" points="{" ".join(upper + lower)}" fill="currentColor"'
            ' fill-opacity="0.15" stroke="none"/>'
        )
        line = " ".join(f"{_num(frame.x(i))},{_num(frame.y(p.value))}" for i, p in enumerate(points))
        parts.append(
            f'<polyline class="chart-line" points="{line}" fill="none" stroke="currentColor" stroke-width="2"/>'
        )
    for index, point in enumerate(points):
        tip = f"{point.label}: {fmt(point.value)} ({fmt(point.low)}–{fmt(point.high)})"
        parts.append(
            f'<circle class="chart-point" cx="{_num(frame.x(index))}" cy="{_num(frame.y(point.value))}" r="4"'
            f' fill="currentColor"><title>{escape(tip)}</title></circle>'
        )
    return parts


def render(
    points: Sequence[ChartPoint],
    text: ChartText,
    *,
    chart_id: str,
    format_number: Callable[[float], str] = _one_decimal,
) -> str:
    """The chart as SVG markup (or the empty message as a paragraph), safe to put in a page as is:
    every text is escaped here."""
    if not points:
        return f'<p class="history-chart-empty">{escape(text.empty)}</p>'
    frame = _Frame(nice_ticks(min(p.low for p in points), max(p.high for p in points)), len(points))
    title_id, desc_id = f"{chart_id}-title", f"{chart_id}-desc"
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="history-chart" viewBox="0 0 {WIDTH} {HEIGHT}"'
        f' role="img" aria-labelledby={quoteattr(f"{title_id} {desc_id}")}>'
        f"<title id={quoteattr(title_id)}>{escape(text.title)}</title>"
        f"<desc id={quoteattr(desc_id)}>{escape(text.description)}</desc>"
    )
    return "".join([head, *_axes(frame, points, text, format_number), *_series(frame, points, format_number), "</svg>"])
