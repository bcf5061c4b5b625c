"""The live page's action bar in real headless Chromium, at 390 x 844 and 320 x 568: for every decision
kind of both games and 2, 3 and 4 seats, whatever the seat can do now (Confirm, Back, Pass and the other
steps off the board, Hint, Undo) is on the first screen, uncovered and at least 44 x 44 CSS px, also
right after touching a source on the board."""
import random
import re

import pytest

from firmware_py.session import Play, Seat, Setup
from tests.web.phones import seated_phone, shown
from tests.web.test_board_touch import option_paths

pytest.importorskip("playwright")

SIZES = {"390x844": {"width": 390, "height": 844}, "320x568": {"width": 320, "height": 568}}
KINDS = {"duel": {"setup", "action", "draw", "keep", "return", "place", "order", "line", "pay", "tile"},
         "pavilion": {"draft", "place", "pay", "bonus", "keep"}}
NAMES = ("Ada", "Bo", "Cy", "Di")
SMALLEST = 44  # CSS px, each way: the least a finger can be asked to hit
BAR_BUTTONS = "#controls button, #hint-request, #undo-request, #undo button, #undo-offer button"
# Every shown button of the bar, where it is and whether it is what a touch at its middle reaches (so
# nothing covers it: not the page, not the bar's own scrolled-away part).
MEASURE = """(selector) => [...document.querySelectorAll(selector)].filter((node) => node.getClientRects().length)
  .map((node) => {
    const box = node.getBoundingClientRect();
    const top = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    return { name: node.id || node.textContent, top: box.top, bottom: box.bottom, left: box.left, right: box.right,
             width: box.width, height: box.height, reached: top !== null && node.contains(top) };
  })"""


BAR_SHARE = 1 / 3  # of the screen's height, at most, in every state
SENTENCES = "#action-bar p:not([hidden]), #action-bar button:not([hidden])"
# How many lines each shown sentence of the bar runs to: the distinct tops of its text's line boxes.
LINES = """(selector) => [...document.querySelectorAll(selector)].filter((node) => node.getClientRects().length)
  .map((node) => {
    const range = document.createRange();
    range.selectNodeContents(node);
    const tops = new Set([...range.getClientRects()].filter((box) => box.width > 0).map((box) => Math.round(box.top)));
    return { name: node.id || node.textContent, text: node.textContent, lines: tops.size };
  })"""


def check_bar(page, where):
    """Every button the bar shows lies inside the viewport, uncovered and large enough; the bar takes a
    third of the screen at most and each of its sentences two lines at most."""
    viewport = page.viewport_size
    box = page.locator("#action-bar").bounding_box()
    assert box is None or box["height"] <= viewport["height"] * BAR_SHARE, f"{where}: the action bar takes {box}"
    for sentence in page.evaluate(LINES, SENTENCES):
        assert sentence["lines"] <= 2, f"{where}: {sentence['name']} runs to {sentence['lines']} lines: {sentence['text']}"
    buttons = page.evaluate(MEASURE, BAR_BUTTONS)
    for button in buttons:
        inside = (button["top"] >= 0 and button["left"] >= 0 and button["bottom"] <= viewport["height"]
                  and button["right"] <= viewport["width"])
        assert inside and button["reached"], f"{where}: {button['name']} is not on the first screen: {button}"
        assert min(button["width"], button["height"]) >= SMALLEST - 0.5, f"{where}: {button['name']} is too small: {button}"
    return buttons


def bar_position(page):
    """The action bar's top and bottom (CSS px from the top of the viewport)."""
    box = page.locator("#action-bar").bounding_box()
    return round(box["y"]), round(box["y"] + box["height"])


NEXT_STEP = re.compile("Now touch|button")


def touch_a_source(page, snapshot):
    """Touch a part that does not play at once, as a player starts a turn from a source: preferably one
    that alone names an option waiting for Confirm. Returns whether it did, or None when every first
    touch plays an option at once (nothing is touched then)."""
    paths = option_paths(page, snapshot)

    def named_by(key):
        return [i for i, path in enumerate(paths) if (key in path["keys"] if path["unordered"] else path["keys"][:1] == [key])]

    firsts = {key for path in paths for key in (path["keys"] if path["unordered"] else path["keys"][:1])}
    lone = sorted(key for key in firsts if len(named_by(key)) == 1 and not snapshot.reversible[named_by(key)[0]])
    shared = sorted(key for key in firsts if len(named_by(key)) > 1)
    if not lone and not shared:
        return None
    key = (lone or shared)[0]
    page.locator(f'#board [data-hit="{key}"].legal rect, #controls [data-hit="{key}"]').first.tap(force=True)
    # The next step is on the board, in the bar's buttons, or both: the prompt says which.
    page.locator("#confirm" if lone else "#touch-prompt", has_text="" if lone else NEXT_STEP).wait_for()
    return bool(lone)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("game, seats", [("duel", 2), ("pavilion", 2), ("pavilion", 3), ("pavilion", 4)])
def test_the_action_bar_is_on_the_first_screen_at_every_decision_kind(browser, start_table, game, seats, size):
    setup = Setup(game=game, seats=tuple(Seat("phone", name) for name in NAMES[:seats]), seed=2)
    remote, running = start_table(setup)
    session = running.session
    pages = [seated_phone(browser, remote, seat, SIZES[size]) for seat in range(seats)]
    chooser = random.Random(seats)
    seen, positions = set(), set()
    while seen != KINDS[game] and not session.snapshot.over:
        snapshot = session.snapshot
        page = pages[snapshot.current_player]
        shown(page, snapshot.version)
        where = f"{game} {seats} seats {size} {snapshot.pending}"
        check_bar(page, where)
        positions.add(bar_position(page))
        if snapshot.pending not in seen:
            seen.add(snapshot.pending)
            for other in pages:
                shown(other, snapshot.version)
                check_bar(other, f"{where}, watching")
            confirms = touch_a_source(page, snapshot)
            if confirms is not None:
                names = [button["name"] for button in check_bar(page, f"{where}, after a touch")]
                assert "step-back" in names and (not confirms or "confirm" in names), f"{where}: {names} after a touch"
        session.call(Play(snapshot.current_player, chooser.choice(snapshot.options)))
    assert seen == KINDS[game]
    print(f"{game} {seats} seats at {size}: the action bar from top to bottom at {sorted(positions)}")
