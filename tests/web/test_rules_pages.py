"""The rules on the phone: a section for every decision of both games, texts whose numbers come from the
rules cores, a picture of a real position per decision with its choices outlined, a link from the live
page's pending decision straight to its section; in real headless Chromium, in every language."""
import random
from html import unescape
import re
import urllib.error
import urllib.request

import pytest

from core_ext import duel, pavilion
from core_ext.ai.baselines import heuristic_move
from firmware_py import games
from firmware_py.session import Seat, Session, Setup
from web_remote import i18n, rules, runner
from web_remote.messages import MESSAGES
from web_remote.service import RemoteService

CORES = {"duel": duel, "pavilion": pavilion}
OFF_BOARD = {"duel": ("over",), "pavilion": ("pay", "over")}  # decisions whose choices are buttons, not parts


def random_games(game, count):
    """``count`` games of ``game`` played by the heuristic player with a random option now and then (random
    play alone keeps Duel scores at the floor): each as its list of (position, events)."""
    for seed in range(count):
        played = games.spec(game).new(2 if game == "duel" else 2 + seed % 3, seed, {})
        chooser, pushed = random.Random(seed), []
        while not played.is_over():
            before = played.copy()
            move = chooser.choice(played.legal_moves()) if chooser.random() < 0.3 else heuristic_move(played, chooser)
            pushed.append((before, played.push(move)))
        yield pushed


@pytest.mark.parametrize("game", sorted(CORES))
def test_every_decision_of_the_core_has_a_section_naming_only_what_the_core_has(game):
    core = CORES[game]
    explained = [decision for section in rules.SECTIONS[game] for decision in section.decisions]
    assert sorted(explained) == sorted(core.PENDING)  # each decision kind once
    kinds = {kind for kind, _ in core.EVENTS}
    for section in rules.SECTIONS[game]:
        assert set(section.events) <= kinds, (section.key, set(section.events) - kinds)
        assert f"rules.{game}.{section.key}.title" in MESSAGES and f"rules.{game}.{section.key}.text" in MESSAGES
    assert {rules.section_of(game, decision) for decision in core.PENDING} <= {s.key for s in rules.SECTIONS[game]}


@pytest.mark.parametrize("game", sorted(CORES))
def test_every_scoring_event_of_the_core_is_explained_by_a_section_with_a_picture(game):
    """A family can look up every way a score changes: each scoring kind is told by a section that draws a
    real position (a section of a decision has its picture), and its reason quotes the numbers that section does."""
    pictured = {event for section in rules.SECTIONS[game] if section.decisions for event in section.events}
    assert CORES[game].SCORING_EVENTS <= pictured, CORES[game].SCORING_EVENTS - pictured


@pytest.mark.parametrize("language", i18n.LANGUAGES)
@pytest.mark.parametrize("game", sorted(CORES))
def test_every_text_fills_in_all_its_numbers_in_every_language(game, language):
    fields = rules.fields(game, language)
    for section in rules.SECTIONS[game]:
        text = i18n.translate(language, f"rules.{game}.{section.key}.text", **fields)
        assert "{" not in text and "}" not in text, (section.key, text)
        if language != i18n.SOURCE_LANGUAGE:  # translated, not left in English (as a fuzzy entry would be)
            for part in ("title", "text"):
                key = f"rules.{game}.{section.key}.{part}"
                assert i18n.translate(language, key, **fields) != i18n.translate("en", key, **fields), (language, key)
    if game == "pavilion":
        end = i18n.translate(language, "rules.pavilion.end.text", **fields)
        assert all(str(points) in end for _, _, points, _, _ in pavilion.BOARD["stars"])


def test_the_duel_broken_tile_penalties_quoted_are_the_cores():
    """Each penalty of n broken tiles without the starting-player tile costs the first n values quoted,
    unless the score's floor of 0 took less; every count from 1 to 4 comes up."""
    seen = set()
    for pushed in random_games("duel", 30):
        for before, events in pushed:
            for event in events:
                if event["event"] == "penalty" and not event["start_tile"] and event["broken"]:
                    cost = sum(rules.BROKEN_PENALTIES[:event["broken"]])
                    if before.scores()[event["player"]] >= cost + 10:  # far from the floor, even after this turn's other points
                        assert event["points"] == -cost, event
                        seen.add(event["broken"])
    assert seen == {1, 2, 3, 4}


