"""A first game: the phone explains each kind of decision the first time it comes up for the learning
player, over the board as it stands with its choices outlined; after each round it tells what scored and
why; the best choice is outlined without asking unless turned off; every state of the overlay leads back to
the game. The explanations name only what the rules cores implement."""
import random
import re
import urllib.error
import urllib.request
from html import unescape

import pytest
from hypothesis import HealthCheck, settings, strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from core_ext import duel, pavilion
from core_ext.ai.baselines import heuristic_move
from firmware_py import games
from firmware_py.journal import Journal
from firmware_py.session import Play, Seat, Setup
from firmware_py.story import SOURCES, story
from firmware_py.records import replay
from web_remote import i18n, rules
from web_remote.messages import MESSAGES

CORES = {"duel": duel, "pavilion": pavilion}


def test_every_scoring_event_of_the_cores_has_its_reason_and_no_other():
    for game, core in CORES.items():
        explained = {key.split(".")[3] for key in MESSAGES if key.startswith(f"learn.why.{game}.")}
        assert explained == core.SCORING_EVENTS == set(SOURCES[game]), game


def test_the_starting_player_tile_costs_what_the_reason_says():
    seen = 0
    for seed in range(20):
        played, chooser = games.spec("duel").new(2, seed, {}), random.Random(seed)
        while not played.is_over():
            before = played.copy()
            move = chooser.choice(played.legal_moves()) if chooser.random() < 0.3 else heuristic_move(played, chooser)
            for event in played.push(move):
                cost = rules.START_TILE_PENALTY + sum(rules.BROKEN_PENALTIES[:event.get("broken", 0)])
                if event["event"] == "penalty" and event["start_tile"] and before.scores()[event["player"]] >= cost + 10:
                    assert event["points"] == -cost, event
                    seen += 1
    assert seen


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    """A journal holding a finished 3-player Summer Pavilion and a finished Duel, and a table serving it."""
    from tests.web.test_story_charts import finished_record
    from firmware_py.session import Session
    from web_remote import runner
    from web_remote.service import RemoteService

    journal = Journal(tmp_path_factory.mktemp("journal"))
    ids = {"pavilion": journal.import_record(finished_record("pavilion", ("Ana", "Bo", "Cy"), 8)),
           "duel": journal.import_record(finished_record("duel", ("Ana", "Bo"), 9))}
    session = Session(Setup(game="duel", seats=(Seat("phone", "Ana"), Seat("rig", "Bo")), seed=1), journal=journal).start()
    remote = runner.start(RemoteService(session), host="127.0.0.1", port=0)
    remote.ids = ids
    yield remote
    remote.close()
    session.stop()
    journal.close()


def fetched(remote, path, language="en"):
    asked = urllib.request.Request(f"http://127.0.0.1:{remote.port}{path}", headers={"Accept-Language": language})
    with urllib.request.urlopen(asked) as answer:
        return unescape(answer.read().decode())


@pytest.mark.parametrize("game", sorted(CORES))
def test_each_decision_has_its_explanation_linked_to_its_rules_section(finished, game):
    for kind in CORES[game].PENDING:
        html = fetched(finished, f"/rules/{game}/explain/{kind}", "pt")
        section = rules.section_of(game, kind)
        assert i18n.translate("pt", f"rules.{game}.{section}.title") in html
        assert f'href="/rules/{game}#{kind}"' in html
    for bad in ("nothing", "over%2F..", "x" * 300):
        with pytest.raises(urllib.error.HTTPError) as refused:
            fetched(finished, f"/rules/{game}/explain/{bad}")
        assert refused.value.code in (400, 404)
        refused.value.close()


