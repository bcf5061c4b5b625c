"""Every point of every chart of a game's story is the rules core's own figure, over hundreds of random games of
both games at every seat count: the score after each round (the last round's before the final scoring, the
core's ``score_before_final``, which the game-over view's "Rounds 1-N" line shows too), the end after it, the
points of each source (the final scoring's parts as the core's ``final_breakdown`` gives them) and the tiles on
each board at each round's end."""
import random
import re
import xml.etree.ElementTree as ET

import pytest

from firmware_py import games
from firmware_py.story import story
from web_remote import charts, i18n

SVG = "{http://www.w3.org/2000/svg}"
GAMES_PER_SEATING = 100
SEATINGS = [("duel", 2), ("pavilion", 2), ("pavilion", 3), ("pavilion", 4)]
NAMES = ("Ana", "Bea", "Cy", "Dee")
BOARD = {"duel": ("players", "dome"), "pavilion": ("seats", "board")}  # where each seat's laid tiles are kept
FINAL_PARTS = {  # the story's final-scoring sources, from the core's final_breakdown labels
    "duel": {"objectives": lambda label: label not in ("Rounds 1-5",) and not label.startswith("Score floor"),
             "floor": lambda label: label.startswith("Score floor")},
    "pavilion": {"stars": lambda label: label.startswith("Star "), "numbers": lambda label: label.startswith("All "),
                 "leftover": lambda label: label in ("Leftover tiles", "Score floor at 1")},
}


def random_game(name: str, players: int, seed: int) -> tuple:
    """A game played to its end by uniformly random options, drawn in the core (``legal_codes``/``push_code``,
    as its ``random_playout`` plays, but keeping each move and position): (positions, moves, round ends),
    ``round ends`` the core's own figures at each round's end, (scores, tiles on each board)."""
    chooser = random.Random(seed)
    game = games.spec(name).new(players, seed, {})
    positions, moves, ends = [game], [], []
    while not game.is_over():
        game = game.copy()
        code = chooser.choice(game.legal_codes())
        move = str(game.legal_moves()[game.legal_codes().index(code)])
        events = game.push_code(code)
        positions.append(game)
        moves.append(move)
        if any(event["event"] == "round_ended" for event in events):
            state = game.to_dict()
            seats, board = BOARD[name]
            ends.append(([seat["score"] if seat["score_before_final"] < 0 else seat["score_before_final"]
                          for seat in state[seats]],
                         [sum(len(row) - row.count(".") for row in seat[board]) for seat in state[seats]]))
    return positions, moves, ends


def drawn(chart: charts.Chart) -> ET.Element:
    return ET.fromstring(re.search(r'<svg [^>]*role="img".*?</svg>', str(chart.svg), re.S).group(0))


def described(series: list) -> str:
    """A chart's numbers in words as they must read: each seat's name and its values."""
    return "; ".join(f"{name}: {', '.join(i18n.format_number('en', value) for value in values)}"
                     for name, values in series)


def check_points_drawn(svg: ET.Element, series: list):
    """Each series' line passes through its values, in order, on the y scale all series share: every vertex
    lies on one straight map from value to height (to the drawing's tenth of a unit), higher values higher."""
    lines = [path for path in svg.iter(f"{SVG}path") if path.get("fill") == "none" and path.get("stroke-width") == "2.5"]
    assert len(lines) == len(series)
    pairs = []
    for line, (_, values) in zip(lines, series):
        heights = [float(y) for y in re.findall(r"[ML]\s*-?[\d.]+[ ,](-?[\d.]+)", line.get("d"))]
        assert len(heights) == len(values)
        pairs += zip(values, heights)
    (low, low_y), (high, high_y) = min(pairs), max(pairs)
    if high == low:
        assert len({round(y, 1) for _, y in pairs}) == 1
        return
    slope = (high_y - low_y) / (high - low)
    assert slope < 0  # a higher value is drawn higher up
    for value, y in pairs:
        assert abs(low_y + slope * (value - low) - y) <= 0.25, (value, y, pairs)


def check_game(name: str, players: int, seed: int):
    positions, moves, ends = random_game(name, players, seed)
    final = positions[-1]
    names = NAMES[:players]
    drawn_charts = {chart.key: chart for chart in charts.story_charts(story(name, positions, moves), names,
                                                                      [None] * players, "en")}
    breakdown = final.final_breakdown()
    start = list(positions[0].scores())
    rounds = [scores for scores, _ in ends]
    assert [parts[0]["points"] for parts in breakdown] == rounds[-1], "the game-over view's rounds line"
    # The scores: the start, each round's end, the end after the final scoring.
    expected = [(names[seat], [start[seat]] + [row[seat] for row in rounds] + [final.scores()[seat]])
                for seat in range(players)]
    scores = drawn(drawn_charts["chart-scores"])
    assert scores.find(f"{SVG}desc").text == described(expected), (name, players, seed)
    check_points_drawn(scores, expected)
    # The tiles laid each round: what each board gained since the round before.
    tiles = [[0] * players] + [row for _, row in ends]
    laid = [(names[seat], [after[seat] - before[seat] for before, after in zip(tiles, tiles[1:])])
            for seat in range(players)]
    laid_chart = drawn(drawn_charts["chart-laid"])
    assert laid_chart.find(f"{SVG}desc").text == described(laid), (name, players, seed)
    check_points_drawn(laid_chart, laid)
    # The points by source: they add up to the final score, and the final scoring's are the core's parts.
    for seat in range(players):
        chart = drawn_charts.get(f"chart-sources-{seat}")
        bars = {} if chart is None else dict(
            part.rsplit(": ", 1) for part in drawn(chart).find(f"{SVG}desc").text.split("; "))
        as_numbers = {label: int(value.replace(",", "").replace("−", "-").replace("-", "-")) for label, value
                      in bars.items()}
        assert sum(as_numbers.values()) == final.scores()[seat]
        for source, belongs in FINAL_PARTS[name].items():
            points = sum(part["points"] for part in breakdown[seat][1:] if belongs(part["label"]))
            label = i18n.translate("en", f"chart.source.{name}.{source}")
            assert as_numbers.get(label, 0) == points, (name, players, seed, seat, source)


@pytest.mark.parametrize("name, players", SEATINGS)
def test_every_chart_point_is_the_rules_cores_figure(name, players):
    for seed in range(GAMES_PER_SEATING):
        check_game(name, players, seed)