def test_the_duel_objective_points_quoted_are_the_cores():
    """Over finished games with each objective in play, every value the core scored is a whole number of the
    quoted unit (rows, columns, edge spaces, wild spaces, empty special spaces), a sum of the quoted corner
    values, or of the quoted diagonal value, and the unit itself comes up."""
    from math import gcd

    points = rules.OBJECTIVE_POINTS
    units = {"horizontal": points["horizontal"], "colourful": points["colourful"], "vertical": points["vertical"],
             "outer": points["outer"], "wild": points["wild"], "special": points["special"]}
    corners = {a + b + c + d for a in (0, points["corner_top"]) for b in (0, points["corner_top"])
               for c in (0, points["corner_bottom"]) for d in (0, points["corner_bottom"])}
    seen = {objective: set() for objective in duel.OBJECTIVES}
    for seed in range(30):
        for first in range(4):  # one side of each tablet in turn, the rest from the other tablets
            named = [duel.OBJECTIVES[2 * first + seed % 2]] + [duel.OBJECTIVES[2 * t + (seed // 2) % 2]
                                                               for t in range(4) if t != first][:2]
            played, chooser = duel.Game(seed=seed, objectives=named), random.Random(seed)
            while not played.is_over():
                played.push(heuristic_move(played, chooser))
            for objective, values in played.objective_progress():
                seen[objective].update(values)
    for objective, unit in units.items():
        values = {abs(value) for value in seen[objective] if value}
        assert values and gcd(*values) == unit, (objective, seen[objective])
        assert all(value <= 0 for value in seen["special"]) and all(value >= 0 for value in seen[objective] if objective != "special")
    assert seen["corners"] <= corners and len(seen["corners"]) > 1, seen["corners"]
    assert seen["diagonals"] <= {0, points["diagonals"], 2 * points["diagonals"]}, seen["diagonals"]
    assert max(seen["outer"]) <= rules.EDGE_SPACES * points["outer"]


def test_the_summer_pavilion_board_section_says_what_each_structure_surrounds_as_the_core_has_it():
    """Every pillar, statue and window of the core surrounds the spaces the section names (a pillar also two of
    the centre star's, a statue those of two neighbouring stars), space 6 neighbours 1 in every star's ring, and
    the starting score quoted is the core's."""
    quoted = rules.fields("pavilion", "en")
    numbers = lambda spaces: sorted(space[1:] for space in spaces)
    for _, kind, spaces in pavilion.BOARD["structures"]:
        stars = list(dict.fromkeys(space[0] for space in spaces))
        if kind == "pillar":
            assert numbers(s for s in spaces if s[0] != "C") == quoted["pillar_spaces"].split(", ")
            assert sum(space[0] == "C" for space in spaces) == 2
        elif kind == "statue":
            assert len(stars) == 2 and "C" not in stars
            assert [numbers(s for s in spaces if s[0] == star) for star in stars] == \
                [quoted["statue_spaces"].split(", "), quoted["statue_next_spaces"].split(", ")]
        else:
            assert numbers(spaces) == quoted["window_spaces"].split(", ")
    assert all(pavilion.Game(players=players, seed=3).scores() == (quoted["start"],) * players for players in (2, 3, 4))
    for language in i18n.LANGUAGES:
        text = i18n.translate(language, "rules.pavilion.board.text", **rules.fields("pavilion", language))
        assert all(str(quoted[field]) in text for field in ("start", "pillar_spaces", "statue_spaces", "window_spaces"))


def test_the_summer_pavilion_tiles_kept_quoted_are_the_cores():
    """No pass keeps more than the tiles quoted, and some pass keeps exactly that many."""
    most = 0
    for pushed in random_games("pavilion", 30):
        kept = {}
        for _, events in pushed:
            for event in events:
                if event["event"] == "passed":
                    kept[event["player"]] = 0
                if event["event"] == "tile_kept":
                    kept[event["player"]] += 1
                    most = max(most, kept[event["player"]])
    assert most == rules.KEPT_TILES


@pytest.mark.parametrize("game", sorted(CORES))
def test_each_decision_has_a_real_position_with_choices_for_its_picture(game):
    positions = rules.picture_positions(game)
    assert set(positions) == set(CORES[game].PENDING)
    for kind, (position, seats) in positions.items():
        assert position.pending == kind and len(seats) == len(position.scores())
        if kind != "over":
            assert len(position.legal_moves()) >= 2, kind


@pytest.fixture(scope="module")
def served():
    setup = Setup(game="duel", seats=(Seat("phone", "Ana"), Seat("phone", "Bea")), seed=2)
    session = Session(setup).start()
    remote = runner.start(RemoteService(session), host="127.0.0.1", port=0)
    remote.tokens = [remote.service.join(remote.service.join_code, seat, "test") for seat in range(2)]
    yield remote
    remote.close()
    session.stop()


def fetched(remote, path, language="en"):
    asked = urllib.request.Request(f"http://127.0.0.1:{remote.port}{path}", headers={"Accept-Language": language})
    with urllib.request.urlopen(asked) as answer:
        return answer.read().decode()


@pytest.mark.parametrize("game", sorted(CORES))
def test_the_page_has_an_anchor_for_every_decision_and_a_picture_for_each(served, game):
    html = unescape(fetched(served, f"/rules/{game}", "it"))
    for decision in CORES[game].PENDING:
        assert re.search(rf'id="{decision}"', html), decision
    objectives = duel.OBJECTIVES if game == "duel" else ()
    assert html.count('class="rules-board"') == len(CORES[game].PENDING) + len(objectives)
    for objective in objectives:  # each objective's own section, its picture and what it scored there
        section = f"objective_{objective}"
        assert re.search(rf'<section class="rules-section" id="{section}"', html), objective
        assert f'data-picture="{section}"' in html
        assert i18n.translate("it", f"rules.duel.{section}.text", **rules.fields("duel", "it")) in html
        position, seats = rules.objective_position(objective)
        points = dict(position.objective_progress())[objective]
        assert f"{seats[1].name}: {i18n.format_points('it', points[1])}" in html
    position, _ = rules.picture_positions(game)[CORES[game].PENDING[0]]
    first = i18n.option_label("it", game, str(position.legal_moves()[0]))
    assert i18n.translate("it", "rules.choices", choices="").rstrip(".") in html and first in html
    assert i18n.translate("it", "rules.title", game=i18n.translate("it", f"game.{game}")) in html


def test_an_unknown_game_is_refused_in_the_phones_language(served):
    with pytest.raises(urllib.error.HTTPError) as refused:
        fetched(served, "/rules/chess", "sv")
    assert refused.value.code == 400
    refused.value.close()


def test_the_live_page_links_the_pending_decision_to_its_section(served, browser):
    from playwright.sync_api import expect

    from tests.web.phones import seated_phone, shown

    seat = served.service.session.snapshot.current_player
    page = seated_phone(browser, served, seat, token=served.tokens[seat])
    shown(page, served.service.session.snapshot.version)  # the link follows the decision once the page has it
    link = page.locator("#rules-link")
    pending = served.service.session.snapshot.pending
    expect(link).to_have_attribute("href", f"/rules/duel#{pending}")
    link.tap()
    page.wait_for_url(f"**/rules/duel#{pending}")
    section = page.locator(f"#{rules.section_of('duel', pending)}")
    box = section.bounding_box()
    assert 0 <= box["y"] < 300, box  # scrolled to it
    assert page.locator(f'[data-picture="{rules.section_of("duel", pending)}"] .hit.legal').count() >= 2
    page.context.close()


def drawn_result(picture):
    """Whether the first option of a decision's picture changes what board.js draws of the deciding seat's
    board as a result (tiles coming onto lines, the broken line, the dome, a star, a Summer Pavilion hand)."""
    seat = picture["preview"]["seat"]
    for event in picture["preview"]["events"]:
        if event["event"] == "round_ended":
            return False
        if event.get("player") != seat:
            continue
        if event["event"] == "line_filled" and event["line"] > 0 \
                or event["event"] == "tiles_broken" and event["count"] > event["to_tower"] \
                or event["event"] in ("tile_laid", "special_laid", "tile_placed", "tiles_taken", "wild_taken", "bonus_taken"):
            return True
    return False


@pytest.mark.parametrize("game", sorted(CORES))
def test_the_first_choice_of_each_picture_is_drawn_as_it_would_turn_out(served, browser, game):
    page = browser.new_page(base_url=f"http://127.0.0.1:{served.port}")
    page.goto(f"/rules/{game}")
    drawn = []
    for section in rules.SECTIONS[game]:
        picture = rules.section_picture(game, section, "en")
        if picture is None or picture["preview"] is None or not drawn_result(picture):
            continue
        board = page.locator(f'[data-picture="{section.key}"] [data-seat="{picture["preview"]["seat"]}"]')
        assert board.locator(".ghost").count() >= 1, section.key
        # The first choice's parts on the board (a button's step, such as paying nothing, has none) are marked.
        keys = page.evaluate("([game, notation]) => [...Touch.PATHS[game](notation)]", [game, picture["options"][0]])
        parts = [page.locator(f'[data-picture="{section.key}"] [data-hit="{key}"]') for key in keys]
        for key, found in zip(keys, parts):
            if found.count():
                assert "chosen" in found.first.get_attribute("class").split(), (section.key, key)
        drawn.append(section.decisions[0])
    assert {"duel": "line", "pavilion": "draft"}[game] in drawn, drawn
    page.close()


@pytest.mark.parametrize("game", sorted(CORES))
def test_the_rules_pages_fit_a_320_px_phone_in_every_language_and_pass_axe(served, browser, game):
    from tests.web.test_page_checks import OVERFLOW, serious_violations

    for language, width in [(language, 320) for language in i18n.LANGUAGES] + [("en", 390)]:
        context = browser.new_context(base_url=f"http://127.0.0.1:{served.port}", locale=language,
                                      viewport={"width": width, "height": 700}, is_mobile=True, has_touch=True)
        context.add_cookies([{"name": i18n.LANGUAGE_COOKIE, "value": language, "url": f"http://127.0.0.1:{served.port}"}])
        page = context.new_page()
        page.goto(f"/rules/{game}")
        for section in rules.SECTIONS[game]:
            outlined = page.locator(f'[data-picture="{section.key}"] .hit.legal')
            if section.decisions and section.decisions[0] not in OFF_BOARD[game]:
                assert outlined.count() >= 1, (language, section.key)
        geometry = page.evaluate(OVERFLOW)
        assert geometry["scroll"] <= geometry["width"] and not geometry["over"], (language, geometry)
        for link in page.locator(".rules-contents a, #back-to-game").all():
            assert link.bounding_box()["height"] >= 44, (language, link.text_content())
        if width == 390:
            assert not serious_violations(page)
        context.close()


def test_the_live_duel_page_lists_the_objectives_in_play_with_points_and_links_to_their_sections(served, browser):
    from tests.web.phones import seated_phone

    page = seated_phone(browser, served, 0, token=served.tokens[0])
    page.set_viewport_size({"width": 390, "height": 844})
    progress = served.service.current().progress
    links = page.locator("#objective-list a")
    links.first.wait_for()
    assert links.count() == len(progress) == 3
    for link, (objective, points) in zip(links.all(), progress):
        assert link.get_attribute("href") == f"/rules/duel#objective_{objective}"
        assert link.text_content() == i18n.translate("en", f"objective.{objective}")
        assert link.bounding_box()["height"] >= 44
        item = link.locator("xpath=..").text_content()
        assert all(f"{name}: {value}" in item for name, value in zip(("Ana", "Bea"), points)), item
    objective = progress[0][0]
    links.first.tap()
    page.wait_for_url(f"**/rules/duel#objective_{objective}")
    assert 0 <= page.locator(f"#objective_{objective}").bounding_box()["y"] < 300  # scrolled to its section
    page.context.close()