def test_the_first_explanation_of_a_duel_turn_teaches_the_objectives_in_play_with_their_values(finished):
    """Every Duel player meets the action decision in round 1: its explanation names each objective in play,
    what it counts, each player's points toward it now, and links to its own rules section."""
    snapshot = finished.service.current()
    html = fetched(finished, f"/rules/duel/explain/{rules.OBJECTIVES_TAUGHT}", "it")
    quoted = rules.fields("duel", "it")
    assert len(snapshot.progress) == 3
    for objective, points in snapshot.progress:
        section = f"objective_{objective}"
        assert f'href="/rules/duel#{section}"' in html
        assert i18n.translate("it", f"rules.duel.{section}.title") in html
        assert i18n.translate("it", f"rules.duel.{section}.text", **quoted) in html
        values = ", ".join(f"{name}: {i18n.format_points('it', value)}" for name, value in zip(("Ana", "Bo"), points))
        assert i18n.translate("it", "learn.objective_now", values=values) in html
    assert "/rules/duel#objective_" not in fetched(finished, "/rules/duel/explain/line", "it")
    assert "/rules/duel#objective_" not in fetched(finished, "/rules/pavilion/explain/draft", "it")


@pytest.mark.parametrize("game", sorted(CORES))
def test_a_past_games_move_list_shows_words_not_notation(finished, game):
    """A family reads the moves of a past game as words ("took 2 red tiles..."), never as "G@G1" or "$K+RT"."""
    record = finished.service.session.journal.export(finished.ids[game])
    html = fetched(finished, f"/history/{finished.ids[game]}?ply=5", "pt")
    listed = html.split('id="moves"')[1].split("</ol>")[0]
    shown = re.sub(r"<[^>]*>", " ", listed)
    for notation in record.moves[:5]:
        label = i18n.option_label("pt", game, notation)
        assert label in shown
        assert not re.search(rf"(?<![\w]){re.escape(notation)}(?![\w])", shown.replace(label, " ")), notation


@pytest.mark.parametrize("game", sorted(CORES))
def test_each_rounds_scoring_adds_up_and_says_why(finished, game):
    record = finished.service.session.journal.export(finished.ids[game])
    told = story(game, replay(record), record.moves)
    names = [seat.name for seat in record.setup.seats]
    rounds = len(told.scored) - 1
    totals = [told.start] + list(told.rounds)
    for number in range(1, rounds + 1):
        html = fetched(finished, f"/history/{finished.ids[game]}/rounds/{number}")
        assert i18n.translate("en", "learn.round_over", n=number) in html
        points = [int(found.replace("−", "-")) for found in re.findall(r"<strong>[^:<]+: ([+−]?\d+)</strong>", html)]
        gained = [totals[number][seat] - totals[number - 1][seat] for seat in range(len(names))]
        if number == rounds:  # the last round's page adds the final scoring
            assert i18n.translate("en", "learn.final_scoring") in html
            gained = [gained, [totals[-1][seat] - totals[-2][seat] for seat in range(len(names))]]
            assert points == gained[0] + gained[1]
        else:
            assert points == gained
        kinds = {event["event"] for event in told.scored[number - 1]}
        for kind in kinds:
            assert rules.why(game, kind, "en") in html
    for number in (0, rounds + 1, 10 ** 12):
        with pytest.raises(urllib.error.HTTPError) as refused:
            fetched(finished, f"/history/{finished.ids[game]}/rounds/{number}")
        assert refused.value.code == 404
        refused.value.close()


# -- the overlay on a phone --------------------------------------------------------------------------


@pytest.fixture
def learner(tmp_path, start_table, browser):
    """A first game of Ana on a phone (learning) against Bo at the rig, kept in a journal; Ana's phone
    open: (running table, page)."""
    from tests.web.phones import seated_phone

    def start(game, language="en", seed=5):
        journal = Journal(tmp_path)
        setup = Setup(game=game, seats=(Seat("phone", "Ana", learning=True), Seat("rig", "Bo")), seed=seed)
        remote, running = start_table(setup, journal=journal)
        page = seated_phone(browser, remote, 0)
        page.context.add_cookies([{"name": i18n.LANGUAGE_COOKIE, "value": language,
                                   "url": f"http://127.0.0.1:{remote.port}"}])
        page.reload()
        return running, page

    return start


def shown_version(page, version):
    """Wait until the page shows ``version`` and its overlay has caught up with it."""
    page.wait_for_function("(v) => Number(document.body.dataset.learnVersion) >= v", arg=version)


def overlay(page):
    """What the overlay shows: None when closed, else its title."""
    if not page.evaluate("document.getElementById('learn').open"):
        return None
    return page.locator("#learn-title").text_content()


