"""A touch on a part of the board that is not outlined says why not: the rules core's reason in one short
sentence next to the part, in the phone's language; in real headless Chromium, for the first position of
random games where each reason code can be touched, in both games."""
import random

import pytest

from core_ext import duel, pavilion
from firmware_py.session import Play, Seat, Setup
from web_remote import i18n

pytest.importorskip("playwright")

from tests.web.phones import seated_phone, shown  # noqa: E402

NAMES = ("Ana", "Bo", "Cy")
UNTOUCHABLE = {
    # Codes no single part of the board asks for: the game is over, an order or a whole payment is a
    # sequence of touches, no factory beyond the game's is drawn, a touch during another player's turn
    # is answered by the phone itself (tested below).
    "duel": {"game_over", "not_your_turn", "order_wrong_count", "order_wrong_tiles", "payment_wasteful",
             "chips_not_held"},
    "pavilion": {"game_over", "not_your_turn", "no_such_factory", "payment_over_cost", "payment_all_wild",
                 "payment_wilds_not_held", "payment_naturals_not_held", "star_single_coloured"},
}
LEAST = {"duel": 10, "pavilion": 5}  # reason codes a run reaches by touch (measured: 11 and 6)
# Summer Pavilion draws parts only for tiles that are there (a factory's colours, the hand, the supply),
# so most of its refusals come from placements and from touching another decision's parts.

MISSED = """() => {
  return [...document.querySelectorAll("#board [data-hit]:not(.legal)")].filter((node) => {
    const board = node.closest("[data-seat]");
    const box = (node.querySelector(":scope > .target") || node).getBoundingClientRect();
    return (board === null || Number(board.dataset.seat) === Number(document.body.dataset.seat)) && box.width > 0;
  }).map((node) => node.dataset.hit);
}"""


ASKED = """(game) => (%s)().map((key) =>
  [key, Touch.ASKED[game](key, window.__lastPayload, Number(document.body.dataset.seat), [])])""" % MISSED
"""Each part not outlined, with the move the page takes a touch on it to ask for (null: none)."""


@pytest.mark.parametrize("game, language, players", [("duel", "en", 2), ("pavilion", "sv", 3)])
def test_a_touch_on_a_part_that_is_no_choice_says_why_not(start_table, browser, game, language, players):
    setup = Setup(game=game, seats=tuple(Seat("phone", name) for name in NAMES[:players]), seed=11)
    remote, running = start_table(setup)
    session = running.session
    pages = []
    for seat in range(players):
        page = seated_phone(browser, remote, seat, {"width": 390, "height": 844})
        page.context.add_cookies([{"name": i18n.LANGUAGE_COOKIE, "value": language, "url": f"http://127.0.0.1:{remote.port}"}])
        page.add_init_script(f"document.addEventListener('DOMContentLoaded', () => document.body.dataset.seat = '{seat}')")
        page.reload()
        pages.append(page)
    chooser = random.Random(5)
    told = {}
    while not session.snapshot.over and len(session.snapshot.history) < 400:
        snapshot = session.snapshot
        page = pages[snapshot.current_player]
        shown(page, snapshot.version)
        # The position as the page has it, for the test to ask which move each part stands for.
        page.evaluate("async () => { window.__lastPayload = await (await fetch('/api/state')).json(); }")
        names = [seat.name for seat in setup.seats]
        for key, notation in page.evaluate(ASKED, game):
            if notation is None:
                continue
            reason = session.game.why_not(notation, snapshot.current_player)
            if reason is None or reason.code in told:
                continue
            target = page.locator(f'#board [data-hit="{key}"]').first
            target.scroll_into_view_if_needed()
            box = (target.locator(":scope > .target").first if target.locator(":scope > .target").count() else target).bounding_box()
            page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
            note = page.locator("#why-not")
            expected = i18n.why_text(language, game, reason, names)
            note.wait_for(state="visible")
            page.wait_for_function("(t) => document.getElementById('why-not').textContent === t", arg=expected)
            near = note.bounding_box()
            assert near["x"] >= 0 and near["x"] + near["width"] <= 390, near
            below, above = near["y"] - (box["y"] + box["height"]), box["y"] - (near["y"] + near["height"])
            assert 0 <= below < 60 or 0 <= above < 60, (near, box)  # next to the part
            assert session.snapshot.version == snapshot.version  # asking changed nothing
            told[reason.code] = (key, notation, expected)
        session.call(Play(snapshot.current_player, chooser.choice(snapshot.options)))
    core = {"duel": duel, "pavilion": pavilion}[game]
    assert set(told) <= set(core.REASONS) - UNTOUCHABLE[game]
    assert len(told) >= LEAST[game], sorted(told)
    print(game, len(told), sorted(told))


