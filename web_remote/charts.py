"""Charts for the phone pages, drawn on the server as SVG with leather.

Leather writes plain SVG elements with presentation attributes (no script, no
``<style>``), so a chart sits inline in a page under its Content-Security-Policy
and needs no network. It scales to the phone's width (a ``viewBox``, no fixed
size). Each series is told apart without its colour: its own dash pattern and
marker, both repeated in the legend next to the name, and every chart carries
its numbers in words for screen readers (``<title>`` and ``<desc>``).
"""
import dataclasses
import functools
import math
import unicodedata
import xml.etree.ElementTree as ET
from decimal import Decimal
from typing import Callable, Optional, Sequence

import leather
from leather import theme
from leather.shapes.line import Line
from markupsafe import Markup

from firmware_py.story import SOURCES, START, Story
from web_remote import i18n

WIDTH, LINE_HEIGHT = 360, 230  # user units of a line chart: about a CSS px each at 390 px wide
BAR_HEIGHT = 26  # user units per bar of a bar chart
INK, SOFT_INK, GRID, PAPER = "#222", "#444", "#d8d8d8", "#fff"

PROFILE_COLOURS = {"orange": "#E69F00", "sky": "#56B4E9", "green": "#009E73", "yellow": "#F0E442",
                   "blue": "#0072B2", "vermilion": "#D55E00", "purple": "#CC79A7", "grey": "#777777"}
"""The hex value of each colour a profile may choose (``profiles.COLOURS``: Okabe-Ito and grey)."""
SEAT_COLOURS = ("blue", "vermilion", "green", "orange")
SEAT_SYMBOLS = ("circle", "square", "triangle", "diamond")
DASHES = ("none", "7 4", "2 4", "9 3 2 3")  # one per seat: told apart in black and white too


def _style_leather():
    """Dark text on white, in the page's font, at sizes a phone reads (leather's theme is its module)."""
    for part in ("title", "legend", "axis_title", "tick"):
        setattr(theme, f"{part}_font_family", "system-ui, sans-serif")
    theme.title_color, theme.legend_color, theme.axis_title_color, theme.label_color = INK, INK, SOFT_INK, SOFT_INK
    theme.tick_color, theme.zero_color, theme.background_color = GRID, SOFT_INK, PAPER
    theme.legend_font_size = theme.tick_font_size = theme.axis_title_font_size = 13
    theme.legend_font_char_width = theme.tick_font_char_width = 8
    theme.margin = 0.05
    theme.legend_font_char_height = theme.legend_gap = 0  # no room kept for leather's legend: see legend()


_style_leather()


@dataclasses.dataclass(frozen=True)
class Series:
    """One line of a chart: ``points`` are ``(x, y)``; ``colour`` and ``symbol`` name a profile's choices."""

    name: str
    points: tuple
    colour: str
    symbol: str
    dash: str = "none"


def seat_series(names: Sequence[str], profiles: Sequence[Optional[dict]], values: Sequence[Sequence]) -> list:
    """One series per seat: the seat's player's colour and symbol where it has a profile, else the seat's
    own; ``values[seat]`` are the points."""
    series = []
    for seat, (name, points) in enumerate(zip(names, values)):
        profile = profiles[seat] if seat < len(profiles) else None
        colour = profile["colour"] if profile else SEAT_COLOURS[seat % len(SEAT_COLOURS)]
        symbol = profile["symbol"] if profile else SEAT_SYMBOLS[seat % len(SEAT_SYMBOLS)]
        series.append(Series(name, tuple(points), colour, symbol, DASHES[seat % len(DASHES)]))
    return series


