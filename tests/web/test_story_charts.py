"""The story of a game in charts: the replay page and the game-over view draw each player's score after every
round, the points by source and the tiles laid per round as inline SVG, in the phone's language, in the
players' own colours and symbols, readable at 320 px and clean for axe-core in real headless Chromium."""
import html as html_module
import random
import re
import urllib.request
import xml.etree.ElementTree as ET

import pytest

from core_ext.ai.baselines import heuristic_move
from firmware_py.journal import Journal
from firmware_py.records import Record
from firmware_py.session import Play, Seat, Session, Setup
from web_remote import i18n, runner
from web_remote.service import RemoteService

pytest.importorskip("playwright")

from playwright.sync_api import expect  # noqa: E402

from tests.web.phones import base_url, check_golden, seated_phone  # noqa: E402
from tests.web.test_page_checks import OVERFLOW, serious_violations  # noqa: E402
from tests.positions import one_move_from_the_end  # noqa: E402

SVG = "{http://www.w3.org/2000/svg}"
DUEL_NAMES = ("Ana", "Bea")
PAVILION_NAMES = ("Ana", "Bartholomew Kensington", "Chen", "Dee")


def finished_record(game, names, seed):
    """A game of ``names`` played to its end by the heuristic reference player (random play ends a Duel at
    0 points), as a record file holds it."""
    setup = Setup(game=game, seats=tuple(Seat("rig", name) for name in names), seed=seed)
    played, chooser, moves = setup.new_game(), random.Random(seed), []
    start = played.to_json()
    while not played.is_over():
        move = heuristic_move(played, chooser)
        moves.append(str(move))
        played.push(move)
    return Record(setup, start, tuple(moves), tuple(played.scores()), tuple(played.winners()))


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """A table whose journal holds a finished Duel and a finished 4-player Summer Pavilion; Ana has a profile
    (yellow heart) that both games' seats named Ana are attached to."""
    journal = Journal(tmp_path_factory.mktemp("journal"))
    duel = journal.import_record(finished_record("duel", DUEL_NAMES, 4))
    pavilion = journal.import_record(finished_record("pavilion", PAVILION_NAMES, 5))
    ana = journal.players.create("Ana", colour="yellow", symbol="heart")
    journal.players.attach("Ana", ana.id)
    setup = Setup(game="duel", seats=(Seat("phone", "Ana"), Seat("phone", "Bea")), seed=1)
    session = Session(setup, journal=journal).start()
    remote = runner.start(RemoteService(session), host="127.0.0.1", port=0)
    remote.games = {"duel": duel, "pavilion": pavilion}
    yield remote
    remote.close()
    session.stop()
    journal.close()


def fetched(remote, path, language="en") -> str:
    asked = urllib.request.Request(f"{base_url(remote)}{path}", headers={"Accept-Language": language})
    with urllib.request.urlopen(asked) as answer:
        return answer.read().decode()


def figures(html: str) -> dict:
    """Each chart of a page, by id: (caption, svg element)."""
    found = {}
    for key, caption, body in re.findall(r'<figure class="chart-figure" id="([^"]+)">\s*<figcaption>(.*?)</figcaption>'
                                         r'(.*?)</figure>', html, re.S):
        svg = re.search(r'<svg [^>]*role="img".*?</svg>', body, re.S).group(0)
        found[key] = (html_module.unescape(caption), ET.fromstring(svg))
    return found


@pytest.mark.parametrize("language", i18n.LANGUAGES)
@pytest.mark.parametrize("game, names", [("duel", DUEL_NAMES), ("pavilion", PAVILION_NAMES)])
def test_the_story_draws_every_chart_labelled_in_the_phones_language(served, game, names, language):
    html = fetched(served, f"/history/{served.games[game]}/story", language)
    drawn = figures(html)
    assert sorted(drawn) == sorted(["chart-scores", "chart-laid"] + [f"chart-sources-{seat}" for seat in range(len(names))])
    t = lambda key, **fields: i18n.translate(language, key, **fields)  # noqa: E731
    assert drawn["chart-scores"][0] == t("chart.scores")
    assert drawn["chart-sources-1"][0] == t("chart.sources", name=names[1])
    record = served.service.session.journal.export(served.games[game])
    for key, (caption, svg) in drawn.items():
        assert svg.get("role") == "img" and svg.get("viewBox") and not svg.get("width"), key
        assert svg.find(f"{SVG}title").text == caption
        assert not [element for element in svg.iter() if "style" in element.attrib or element.tag.endswith("script")]
    scores = drawn["chart-scores"][1]
    texts = [element.text for element in scores.iter(f"{SVG}text")]
    assert t("chart.round") in texts and t("chart.points") in texts and t("chart.end") in texts
    assert re.findall(r"<li><svg[^>]*>.*?</svg>([^<]*)</li>", html.split('id="chart-scores"')[1].split("</figure>")[0]) \
        == [html_module.escape(name) for name in names]  # the legend: each name after its line's sample
    description = scores.find(f"{SVG}desc").text
    for segment, name, final in zip(description.split("; "), names, record.final_scores, strict=True):
        assert segment.startswith(t("chart.series", name=name, values="")), segment
        assert segment.endswith(i18n.format_number(language, final)), segment
    sources = drawn["chart-sources-0"][1]
    assert {element.text for element in sources.iter(f"{SVG}text")} >= {t(f"chart.source.{game}.tiles")}


