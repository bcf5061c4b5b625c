"""Every part of the board a player touches is finger-sized, in real headless Chromium: for every
decision kind of both games with 2, 3 and 4 seats, at every step of a turn, each outlined part measures
at least 44 x 44 CSS px at 390 px wide (by element geometry), and at 320 px wide it is still inside the
page and uncovered (a touch at its middle reaches it). Also: every plate drawn from the Duel stack can
be touched however many there are, and the deciding seat's board comes first and large, the others
behind tabs."""
import random

import pytest

from firmware_py import games
from firmware_py.session import Seat, Setup
from tests.web.phones import moved_on, seated_phone, shown
from tests.web.test_board_touch import naming_touches, option_paths

pytest.importorskip("playwright")

from playwright.sync_api import expect  # noqa: E402

SMALLEST = 44  # CSS px, each way: Apple's 44 pt, about Google's 48 dp
WIDE = {"width": 390, "height": 844}
NARROW = {"width": 320, "height": 568}
KINDS = {"duel": {"setup", "action", "draw", "keep", "return", "place", "order", "line", "pay", "tile"},
         "pavilion": {"draft", "place", "pay", "bonus", "keep"}}
NAMES = ("Ada", "Bo", "Cy", "Di")
# Each outlined part on the board: its box, and whether a touch at its middle reaches it (each part is
# brought to the middle of the screen first, clear of the action bar at the foot).
MEASURE = """() => [...document.querySelectorAll('#board [data-hit].legal')].map((node) => {
  node.scrollIntoView({ block: 'center' });
  const box = node.querySelector(':scope > .target').getBoundingClientRect();
  const top = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
  return { key: node.dataset.hit, left: box.left, right: box.right, width: box.width, height: box.height,
           reached: top !== null && node.contains(top), page: document.documentElement.clientWidth };
})"""


def positions(game, seats):
    """The first position of each decision kind in seeded random games: {kind: (seed, game)}."""
    found = {}
    chooser = random.Random(seats)
    for seed in range(200):
        position = games.spec(game).new(seats, seed, {})
        while not position.is_over() and len(found) < len(KINDS[game]):
            if position.pending not in found:
                found[position.pending] = (seed, position.copy())
            position.push(chooser.choice(position.legal_moves()))
        if len(found) == len(KINDS[game]):
            return found
    raise AssertionError(f"{game}: no {KINDS[game] - set(found)} decision found")


def deciding_phones(browser, remote, running):
    """The deciding seat, the snapshot, and two phones holding that seat (390 and 320 px wide) showing it."""
    seat = running.session.snapshot.current_player
    token = remote.service.join(remote.service.join_code, seat, "test")
    snapshot = running.session.snapshot
    wide, narrow = (seated_phone(browser, remote, seat, viewport, token=token) for viewport in (WIDE, NARROW))
    for page in (wide, narrow):
        shown(page, snapshot.version)
    return seat, snapshot, wide, narrow


def measure(page, where):
    """The outlined parts; when there are none the next steps are buttons of the action bar (a plate's
    rotation), which test_action_bar.py measures."""
    parts = page.evaluate(MEASURE)
    assert parts or page.locator("#controls [data-hit]").count(), f"{where}: nothing to touch"
    return parts


def longest(page, snapshot):
    """The option whose touches on the board are the most (a plate's slot and rotation, a stacking
    order, several chips), so that every step of a turn is measured; and those touches."""
    every = option_paths(page, snapshot)
    paths = {notation: naming_touches(every, index) for index, notation in enumerate(snapshot.options)}
    notation = max(paths, key=lambda n: (len(paths[n]), n))
    return notation, paths[notation]


def touch(page, key):
    """Touch ``key``'s part (on the board or, for a step that is no part of it, in the action bar)."""
    found = page.locator(f'#board [data-hit="{key}"].legal:not(.chosen) > .cell, #controls [data-hit="{key}"]').first
    found.evaluate("node => node.scrollIntoView({ block: 'center' })")
    found.tap(force=True)


SMALLEST_SEEN = {}  # (game, seats, kind): the smallest side of an outlined part seen at 390 px