def marker(symbol: str, x: float, y: float, colour: str, size: float = 5.0) -> ET.Element:
    """A profile's symbol drawn at ``(x, y)``, filled with its colour and outlined dark."""
    x, y, s = float(x), float(y), size
    shapes = {
        "square": [(-s, -s), (s, -s), (s, s), (-s, s)],
        "diamond": [(0, -s * 1.3), (s * 1.3, 0), (0, s * 1.3), (-s * 1.3, 0)],
        "triangle": [(0, -s * 1.2), (s * 1.2, s), (-s * 1.2, s)],
        "star": [(math.sin(a) * r, -math.cos(a) * r) for a, r in
                 ((i * math.pi / 5, s * 1.4 if i % 2 == 0 else s * 0.6) for i in range(10))],
        "cross": [(-s * .4, -s), (s * .4, -s), (s * .4, -s * .4), (s, -s * .4), (s, s * .4), (s * .4, s * .4),
                  (s * .4, s), (-s * .4, s), (-s * .4, s * .4), (-s, s * .4), (-s, -s * .4), (-s * .4, -s * .4)],
    }
    attributes = {"fill": PROFILE_COLOURS.get(colour, INK), "stroke": INK, "stroke-width": "1"}
    if symbol in shapes:
        points = " ".join(f"{x + dx:.1f},{y + dy:.1f}" for dx, dy in shapes[symbol])
        return ET.Element("polygon", points=points, **attributes)
    if symbol == "heart":
        d = (f"M{x:.1f},{y + s:.1f} C{x - s * 2:.1f},{y - s * .3:.1f} {x - s * .8:.1f},{y - s * 1.6:.1f} "
             f"{x:.1f},{y - s * .5:.1f} C{x + s * .8:.1f},{y - s * 1.6:.1f} {x + s * 2:.1f},{y - s * .3:.1f} "
             f"{x:.1f},{y + s:.1f} Z")
        return ET.Element("path", d=d, **attributes)
    if symbol == "moon":
        d = (f"M{x + s * .4:.1f},{y - s * 1.1:.1f} A{s * 1.2:.1f},{s * 1.2:.1f} 0 1 0 {x + s * .4:.1f},"
             f"{y + s * 1.1:.1f} A{s * .9:.1f},{s * .9:.1f} 0 1 1 {x + s * .4:.1f},{y - s * 1.1:.1f} Z")
        return ET.Element("path", d=d, **attributes)
    return ET.Element("circle", cx=f"{x:.1f}", cy=f"{y:.1f}", r=f"{s:.1f}", **attributes)


class MarkedLine(Line):
    """A leather line with its series' dash, a marker at every point, and a legend entry that shows both."""

    def __init__(self, series: Series):
        super().__init__(PROFILE_COLOURS.get(series.colour, INK), 2.5, series.dash)
        self.series = series

    def to_svg(self, width, height, x_scale, y_scale, series, palette):
        group = super().to_svg(width, height, x_scale, y_scale, series, palette)
        for index, path in enumerate(list(group)):  # a dark casing under each line: light colours show on white
            casing = ET.Element("path", d=path.get("d"), stroke=INK, fill="none")
            casing.set("stroke-width", "4.5")
            if path.get("stroke-dasharray"):
                casing.set("stroke-dasharray", path.get("stroke-dasharray"))
            group.insert(2 * index, casing)
        for datum in series.data():
            group.append(marker(self.series.symbol, x_scale.project(datum.x, 0, width),
                                y_scale.project(datum.y, height, 0), self.series.colour))
        return group

    def legend_to_svg(self, series, palette):
        return []  # the legend is the page's own list (:func:`legend`), which wraps at any width


def legend(series: Sequence[Series]) -> Markup:
    """The names of a chart's series, each after a sample of its line: dash, marker and colour."""
    items = []
    for line in series:
        sample = ET.Element("svg", xmlns="http://www.w3.org/2000/svg", viewBox="0 0 34 16", width="34", height="16")
        sample.set("aria-hidden", "true")
        path = ET.SubElement(sample, "path", d="M1,8 L33,8", stroke=PROFILE_COLOURS.get(line.colour, INK), fill="none")
        path.set("stroke-width", "2.5")
        if line.dash != "none":
            path.set("stroke-dasharray", line.dash)
        sample.append(marker(line.symbol, 17, 8, line.colour, 4.5))
        items.append(Markup("<li>{}{}</li>").format(Markup(ET.tostring(sample, encoding="unicode")), line.name))
    return Markup('<ul class="chart-legend">{}</ul>').format(Markup("").join(items))