def wait_overlay(page, title):
    page.wait_for_function("(t) => document.getElementById('learn').open && "
                           "document.getElementById('learn-title')?.textContent === t", arg=title, timeout=10000)


@pytest.mark.long
@pytest.mark.parametrize("game, language", [("duel", "it"), ("pavilion", "pt")])
def test_a_whole_first_game_explains_each_decision_once_at_its_moment_and_each_rounds_scoring(learner, game, language):
    running, page = learner(game, language)
    session = running.session
    chooser = random.Random(3)
    explained, rounds_told, objectives_taught = [], [], False
    while not session.snapshot.over:
        snapshot = session.snapshot
        shown_version(page, snapshot.version)
        title = overlay(page)
        if title is not None and title.startswith(i18n.translate(language, "learn.round_over", n=0)[:6]):
            rounds_told.append(title)
            page.locator("#learn-close").tap()
            continue
        if snapshot.current_player == 0:
            section = rules.section_of(game, snapshot.pending)
            expected = i18n.translate(language, f"rules.{game}.{section}.title")
            if snapshot.pending not in explained:
                wait_overlay(page, expected)
                if (game, snapshot.pending) == ("duel", rules.OBJECTIVES_TAUGHT):  # round 1: before they score
                    assert session.game.round == 1
                    links = page.locator(".learn-objectives a")
                    assert links.count() == len(session.game.objectives) == 3
                    assert all(link.bounding_box()["height"] >= 44 for link in links.all())
                    objectives_taught = True
                board = page.locator("#learn-board")
                assert board.locator(".hit.legal").count() >= (0 if (game, snapshot.pending) == ("pavilion", "pay") else 1)
                explained.append(snapshot.pending)
                page.locator("#learn-close").tap()
                page.wait_for_function("() => !document.getElementById('learn').open")
            else:
                assert overlay(page) is None, (snapshot.pending, overlay(page))
        move = chooser.choice(snapshot.options) if chooser.random() < 0.3 else str(heuristic_move(session.game, chooser))
        session.call(Play(snapshot.current_player, move))
    assert len(explained) == len(set(explained)) >= 4
    assert objectives_taught or game != "duel"
    shown_version(page, session.snapshot.version)
    rounds = CORES[game].ROUNDS
    wait_overlay(page, i18n.translate(language, "learn.round_over", n=rounds))
    assert len(rounds_told) == rounds - 1  # every round before the last, told as it ended
    page.locator("#learn-close").tap()
    page.context.close()


def test_the_best_choice_is_outlined_without_asking_and_can_be_turned_off(learner):
    running, page = learner("duel")
    session = running.session
    while session.snapshot.current_player != 0:
        session.call(Play(session.snapshot.current_player, session.snapshot.options[0]))
    shown_version(page, session.snapshot.version)
    page.locator("#learn-close").tap()
    page.wait_for_selector("#hint-text:not([hidden])")
    page.wait_for_function("() => document.getElementById('hint-text').textContent.startsWith('Hint: ')")
    labels = [i18n.option_label("en", "duel", option) for option in session.snapshot.options]
    assert page.locator("#hint-text").text_content().removeprefix("Hint: ") in labels  # words, not notation
    page.locator("#auto-hint").uncheck()
    snapshot = session.snapshot
    session.call(Play(0, snapshot.options[0]))
    while session.snapshot.current_player != 0:
        session.call(Play(session.snapshot.current_player, session.snapshot.options[0]))
    shown_version(page, session.snapshot.version)
    if overlay(page) is not None:
        page.locator("#learn-close").tap()
    page.wait_for_timeout(500)
    assert page.locator("#hint-text").is_hidden()
    assert page.evaluate("localStorage.getItem('azul.auto_hint')") == "off"
    page.context.close()


