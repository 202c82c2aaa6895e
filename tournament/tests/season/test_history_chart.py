"""The rating chart (``tournament.season.history_chart``): well-formed SVG that names itself,
a point per event, no inline style (the site's CSP), one event and none."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournament.season import history_chart as chart
from tournament.season import rating

pytestmark = pytest.mark.core

SVG = "{http://www.w3.org/2000/svg}"
TEXT = chart.ChartText(
    title="Rating of Anna <Müller> & co",
    description="Anna's rating after each of the season's \"evenings\"",
    x_axis="Event",
    y_axis="Rating",
    empty="No event played yet.",
)


def _points(count: int) -> list[chart.ChartPoint]:
    records = [
        rating.TableRecord.of(e, e, 1, 1, {1: 1 + e % 3, 2: 1 + (e + 1) % 3, 3: 1 + (e + 2) % 3}) for e in range(count)
    ]
    history = rating.rate(records)[1].history if records else ()
    return chart.points_of(history, [f"{day:02d}.03." for day in range(1, count + 1)])


def _inside_viewbox(root: ET.Element) -> None:
    for circle in root.iter(f"{SVG}circle"):
        assert 0 <= float(circle.get("cx", "-1")) <= chart.WIDTH
        assert 0 <= float(circle.get("cy", "-1")) <= chart.HEIGHT


@given(st.integers(min_value=1, max_value=40))
def test_the_chart_is_well_formed_with_a_point_per_event(count):
    root = ET.fromstring(chart.render(_points(count), TEXT, chart_id="rating-7"))
    assert root.tag == f"{SVG}svg" and root.get("role") == "img"
    assert root.get("viewBox") == f"0 0 {chart.WIDTH} {chart.HEIGHT}"
    assert root.get("aria-labelledby") == "rating-7-title rating-7-desc"
    assert root.find(f"{SVG}title").text == TEXT.title and root.find(f"{SVG}title").get("id") == "rating-7-title"
    assert root.find(f"{SVG}desc").text == TEXT.description
    assert len(list(root.iter(f"{SVG}circle"))) == count
    assert not [element.tag for element in root.iter() if "style" in element.attrib or element.tag == f"{SVG}style"]
    _inside_viewbox(root)
    if count > 1:
        (line,) = root.iter(f"{SVG}polyline")
        assert len(line.get("points").split()) == count
        (band,) = root.iter(f"{SVG}polygon")
        assert len(band.get("points").split()) == 2 * count
    labels = [t.text for t in root.iter(f"{SVG}text")]
    assert "Event" in labels and "Rating" in labels and f"{count:02d}.03." in labels


def test_one_event_is_a_point_with_its_band():
    root = ET.fromstring(chart.render(_points(1), TEXT, chart_id="c"))
    assert len(list(root.iter(f"{SVG}circle"))) == 1
    assert not list(root.iter(f"{SVG}polyline"))
    (band,) = [line for line in root.iter(f"{SVG}line") if line.get("class") == "chart-band"]
    assert float(band.get("y1")) > float(band.get("y2"))  # mu - sigma lower on the page than mu + sigma


def test_no_event_is_a_message_instead_of_a_chart():
    markup = chart.render([], TEXT, chart_id="c")
    root = ET.fromstring(markup)
    assert root.tag == "p" and root.text == "No event played yet." and "svg" not in markup


def test_numbers_are_written_by_the_caller():
    markup = chart.render(_points(2), TEXT, chart_id="c", format_number=lambda v: f"{v:.1f}".replace(".", ","))
    tips = [t.text for t in ET.fromstring(markup).iter(f"{SVG}title")][1:]
    assert all("," in tip and "." not in tip.split(": ")[1] for tip in tips)


@given(st.floats(min_value=-50, max_value=80), st.floats(min_value=0.01, max_value=60))
def test_ticks_cover_the_range_in_round_steps(low, width):
    ticks = chart.nice_ticks(low, low + width)
    assert ticks[0] <= low + 1e-9 and ticks[-1] >= low + width - 1e-9
    assert 2 <= len(ticks) <= 12
    steps = {round(b - a, 6) for a, b in pairwise(ticks)}
    assert len(steps) == 1