LABEL_LINE = 16  # user units per line of a bar's label, written above the bar
LABEL_ROOM = WIDTH * (1 - 2 * 0.05)  # the chart's width inside leather's margins (theme.margin)


def text_width(text: str, size: float = 13) -> float:
    """How wide ``text`` is at ``size`` user units, estimated from above: a wide (CJK) character takes a whole
    em, any other at most 0.62 em (system-ui's widest common letters), so a label measured so never overflows."""
    return sum(size if unicodedata.east_asian_width(char) in "WF" else size * 0.62 for char in text)


def wrapped(text: str, room: float = LABEL_ROOM) -> list:
    """``text`` in lines at most ``room`` wide (:func:`text_width`): broken at spaces, a word too long for a
    line (or text without spaces, as Chinese is written) broken between characters."""
    lines, line = [], ""
    for word in text.split(" "):
        candidate = f"{line} {word}" if line else word
        if text_width(candidate) <= room:
            line = candidate
            continue
        if line:
            lines.append(line)
        line = ""
        for char in word:
            if text_width(line + char) > room and line:
                lines.append(line)
                line = ""
            line += char
    return lines + [line] if line or not lines else lines


class LabelledBars(leather.Bars):
    """Leather's bars, outlined, each under its label (wrapped to the chart's width, so no label is cut and a
    long one never narrows the bars), with its value written on it or, where it is too short, to the right
    of it (of the zero line, for a bar that goes left), in the phone's digits."""

    def __init__(self, colour: str, label: Callable[[float], str], names: dict, lines: int):
        super().__init__(PROFILE_COLOURS.get(colour, INK))
        self.label = label
        self.names = names  # each bar's key -> its label's lines
        self.lines = lines  # label lines above every bar: the most any label needs

    def to_svg(self, width, height, x_scale, y_scale, series, palette):
        group = super().to_svg(width, height, x_scale, y_scale, series, palette)
        zero = float(x_scale.project(0, 0, width))
        for bar, datum in zip(list(group), [datum for datum in series.data()]):
            top, bottom = sorted(map(float, y_scale.project_interval(datum.y, height, 0)))
            for line, words in enumerate(self.names[datum.y]):
                text = ET.SubElement(group, "text", x="0", y=f"{top + LABEL_LINE * (line + 1) - 4:.1f}", fill=INK,
                                     stroke=PAPER)  # a halo where the zero line crosses the label
                text.set("stroke-width", "3")
                text.set("paint-order", "stroke")
                text.set("font-size", "13")
                text.set("font-family", theme.tick_font_family)
                text.text = words
            top += LABEL_LINE * self.lines
            bar.set("y", f"{top:.1f}")
            bar.set("height", f"{bottom - top:.1f}")
            bar.set("stroke", INK)
            bar.set("stroke-width", "1")
            end = float(x_scale.project(datum.x, 0, width))
            written = self.label(datum.x)
            if abs(end - zero) > text_width(written) + 10:
                x, anchor, fill = (end - 5, "end", _text_on(self._fill_color)) if datum.x > 0 else \
                    (end + 5, "start", _text_on(self._fill_color))
            else:
                x, anchor, fill = max(end, zero) + 5, "start", INK
            text = ET.SubElement(group, "text", x=f"{x:.1f}", y=f"{(top + bottom) / 2 + 4.5:.1f}", fill=fill)
            text.set("text-anchor", anchor)
            text.set("font-size", "13")
            text.set("font-family", theme.tick_font_family)
            text.text = written
        return group


class ExactScale(leather.Linear):
    """A linear scale over exactly its domain: leather's rounds it out to its ticks, which would leave part of
    a bar chart's width to values no bar has."""

    def project(self, value, range_min, range_max):
        share = (Decimal(value) - self._data_min) / (self._data_max - self._data_min)
        return Decimal(range_min) + (Decimal(range_max) - Decimal(range_min)) * share