@pytest.mark.long
def test_every_path_through_the_overlay_leads_back_to_the_game(learner):
    """Hypothesis presses the overlay's ways out (Got it, Escape, a touch beside the card, the rules link and
    back) and plays both seats in any order: an explanation shows exactly when the learner meets a kind of
    decision not yet explained, never twice, and every way out leaves the board usable."""

    class Overlay(RuleBasedStateMachine):
        @initialize(game=st.sampled_from(["duel", "pavilion"]), seed=st.integers(0, 50))
        def start(self, game, seed):
            self.game = game
            self.running, self.page = learner(game, seed=seed)
            self.session = self.running.session
            self.explained = set()
            self.settle()

        def settle(self):
            shown_version(self.page, self.session.snapshot.version)

        def title(self):
            return overlay(self.page)

        def explaining(self):
            title = self.title()
            return title is not None and not title.startswith(i18n.translate("en", "learn.round_over", n=0)[:6])

        def expected_title(self):
            section = rules.section_of(self.game, self.session.snapshot.pending)
            return i18n.translate("en", f"rules.{self.game}.{section}.title")

        def dismissed(self):
            if self.explaining():
                self.explained.add(self.session.snapshot.pending)

        @precondition(lambda self: self.title() is not None)
        @rule(way=st.sampled_from(["button", "escape", "beside"]))
        def leave(self, way):
            self.dismissed()
            if way == "button":
                self.page.locator("#learn-close").tap()
            elif way == "escape":
                self.page.keyboard.press("Escape")
            else:
                self.page.mouse.click(3, 3)
            self.page.wait_for_function("() => !document.getElementById('learn').open || "
                                        "document.getElementById('learn-title') !== null")
            self.settle()

        @precondition(lambda self: self.explaining())
        @rule()
        def read_the_rules_and_come_back(self):
            self.page.locator(".learn-more").first.tap()  # the objectives' own links too, when they are told
            self.page.wait_for_url("**/rules/**")
            self.page.go_back()
            self.page.wait_for_selector("#board svg")
            self.settle()

        @precondition(lambda self: not self.session.snapshot.over and self.title() is None)
        @rule(choice=st.integers(0, 100))
        def play(self, choice):
            snapshot = self.session.snapshot
            if snapshot.current_player == 0:
                self.explained.add(snapshot.pending)  # met: it is played
            self.session.call(Play(snapshot.current_player, snapshot.options[choice % len(snapshot.options)]))
            self.settle()

        @invariant()
        def explanations_come_once_and_at_their_moment(self):
            if not hasattr(self, "page"):
                return
            snapshot = self.session.snapshot
            mine = not snapshot.over and snapshot.current_player == 0
            if self.explaining():
                assert mine and snapshot.pending not in self.explained
                assert self.title() == self.expected_title()
            elif self.title() is None and mine and snapshot.pending not in self.explained:
                # A payload that came meanwhile (the hint) may still be bringing the explanation.
                self.page.wait_for_function("() => document.getElementById('learn').open", timeout=5000)
                assert self.title() == self.expected_title(), snapshot.pending
            if self.title() is None:
                assert self.page.locator("#board").is_visible()
                assert not self.page.evaluate("document.getElementById('board').closest('[inert]') !== null")

        def teardown(self):
            if hasattr(self, "page"):
                self.page.context.close()

    from hypothesis.stateful import run_state_machine_as_test

    run_state_machine_as_test(Overlay, settings=settings(max_examples=4, stateful_step_count=12, deadline=None,
                                                         suppress_health_check=list(HealthCheck)))


@pytest.mark.parametrize("language", ["en", "zh"])
def test_the_explanation_fits_a_320_px_phone_and_passes_axe(learner, language):
    from tests.web.test_page_checks import OVERFLOW, serious_violations

    running, page = learner("pavilion", language)
    session = running.session
    while session.snapshot.current_player != 0:
        session.call(Play(session.snapshot.current_player, session.snapshot.options[0]))
    page.set_viewport_size({"width": 320, "height": 568})
    shown_version(page, session.snapshot.version)
    assert overlay(page) is not None
    close = page.locator("#learn-close").bounding_box()
    assert close["y"] + close["height"] <= 568 and close["height"] >= 44  # the way back is on the screen
    geometry = page.evaluate(OVERFLOW)
    assert geometry["scroll"] <= geometry["width"] and not geometry["over"], geometry
    assert not serious_violations(page)
    page.context.close()