def test_a_touch_while_another_player_decides_says_whose_turn_it_is(start_table, browser):
    setup = Setup(game="duel", seats=(Seat("phone", "Ana"), Seat("phone", "Bo")), seed=11)
    remote, running = start_table(setup)
    waiting = 1 - running.session.snapshot.current_player
    page = seated_phone(browser, remote, waiting, {"width": 320, "height": 568})
    shown(page, running.session.snapshot.version)
    page.locator("#board [data-hit]").first.click()
    current = setup.seats[running.session.snapshot.current_player].name
    page.wait_for_function("(t) => document.getElementById('why-not').textContent === t",
                           arg=i18n.translate("en", "why.not_your_turn", current=current))


FREE = """() => { const bar = document.getElementById('action-bar');
  return bar.hidden ? window.innerHeight : Math.min(window.innerHeight, bar.getBoundingClientRect().top); }"""
"""The bottom of the screen a message may use: the action bar's top (the screen's bottom while it is hidden)."""
BRING = """([key, at]) => { const node = document.querySelector(`#board [data-hit="${key}"]`);
  const box = node.getBoundingClientRect();
  window.scrollBy(0, box.top + box.height / 2 - at);
  const moved = node.getBoundingClientRect();
  return Math.abs(moved.top + moved.height / 2 - at); }"""
"""Scroll so that the middle of ``key``'s part is ``at`` px from the screen's top; how far from it it ended."""


@pytest.mark.parametrize("viewport", [{"width": 390, "height": 844}, {"width": 320, "height": 568}])
def test_the_why_not_sentence_is_never_under_the_action_bar_wherever_the_touched_part_lies(start_table, browser,
                                                                                           viewport):
    setup = Setup(game="duel", seats=(Seat("phone", "Ana"), Seat("phone", "Bo")), seed=11)
    remote, running = start_table(setup)
    seat = running.session.snapshot.current_player
    page = seated_phone(browser, remote, seat, viewport)
    shown(page, running.session.snapshot.version)
    page.locator("#action-bar").wait_for(state="visible")
    free = page.evaluate(FREE)
    parts = page.evaluate("""() => [...document.querySelectorAll('#board [data-hit]:not(.legal)')]
        .filter((node) => node.getBoundingClientRect().height > 0)
        .map((node) => [node.dataset.hit, node.getBoundingClientRect().top + window.scrollY])
        .sort((a, b) => b[1] - a[1]).map(([key]) => key)""")
    for third in (1 / 6, 1 / 2, 5 / 6):
        at = free * third
        key = next((key for key in parts if page.evaluate(BRING, [key, at]) < 20), None)
        assert key is not None, f"no part that is no choice can be brought to {at:.0f} px"
        box = page.locator(f'#board [data-hit="{key}"]').first.bounding_box()
        page.evaluate("() => { document.getElementById('why-not').textContent = ''; }")
        page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.wait_for_function("() => !document.getElementById('why-not').hidden"
                               " && document.getElementById('why-not').textContent !== ''")
        note, free = page.locator("#why-not").bounding_box(), page.evaluate(FREE)
        where = f"{key} at {at:.0f} px of {viewport}: {note}, the bar from {free:.0f} px"
        assert note["y"] >= 0 and note["y"] + note["height"] <= free + 0.5, where
        assert note["x"] >= 0 and note["x"] + note["width"] <= viewport["width"] + 0.5, where
        page.evaluate("() => { document.getElementById('why-not').hidden = true; }")
    page.context.close()