def test_each_seat_is_drawn_in_its_players_colour_and_symbol_and_else_by_its_seat(served):
    scores = figures(fetched(served, f"/history/{served.games['pavilion']}/story"))["chart-scores"][1]
    lines = [path for path in scores.iter(f"{SVG}path") if path.get("fill") == "none" and path.get("stroke-width") == "2.5"]
    strokes = [line.get("stroke") for line in lines]
    assert strokes[:4] == ["#F0E442", "#D55E00", "#009E73", "#E69F00"]  # Ana's yellow, then the seats' own
    assert len({line.get("stroke-dasharray", "none") for line in lines[:4]}) == 4  # told apart without colour
    hearts = [path for path in scores.iter(f"{SVG}path") if path.get("fill") == "#F0E442" and " C" in path.get("d")]
    assert hearts, "Ana's points are marked with her heart"


CLIPPED_TEXT = """() => [...document.querySelectorAll("svg.chart")].flatMap((chart) => {
  const frame = chart.getBoundingClientRect();
  return [...chart.querySelectorAll("text")].filter((text) => text.textContent.trim()).map((text) => {
    const box = text.getBoundingClientRect();
    return box.left < frame.left - 0.5 || box.right > frame.right + 0.5 || box.top < frame.top - 0.5
      || box.bottom > frame.bottom + 0.5 ? `${text.textContent} ${Math.round(box.left)}-${Math.round(box.right)}`
      + ` in ${Math.round(frame.left)}-${Math.round(frame.right)}` : null;
  }).filter(Boolean);
})"""
"""Every word of every chart, measured in the browser's own glyphs: the texts whose box leaves their chart's."""
BARS_SPAN = """() => [...document.querySelectorAll("svg.chart")].filter((chart) => chart.querySelector("g.bars rect"))
  .map((chart) => {
    const boxes = [...chart.querySelectorAll("g.bars rect")].map((bar) => bar.getBoundingClientRect());
    return (Math.max(...boxes.map((box) => box.right)) - Math.min(...boxes.map((box) => box.left)))
      / chart.getBoundingClientRect().width;
  })"""
"""Each bar chart's bars, from the leftmost to the rightmost end, as a share of the chart's width."""


def test_the_replay_page_shows_the_charts_fitting_a_320_px_phone_in_every_language(served, browser):
    for language in i18n.LANGUAGES:
        context = browser.new_context(base_url=base_url(served), viewport={"width": 320, "height": 568},
                                      is_mobile=True, has_touch=True, locale=language)
        context.add_cookies([{"name": i18n.LANGUAGE_COOKIE, "value": language, "url": base_url(served)}])
        page = context.new_page()
        page.goto(f"/history/{served.games['pavilion']}")
        expect(page.locator("#story figure")).to_have_count(6)
        for figure in page.locator("#story svg.chart").all():
            box = figure.bounding_box()
            assert box["width"] > 250 and box["x"] >= 0 and box["x"] + box["width"] <= 320, (language, box)
        clipped = page.evaluate(CLIPPED_TEXT)
        assert not clipped, (language, clipped)
        for span in page.evaluate(BARS_SPAN):  # long labels never narrow the bars
            assert span > 0.8, (language, span)
        geometry = page.evaluate(OVERFLOW)
        assert geometry["scroll"] <= geometry["width"] and not geometry["over"], (language, geometry)
        context.close()


@pytest.mark.parametrize("game", ["duel", "pavilion"])
def test_the_charts_pass_axe_and_match_their_golden_pictures(served, browser, game):
    context = browser.new_context(base_url=base_url(served), viewport={"width": 390, "height": 844},
                                  is_mobile=True, has_touch=True, locale="en")
    page = context.new_page()
    page.goto(f"/history/{served.games[game]}")
    page.locator("#board svg").first.wait_for()  # drawn above the charts: the page settles before the picture
    page.locator("#story figure").first.wait_for()
    page.evaluate("document.fonts.ready")
    page.locator("#story").scroll_into_view_if_needed()
    assert not serious_violations(page)
    check_golden(page, "#story", f"story-{game}")
    context.close()


@pytest.fixture
def game_over(tmp_path, start_table):
    """A 3-player Summer Pavilion kept in a journal, one decision from its end: (remote, journal, last move)."""
    journal = Journal(tmp_path)
    setup = Setup(game="pavilion", seats=(Seat("phone", "Ana"), Seat("rig", "Bo"), Seat("rig", "Cy")), seed=6)
    game, last = one_move_from_the_end(setup, 6)
    remote, running = start_table(setup, game=game, journal=journal)
    yield remote, running, journal, last
    journal.close()


def test_the_game_over_view_shows_the_games_charts_once_it_ends(game_over, browser):
    remote, running, journal, last = game_over
    page = seated_phone(browser, remote, 0, {"width": 320, "height": 568})
    expect(page.locator("#story-charts figure")).to_have_count(0)
    running.session.call(Play(running.session.snapshot.current_player, last))
    expect(page.locator("#over")).to_be_visible()
    expect(page.locator("#story-charts #chart-scores svg.chart")).to_be_visible()
    expect(page.locator("#story-charts figure")).to_have_count(5)
    assert page.locator("#rematch").count() == 1
    geometry = page.evaluate(OVERFLOW)
    assert geometry["scroll"] <= geometry["width"] and not geometry["over"], geometry
    page.context.close()