@pytest.mark.parametrize("game, seats", [("duel", 2), ("pavilion", 2), ("pavilion", 3), ("pavilion", 4)])
def test_every_touchable_part_is_finger_sized_at_every_decision_kind(browser, start_table, game, seats):
    for kind, (seed, position) in sorted(positions(game, seats).items()):
        setup = Setup(game=game, seats=tuple(Seat("phone", name) for name in NAMES[:seats]), seed=seed)
        remote, running = start_table(setup, position)
        seat, snapshot, wide, narrow = deciding_phones(browser, remote, running)
        for page in (wide, narrow):
            # The deciding seat's own board is the one drawn, with every seat's tab above it.
            expect(page.locator("#board [data-seat]")).to_have_attribute("data-seat", str(seat))
            expect(page.locator("#board [data-show-seat]")).to_have_count(seats)
        notation, keys = longest(wide, snapshot)
        where = f"{game}, {seats} seats, {kind} ({notation})"
        check(wide, narrow, f"{where} before any touch", (game, seats, kind))
        for step, key in enumerate(keys[:-1]):  # the last touch names the option: nothing more to touch
            for page in (wide, narrow):
                touch(page, key)
                page.locator(f'#board[data-touches="{" ".join(keys[:step + 1])}"]').wait_for(state="attached")
            check(wide, narrow, f"{where} after touching {keys[:step + 1]}", (game, seats, kind))
        wide.context.close()
        narrow.context.close()
    for (played, count, kind), side in sorted(SMALLEST_SEEN.items()):  # shown with pytest -s
        if (played, count) == (game, seats):
            print(f"smallest touchable part at 390 px, {game} with {seats} seats, {kind}: {side} CSS px")


def check(wide, narrow, where, record):
    """At 390 px every outlined part is at least SMALLEST each way; at 320 px each is inside the page,
    not empty and not covered."""
    parts = measure(wide, where)
    for part in parts:
        SMALLEST_SEEN[record] = min(SMALLEST_SEEN.get(record, 999), round(min(part["width"], part["height"]), 1))
    for part in parts:
        assert min(part["width"], part["height"]) >= SMALLEST, f"{where}: {part['key']} is too small at 390 px: {part}"
        assert part["reached"], f"{where}: {part['key']} is covered at 390 px: {part}"
    for part in measure(narrow, where):
        assert part["width"] > 0 and part["height"] > 0, f"{where}: {part['key']} is empty at 320 px"
        assert part["left"] >= 0 and part["right"] <= part["page"] + 0.5, f"{where}: {part['key']} is off the page at 320 px: {part}"
        assert part["reached"], f"{where}: {part['key']} is covered at 320 px: {part}"


def test_every_plate_drawn_from_the_duel_stack_can_be_touched(browser, start_table):
    """Five or more plates drawn in one turn wrap onto further rows: each is a whole part on the page,
    and the last one drawn, touched, is the one kept."""
    chooser = random.Random(3)
    for seed in range(500):
        position = games.spec("duel").new(2, seed, {})
        while not position.is_over() and not (position.pending == "keep" and len(position.to_dict()["drawn"]) >= 6):
            moves = position.legal_moves()
            draws = [move for move in moves if str(move) == "P+"]
            position.push(draws[0] if draws and position.pending == "draw" else chooser.choice(moves))
        if not position.is_over():
            break
    drawn = position.to_dict()["drawn"]
    remote, running = start_table(Setup(game="duel", seats=(Seat("phone", "Ada"), Seat("phone", "Bo")), seed=seed), position)
    seat, snapshot, wide, narrow = deciding_phones(browser, remote, running)
    keys = {f"drawn:{plate}" for plate in drawn}
    assert {part["key"] for part in measure(wide, "drawn plates")} == keys
    check(wide, narrow, f"{len(drawn)} drawn plates", ("duel", 2, "keep"))
    last = f"K{drawn[-1]}"
    touch(narrow, f"drawn:{drawn[-1]}")
    if not snapshot.reversible[snapshot.options.index(last)]:
        expect(narrow.locator("#confirm")).to_be_visible()
        narrow.locator("#confirm").tap()
    moved_on(narrow, snapshot.version)
    assert running.session.snapshot.history[-1] == (seat, last)


def test_the_prompt_says_whether_the_choice_is_on_the_board_in_the_buttons_or_both(browser, start_table):
    """The payment step and the rotations are buttons of the action bar: a prompt to touch the board would
    send the player looking for nothing there; a payment in wild tiles asks how many."""
    from web_remote import i18n

    said = set()
    for game in ("duel", "pavilion"):
        for kind, (seed, position) in sorted(positions(game, 2).items()):
            setup = Setup(game=game, seats=tuple(Seat("phone", name) for name in NAMES[:2]), seed=seed)
            remote, running = start_table(setup, position)
            seat = running.session.snapshot.current_player
            page = seated_phone(browser, remote, seat, WIDE)
            shown(page, running.session.snapshot.version)
            on_board = page.locator("#board svg [data-hit].legal").count()
            in_bar = page.locator("#controls [data-hit]").count()
            assert on_board or in_bar, f"{game} {kind}: nothing to choose"
            paying = in_bar and page.locator('#controls [data-hit^="choice:W"]').count() == in_bar
            key = ("live.pay_wilds" if paying else "live.touch_buttons" if not on_board
                   else "live.touch_or_buttons" if in_bar else "live.touch_prompt")
            expect(page.locator("#touch-prompt")).to_have_text(i18n.translate("en", key))
            said.add(key)
            page.context.close()
    assert {"live.pay_wilds", "live.touch_or_buttons"} <= said, said  # the payments of both games, at least