def _text_on(background: str) -> str:
    """Dark or white text, whichever contrasts more with ``background`` (WCAG relative luminance)."""
    channels = [int(background[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    luminance = 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
    return INK if luminance > 0.179 else PAPER


def _svg(chart: leather.Chart, height: int, title: str, description: str, key: str,
         without: Optional[str] = None) -> Markup:
    """The chart as an inline ``<svg>`` that fills its box's width, named for screen readers; ``without``:
    the class of a part of leather's drawing left out (a bar chart's category axis, whose grid lines would
    cross the labels written over the bars)."""
    root = ET.Element("svg", xmlns="http://www.w3.org/2000/svg", viewBox=f"0 0 {WIDTH} {height}", role="img")
    root.set("class", "chart")
    root.set("aria-labelledby", f"{key}-title {key}-desc")
    ET.SubElement(root, "title", id=f"{key}-title").text = title
    ET.SubElement(root, "desc", id=f"{key}-desc").text = description
    root.append(chart.to_svg_group(WIDTH, height))
    for parent in list(root.iter()):
        for child in [child for child in parent if without and child.get("class") == without]:
            parent.remove(child)
    _round_numbers(root)
    return Markup(ET.tostring(root, encoding="unicode"))


def _round_numbers(root: ET.Element):
    """Leather writes coordinates with every digit; two decimals are finer than any screen."""
    for element in root.iter():
        for name, value in element.attrib.items():
            if name in ("x", "y", "x1", "x2", "y1", "y2", "width", "height", "d", "transform"):
                element.set(name, _short_numbers(value))


def _short_numbers(text: str) -> str:
    out, number = [], ""
    for char in text + " ":
        if char.isdigit() or char == "." or (char == "-" and not number):
            number += char
            continue
        if number:
            out.append(_short(number))
            number = ""
        out.append(char)
    return "".join(out)[:-1]


def _short(number: str) -> str:
    try:
        value = float(number)
    except ValueError:
        return number
    return f"{value:.1f}".rstrip("0").rstrip(".") if "." in number else number


def whole_ticks(low: float, high: float, most: int = 6) -> list:
    """Ticks at whole numbers from below ``low`` to above ``high``, at most ``most`` of them, at a round step."""
    for step in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000):
        first, last = math.floor(low / step) * step, math.ceil(high / step) * step
        if (last - first) / step + 1 <= most:
            return list(range(first, last + 1, step))
    return [math.floor(low), math.ceil(high)]


def line_chart(key: str, title: str, series: Sequence[Series], lang: str, *, x_name: str, y_name: str,
               x_ticks: Sequence, x_label: Callable[[float], str], description: str) -> Markup:
    """A line chart of ``series``: ``x_ticks`` where the x axis is labelled (``x_label`` words them),
    the y axis in the phone's digits. ``key`` makes the chart's ids unique in its page."""
    chart = leather.Chart()
    xs = [x for s in series for x, _ in s.points] or [0]
    ys = [y for s in series for _, y in s.points] or [0]
    chart.add_x_scale(min(xs + list(x_ticks)), max(xs + list(x_ticks)) or 1)
    y_ticks = whole_ticks(min(ys + [0]), max(ys + [1]))
    chart.add_y_scale(y_ticks[0], y_ticks[-1])
    chart.add_x_axis(ticks=list(x_ticks), tick_formatter=lambda value, index, count: x_label(value), name=x_name)
    chart.add_y_axis(ticks=y_ticks, tick_formatter=lambda value, index, count: i18n.format_number(lang, value),
                     name=y_name)
    for line in series:
        if line.points:
            chart.add_series(leather.Series(list(line.points), name=line.name), MarkedLine(line))
    return legend(series) + _svg(chart, LINE_HEIGHT, title, description, key)


def bar_chart(key: str, title: str, bars: Sequence[tuple], colour: str, lang: str, *, description: str) -> Markup:
    """A horizontal bar chart of ``(label, value)`` pairs, each label above its bar and each bar's value
    written on it; the bars take the chart's whole width whatever the labels' length."""
    chart = leather.Chart()
    values = [value for _, value in bars] or [0]
    names = {str(index): wrapped(label) for index, (label, _) in enumerate(bars)}
    lines = max((len(words) for words in names.values()), default=1)
    longest = max((text_width(i18n.format_number(lang, value)) for value in values), default=0)
    low, outside = min(values + [0]), longest + 15  # a short bar's value stands right of the zero line:
    fits = -low * outside / (LABEL_ROOM - outside)  # the highest value that leaves it room there
    chart.set_x_scale(ExactScale(low, max(values + [1, fits])))
    chart.add_x_axis(ticks=[0], tick_formatter=lambda value, index, count: "0", name=None)
    chart.add_y_axis(tick_formatter=lambda value, index, count: "", name=None)  # the labels stand over the bars
    chart.add_series(leather.Series([(value, str(index)) for index, (_, value) in reversed(list(enumerate(bars)))]),
                     LabelledBars(colour, lambda value: i18n.format_number(lang, value), names, lines))
    frame = 2 * WIDTH * theme.margin + 20  # leather's margins above and below, and the zero tick's label
    return _svg(chart, round(frame + (BAR_HEIGHT + LABEL_LINE * lines) * max(1, len(bars))), title, description, key,
                without="axis left")


@dataclasses.dataclass(frozen=True)
class Chart:
    """A chart as a page shows it: its heading and its drawing (``key`` is unique in the page)."""

    key: str
    title: str
    svg: Markup


def _described(lang: str, series: Sequence[Series]) -> str:
    """A chart's numbers in words: each series' name and values in order."""
    return "; ".join(i18n.translate(lang, "chart.series", name=line.name,
                                    values=", ".join(i18n.format_number(lang, y) for _, y in line.points))
                     for line in series)


def _source_key(game: str, source: str) -> str:
    return "chart.source.start" if source == START else f"chart.source.{game}.{source}"


def story_charts(game_story: Story, names: Sequence[str], profiles: Sequence[Optional[dict]], lang: str) -> list:
    """The charts of a game's story: the scores after every round, each player's points by source and
    the tiles laid per round."""
    t = functools.partial(i18n.translate, lang)
    rounds = len(game_story.rounds)
    totals = [game_story.start] + list(game_story.rounds)
    scores = seat_series(names, profiles, [[(x, row[seat]) for x, row in enumerate(totals)]
                                           for seat in range(len(names))])

    def round_label(x):
        return t("chart.end") if game_story.final and x == rounds else i18n.format_number(lang, x)

    title = t("chart.scores")
    charts = [Chart("chart-scores", title, line_chart(
        "chart-scores", title, scores, lang, x_name=t("chart.round"), y_name=t("chart.points"),
        x_ticks=range(rounds + 1), x_label=round_label, description=_described(lang, scores)))]
    order = [START] + list(dict.fromkeys(SOURCES[game_story.game].values()))
    for seat, (name, line) in enumerate(zip(names, scores)):
        found = game_story.sources[seat]
        bars = [(t(_source_key(game_story.game, source)), found[source]) for source in order if found.get(source)]
        if not bars:
            continue
        title = t("chart.sources", name=name)
        description = "; ".join(f"{label}: {i18n.format_number(lang, value)}" for label, value in bars)
        charts.append(Chart(f"chart-sources-{seat}", title, bar_chart(
            f"chart-sources-{seat}", title, bars, line.colour, lang, description=description)))
    if game_story.laid:
        laid = seat_series(names, profiles, [[(x, row[seat]) for x, row in enumerate(game_story.laid, 1)]
                                             for seat in range(len(names))])
        title = t("chart.laid")
        charts.append(Chart("chart-laid", title, line_chart(
            "chart-laid", title, laid, lang, x_name=t("chart.round"), y_name=t("chart.tiles"),
            x_ticks=range(1, len(game_story.laid) + 1), x_label=lambda x: i18n.format_number(lang, x),
            description=_described(lang, laid))))
    return charts


def mark(colour: str, symbol: str) -> Markup:
    """A player's symbol in their colour, drawn as the charts draw it, to stand beside their name
    (hidden from screen readers: the name beside it says who)."""
    svg = ET.Element("svg", xmlns="http://www.w3.org/2000/svg", viewBox="0 0 20 20", width="24", height="24")
    svg.set("class", "mark")
    svg.set("aria-hidden", "true")
    svg.set("focusable", "false")
    svg.append(marker(symbol, 10, 10, colour, 6.5))
    return Markup(ET.tostring(svg, encoding="unicode"))
