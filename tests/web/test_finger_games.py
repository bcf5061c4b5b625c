"""Whole games played as a finger plays them, in real headless Chromium: every touch lands at a random
point of the outlined part's cell (a finger is not a mouse pointer, it does not hit a part's middle),
on phones 390 x 844 and 320 x 568 wide in turn, for Azul Duel and Summer Pavilion with 2, 3 and 4
seats, to game over. No touch may miss. At the end the score parts break only between words."""
import random
import time

import pytest

from firmware_py.session import Seat, Setup
from tests.web.test_board_touch import shown, touches
from tests.patience import patient
from tests.web.phones import seated_phone
from tests.web.test_touch_targets import NARROW, WIDE

pytest.importorskip("playwright")

from playwright.sync_api import TimeoutError as PlaywrightTimeout, expect  # noqa: E402

NAMES = ("Ada", "Bo", "Cy", "Di")
# Milliseconds after which a touch the page has not shown never counted: on a phone it shows at once,
# on a machine running the suite on every core a round trip to the table can take seconds.
MISSED_AFTER = 15_000
# The words of the score table that a line break cuts in two (across or down the column); Chinese parentheses
# stand between words.
CUT_WORDS = """(selector) => {
  const cut = [];
  for (const cell of document.querySelectorAll(selector)) {
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const word of node.data.matchAll(/[^\\s（）]+/g)) {
        const range = document.createRange();
        range.setStart(node, word.index);
        range.setEnd(node, word.index + word[0].length);
        const lines = [...range.getClientRects()].filter((box) => box.width > 0 && box.height > 0);
        if (new Set(lines.map((box) => `${Math.round(box.top)} ${Math.round(box.left)}`)).size > 1) cut.push(word[0]);
      }
    }
  }
  return cut;
}"""


# A part brought to the middle of the screen, then its box on the screen and how far in from its edges a touch
# lands (half a pixel, more for rounded corners); null while it is not shown. One call to the page for all.
CENTRED_BOX = """(node) => {
  if (!node.checkVisibility({ visibilityProperty: true })) return null;
  node.scrollIntoView({ block: "center" });
  const box = node.getBoundingClientRect();
  if (!box.width || !box.height) return null;
  const radius = parseFloat(getComputedStyle(node).borderTopLeftRadius) || 0;
  return { x: box.x, y: box.y, width: box.width, height: box.height, inset: 0.5 + radius };
}"""


class Finger:
    """Touches parts at random points of their cells and counts the touches and those that missed."""

    def __init__(self, seed):
        self.random = random.Random(seed)
        self.touches = 0
        self.missed = 0

    def tap(self, page, target):
        """Touch a random point of ``target`` (a locator), brought to the middle of the screen first. A
        button's rounded corners are no part of it: its points lie between them."""
        box = None
        for _ in range(5):  # not on the screen yet (a render between finding the part and measuring it): wait
            box = target.evaluate(CENTRED_BOX, timeout=patient(MISSED_AFTER))
            if box is not None:
                break
            target.wait_for(state="visible", timeout=patient(MISSED_AFTER))
        assert box is not None, f"{target} is never on the screen long enough to be touched"
        inset = box["inset"]
        page.touchscreen.tap(box["x"] + self.random.uniform(inset, box["width"] - inset),
                             box["y"] + self.random.uniform(0.5, box["height"] - 0.5))
        self.touches += 1

    def touch(self, page, part, landed):
        """Touch ``part`` (a locator); ``landed`` is what shows the touch counted. A touch that did not
        is a miss, touched again at the middle."""
        self.tap(page, part)
        try:
            landed.wait_for(timeout=patient(MISSED_AFTER))
        except PlaywrightTimeout:
            self.missed += 1
            part.tap(force=True)
            landed.wait_for()


def play(finger, page, snapshot, notation):
    """Play ``notation`` by touches; what waits for Confirm is confirmed with a touch too."""
    keys = touches(page, snapshot, notation)
    moved = page.locator(f'body:not([data-version="{snapshot.version}"])')
    index = snapshot.options.index(notation)
    for step, key in enumerate(keys):
        last = step == len(keys) - 1
        if not last:
            landed = page.locator(f'#board[data-touches="{" ".join(keys[:step + 1])}"]')
        elif snapshot.reversible[index]:
            landed = moved
        else:
            landed = page.locator("#confirm")
        # The part's cell on the board, or its button in the action bar.
        part = page.locator(f'#board [data-hit="{key}"].legal:not(.chosen) > .cell, #controls [data-hit="{key}"]').first
        finger.touch(page, part, landed)
    if not keys or not snapshot.reversible[index]:
        expect(page.locator("#confirm")).to_be_visible()
        finger.touch(page, page.locator("#confirm"), moved)
    return len(keys) + (0 if keys and snapshot.reversible[index] else 1)


@pytest.mark.long
@pytest.mark.parametrize("game, seats", [("duel", 2), ("pavilion", 2), ("pavilion", 3), ("pavilion", 4)])
def test_a_whole_game_played_with_touches_off_the_middle_of_each_part(browser, start_table, game, seats):
    remote, running = start_table(Setup(game=game, seats=tuple(Seat("phone", name) for name in NAMES[:seats]), seed=seats))
    session = running.session
    tokens = [remote.service.join(remote.service.join_code, seat, "test") for seat in range(seats)]
    pages = [seated_phone(browser, remote, seat, (WIDE, NARROW)[seat % 2], token=token) for seat, token in enumerate(tokens)]
    finger = Finger(seats)
    chooser = random.Random(seats)
    started = time.monotonic()
    taps = 0
    while not session.snapshot.over:
        snapshot = session.snapshot
        page = pages[snapshot.current_player]
        shown(page, snapshot.version)
        notation = chooser.choice(snapshot.options)
        taps += play(finger, page, snapshot, notation)
        assert session.snapshot.history[-1] == (snapshot.current_player, notation) or session.snapshot.over
    took = time.monotonic() - started
    history = session.snapshot.history
    turns = 1 + sum(before[0] != after[0] for before, after in zip(history, history[1:]))
    print(f"{game} with {seats} seats: {len(history)} decisions in {turns} turns, {taps} taps "
          f"({taps / turns:.1f} a turn), {finger.touches} touches of which {finger.missed} missed, {took:.0f} s")
    assert finger.missed == 0
    narrow = pages[1]
    shown(narrow, session.snapshot.version)
    expect(narrow.locator("#breakdown tr")).not_to_have_count(0)
    assert narrow.evaluate(CUT_WORDS, "#breakdown th, #breakdown td") == []
