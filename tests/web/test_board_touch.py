"""The board is the controller, in real headless Chromium at 390 x 844: whole games played only by
touching the drawing, golden pictures of every decision kind, stepping back, refused touches.

Golden pictures live in ``tests/web/golden/``; after a deliberate change of the drawing,
regenerate them with ``make golden`` and look at them before committing.
"""
import random
import re

import pytest

from firmware_py import games
from firmware_py.session import Play, Seat, Setup
from web_remote import payload
from tests.positions import one_move_from_the_end
from tests.web.conftest import host_code

pytest.importorskip("playwright")

from playwright.sync_api import expect  # noqa: E402

from tests.web.phones import PHONE, check_golden, moved_on, seated_phone, shown  # noqa: E402

DUEL_KINDS = {"setup", "action", "draw", "keep", "return", "place", "order", "line", "pay", "tile"}
PAVILION_KINDS = {"draft", "place", "pay", "bonus", "keep"}


def part(page, key):
    """Where to touch ``key`` now: the first shape of a part with it that is outlined as a next step (on
    a board, one not touched yet: the second chip of a face; only the deciding seat's parts are ever
    outlined), or its panel button. Found in one query; a part that is no next step is not found."""
    return page.locator(f'#board [data-seat] [data-hit="{key}"].legal:not(.chosen) rect, '
                        f'#board .centre [data-hit="{key}"].legal rect, #controls [data-hit="{key}"]').first


def touch_option(page, snapshot, notation):
    """Play ``notation`` by touching its parts of the board. What the seat can step back from is played
    at the last touch; anything else waits for Confirm, with its result drawn on the board first."""
    seat = snapshot.current_player
    index = snapshot.options.index(notation)
    keys = touches(page, snapshot, notation)
    for key in keys:
        # At the centre of the part's first shape (its own group's, whatever lies on top), in the
        # middle of the screen, clear of the action bar at its foot.
        found = part(page, key)
        found.evaluate("node => node.scrollIntoView({ block: 'center' })", timeout=10000)
        found.tap(force=True)
    if snapshot.reversible[index] and keys:
        moved_on(page, snapshot.version)
        assert not page.locator("#confirm").is_visible()
        return
    expect(page.locator("#confirm-label")).to_be_visible()
    check_preview(page, seat, snapshot.previews[index])
    page.locator("#confirm").tap()


def touches(page, snapshot, notation):
    """The touches of ``notation``'s path up to the one that leaves it the only option (a payment's
    chips match in any order, every other path in order)."""
    return naming_touches(option_paths(page, snapshot), snapshot.options.index(notation))


def option_paths(page, snapshot):
    """Each option's path of touches as the page has it: its keys, and whether they match in any order."""
    return page.evaluate("([game, options]) => options.map((n) => { const p = Touch.PATHS[game](n); "
                         "return { keys: [...p], unordered: Boolean(p.unordered) }; })",
                         [snapshot.setup.game, list(snapshot.options)])


def naming_touches(paths, index):
    """The start of option ``index``'s path that no other option's path begins with."""
    mine = paths[index]

    def leads_to(prefix, other):
        if not other["unordered"]:
            return other["keys"][: len(prefix)] == prefix
        left = list(other["keys"])
        for key in prefix:
            if key not in left:
                return False
            left.remove(key)
        return True

    for length in range(len(mine["keys"]) + 1):  # a lone option is named before any touch
        prefix = mine["keys"][:length]
        if sum(leads_to(prefix, other) for other in paths) == 1:
            return prefix
    raise AssertionError(f"option {index} ({mine['keys']}) is not named by its own touches")


def check_preview(page, seat, events):
    """The board shows what the confirmed option would do to the seat's board, up to the round's end:
    tiles coming onto pattern lines and the broken-tiles area, tiles laid and the points they score."""
    board = page.locator(f'#board [data-seat="{seat}"]')
    for event in events:
        if event["event"] == "round_ended":
            break
        if event.get("player") != seat:
            continue
        kind = event["event"]
        if kind == "line_filled" and event["line"] > 0:
            expect(board.locator(f'[data-hit="line:{event["line"]}"] .ghost')).to_have_count(event["count"])
        if kind == "tiles_broken" and event["count"] > event["to_tower"]:
            expect(board.locator('[data-hit="line:0"] .ghost').first).to_be_visible()
        if kind in ("tile_laid", "special_laid", "tile_placed"):
            expect(board.locator(".gain", has_text=f'+{event["points"]}').first).to_be_attached()


def play_by_touch(browser, remote, running, game, kinds):
    """Every decision by touching the mover's phone, options chosen at random from the seed; returns
    the decision kinds seen. Each kind's first board goes against its golden picture."""
    session = running.session
    seats = len(session.snapshot.setup.seats)
    pages = [seated_phone(browser, remote, seat) for seat in range(seats)]
    chooser = random.Random(0)
    seen = set()
    while not session.snapshot.over:
        snapshot = session.snapshot
        mover = snapshot.current_player
        page = pages[mover]
        shown(page, snapshot.version)
        if snapshot.pending not in seen:
            seen.add(snapshot.pending)
            check_golden(page, "#board", f"{game}-{snapshot.pending}")
        notation = chooser.choice(snapshot.options)
        touch_option(page, snapshot, notation)
        moved_on(page, snapshot.version)
        assert session.snapshot.history[-1] == (mover, notation) or session.snapshot.over
    for page in pages:
        shown(page, session.snapshot.version)
        expect(page.locator("#over")).to_be_visible()
        expect(page.locator("#breakdown tr")).not_to_have_count(0)
    assert seen == kinds
    return pages


@pytest.mark.long
def test_a_whole_duel_played_by_touching_the_board_then_the_host_taps_rematch(browser, start_table):
    remote, running = start_table(Setup(game="duel", seats=(Seat("phone", "Ada"), Seat("phone", "Bo")), seed=0))
    pages = play_by_touch(browser, remote, running, "duel", DUEL_KINDS)
    expect(pages[0].locator("#winners")).not_to_be_empty()

    # Ada's phone is also the host's (its tab holds the host token): one tap starts the rematch there only.
    host = remote.service.host_login(host_code(running.session), "test")
    pages[0].evaluate("token => sessionStorage.setItem('azul.host', token)", host)
    pages[0].reload()
    pages[1].evaluate("() => sessionStorage.setItem('azul.host', 'a token of no game')")  # Bo's is no host's
    with pages[1].expect_response("**/api/host/join-code") as checked:
        pages[1].reload()
    assert checked.value.status == 403
    expect(pages[0].locator("#rematch")).to_be_visible()
    expect(pages[1].locator("#over")).to_be_visible()
    expect(pages[1].locator("#rematch")).to_be_hidden()
    finished = remote.service.game_id
    pages[0].locator("#rematch").tap()
    for seat, page in enumerate(pages):
        expect(page.locator("#over")).to_be_hidden()
        expect(page.locator("#who")).to_have_text(f"You play {('Ada', 'Bo')[seat]}")
    rematch = running.session.snapshot
    assert remote.service.game_id != finished and rematch.setup.seats == (Seat("phone", "Ada"), Seat("phone", "Bo"))
    mover = pages[rematch.current_player]
    shown(mover, rematch.version)
    touch_option(mover, rematch, rematch.options[0])  # the kept seat plays on at once
    moved_on(mover, rematch.version)
    assert running.session.snapshot.history == ((rematch.current_player, rematch.options[0]),)


FIRST_PART_SHOWN = """() => {
  const bar = document.getElementById('action-bar');
  const bottom = bar.hidden ? window.innerHeight : bar.getBoundingClientRect().top;
  return [...document.querySelectorAll('#board [data-hit].legal')].some((node) => {
    const box = node.getBoundingClientRect();
    return box.top >= 0 && box.bottom <= bottom;
  });
}"""
"""Whether a part the player can touch now lies whole on the screen, clear of the action bar."""


@pytest.mark.parametrize("game", ["duel", "pavilion"])
def test_after_a_rematch_every_phone_starts_at_the_top_and_the_first_part_to_touch_is_on_screen(browser, start_table,
                                                                                                 game):
    setup = Setup(game=game, seats=(Seat("phone", "Ada"), Seat("phone", "Bo")), seed=4)
    position, last = one_move_from_the_end(setup, 4)
    remote, running = start_table(setup, position)
    small = {"width": 320, "height": 568}
    pages = [seated_phone(browser, remote, seat, small) for seat in range(2)]
    host = remote.service.host_login(host_code(running.session), "test")
    pages[0].evaluate("token => sessionStorage.setItem('azul.host', token)", host)
    pages[0].reload()
    running.session.call(Play(running.session.snapshot.current_player, last))
    for page in pages:
        expect(page.locator("#over")).to_be_visible()
        page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")  # reading the final scores
    pages[0].locator("#rematch").tap()
    for page in pages:
        expect(page.locator("#over")).to_be_hidden()
    rematch = running.session.snapshot
    for seat, page in enumerate(pages):
        shown(page, rematch.version)
        if seat == rematch.current_player:
            page.wait_for_function(FIRST_PART_SHOWN)
        else:
            page.wait_for_function("() => window.scrollY === 0")
        page.context.close()


@pytest.mark.long
def test_a_whole_three_player_pavilion_played_by_touching_the_board(browser, start_table):
    setup = Setup(game="pavilion", seats=(Seat("phone", "Ada"), Seat("phone", "Bo"), Seat("phone", "Cy")), seed=0)
    remote, running = start_table(setup)
    play_by_touch(browser, remote, running, "pavilion", PAVILION_KINDS)


def test_touches_step_back_and_refused_touches_change_nothing(browser, start_table):
    remote, running = start_table(Setup(game="duel", seats=(Seat("phone", "Ada"), Seat("phone", "Bo")), seed=0))
    session = running.session
    pages = [seated_phone(browser, remote, seat) for seat in range(2)]
    while session.snapshot.pending == "setup" or session.snapshot.state["kept"] >= 0:
        snapshot = session.snapshot
        shown(pages[snapshot.current_player], snapshot.version)
        touch_option(pages[snapshot.current_player], snapshot, snapshot.options[0])
        moved_on(pages[snapshot.current_player], snapshot.version)
    snapshot = session.snapshot
    mover, watcher = pages[snapshot.current_player], pages[1 - snapshot.current_player]
    shown(mover, snapshot.version)
    shown(watcher, snapshot.version)

    # Not your turn: the watcher's touch on a source does nothing, and nothing is highlighted there.
    take = next(option for option in snapshot.options if option.startswith("S0"))
    colour = take[2]
    assert watcher.locator("#board .legal").count() == 0
    watcher.locator(f'#board .centre [data-hit="sun:0:{colour}"] rect').first.tap(force=True)
    expect(watcher.locator("#controls")).to_be_hidden()
    assert watcher.locator("#board .chosen").count() == 0

    # The other player's board is behind its tab; a touch there on a part that is no option now (their
    # pattern line) changes nothing, and the mover's own tab brings their board back.
    panel = mover.locator("#controls").inner_html()
    other = 1 - snapshot.current_player
    mover.locator(f'#board [data-show-seat="{other}"]').tap()
    mover.locator(f'#board [data-seat="{other}"] [data-hit="line:1"] rect').first.tap(force=True)
    assert mover.locator("#controls").inner_html() == panel and mover.locator("#board .chosen").count() == 0
    assert session.snapshot.version == snapshot.version
    mover.locator(f'#board [data-show-seat="{snapshot.current_player}"]').tap()
    expect(mover.locator(f'#board [data-seat="{snapshot.current_player}"]')).to_be_visible()

    # Take from the large sun: it reveals nothing and the turn goes on, so one touch plays it, unconfirmed.
    assert snapshot.reversible[snapshot.options.index(take)]
    mover.locator(f'#board .centre [data-hit="sun:0:{colour}"] rect').first.tap(force=True)
    expect(mover.locator("#step-back")).to_be_visible()
    taken = session.snapshot
    assert taken.pending == "line" and taken.step_back and taken.history[-1] == (snapshot.current_player, take)
    shown(mover, taken.version)
    # Choosing the line ends the turn, which cannot be taken back: it waits for Confirm, its result drawn.
    assert not any(taken.reversible)
    mover.locator("#board [data-hit].legal rect").first.tap(force=True)
    expect(mover.locator("#confirm")).to_be_visible()
    expect(mover.locator("#board .ghost").first).to_be_visible()
    mover.locator("#step-back").tap()  # back to choosing the line
    expect(mover.locator("#confirm")).to_be_hidden()
    assert session.snapshot.history == taken.history
    mover.locator("#step-back").tap()  # back before the take: the table steps back too
    moved_on(mover, taken.version)
    assert session.snapshot.history == snapshot.history and session.snapshot.state == snapshot.state


def position_of(name, pending, wanted, flags=None):
    """The first position of seeded random two-player games of ``name`` whose pending decision is
    ``pending`` and whose options pass ``wanted(options, state)``: (seed, game)."""
    chooser = random.Random(1)
    for seed in range(500):
        game = games.spec(name).new(2, seed, flags or {})
        while not game.is_over():
            if game.pending == pending and wanted([str(move) for move in game.legal_moves()], game.to_dict()):
                return seed, game
            game.push(chooser.choice(game.legal_moves()))
    raise AssertionError(f"no {pending} decision found")


PHONE_SEATS = (Seat("phone", "Ada"), Seat("phone", "Bo"))


def test_a_stacking_order_is_touched_tile_by_tile_onto_the_moon(browser, start_table):
    seed, game = position_of("duel", "order", lambda options, state: len(options) >= 3)
    remote, running = start_table(Setup(game="duel", seats=PHONE_SEATS, seed=seed), game)
    page = seated_phone(browser, remote, running.session.snapshot.current_player)
    snapshot = running.session.snapshot
    shown(page, snapshot.version)
    factory = snapshot.state["order_factory"]
    # An order whose first tile leaves more than one order open: that touch only moves it onto the moon.
    notation = next(o for o in snapshot.options if sum(other[1] == o[1] for other in snapshot.options) > 1)
    leftovers = page.locator(f'#board .centre [data-hit^="order:"]')
    assert leftovers.count() and all("legal" in (leftovers.nth(i).get_attribute("class") or "") for i in range(leftovers.count()))
    page.locator(f'#board .centre [data-hit="sun:0:{snapshot.state["hand"][0]}"] rect').first.tap(force=True)
    assert page.locator("#board .chosen").count() == 0  # another source does not react now
    colour = notation[1]
    left = snapshot.state["small_factories"][factory - 1]["sun"]["BTRYK".index(colour)] - 1
    page.locator(f'#board .centre [data-hit="order:{colour}"] rect').first.tap(force=True)
    expect(page.locator(f"#board .centre .ghost .tile-{colour}")).to_have_count(1)  # on the moon,
    leftover = page.locator(f'#board .centre [data-hit="order:{colour}"]')  # and one fewer in the sun
    expect(leftover).to_have_count(1 if left else 0)
    expect(leftover.locator(".badge-text")).to_have_count(1 if left > 1 else 0)
    if left > 1:
        expect(leftover.locator(".badge-text")).to_have_text(f"×{left}")
    assert running.session.snapshot.version == snapshot.version
    for key in touches(page, snapshot, notation)[1:]:
        page.locator(f'#board .centre [data-hit="{key}"] rect').first.tap(force=True)
    # An order can be stepped back from within the turn, so the touch that names it plays it.
    moved_on(page, snapshot.version)
    assert running.session.snapshot.history[-1] == (snapshot.current_player, notation)
    assert running.session.snapshot.state["small_factories"][factory - 1]["moon"].endswith(notation[1:])


def test_chips_are_paid_by_touching_them_in_any_order(browser, start_table):
    seed, game = position_of("duel", "pay", lambda options, state: sum("+" in o for o in options) >= 2)
    remote, running = start_table(Setup(game="duel", seats=PHONE_SEATS, seed=seed), game)
    seat = running.session.snapshot.current_player
    page = seated_phone(browser, remote, seat)
    snapshot = running.session.snapshot
    shown(page, snapshot.version)
    notation = next(o for o in reversed(snapshot.options) if "+" in o)
    faces = notation[1:].split("+")
    board = page.locator(f'#board [data-seat="{seat}"]')
    offered = {face for option in snapshot.options for face in option[1:].split("+") if option != "$-"}
    for face in set(snapshot.state["players"][seat]["chips"]) - offered:  # a chip no payment uses
        board.locator(f'[data-hit="pay:{face}"] rect').first.tap(force=True)
        assert page.locator("#board .chosen").count() == 0
    for count, face in enumerate(reversed(faces), 1):  # the last chip of the notation first
        board.locator(f'[data-hit="pay:{face}"]:not(.chosen) rect').first.tap(force=True)
        if count < len(faces):
            expect(board.locator(".chosen")).to_have_count(count)
    index = snapshot.options.index(notation)
    if not snapshot.reversible[index]:
        expect(page.locator("#confirm-label")).to_be_visible()
        page.locator("#confirm").tap()
    moved_on(page, snapshot.version)
    assert running.session.snapshot.history[-1] == (seat, notation)


def test_the_line_being_paid_for_is_outlined_while_its_payment_waits(browser, start_table):
    seed, game = position_of("duel", "pay", lambda options, state: len(options) >= 2)
    remote, running = start_table(Setup(game="duel", seats=PHONE_SEATS, seed=seed), game)
    pages = [seated_phone(browser, remote, each) for each in range(2)]
    snapshot = running.session.snapshot
    seat = snapshot.current_player
    line = snapshot.state["tiling_line"] + 1
    for page in pages:
        shown(page, snapshot.version)
        page.locator(f'#board [data-show-seat="{seat}"]').tap()
        deciding = page.locator(f'#board [data-seat="{seat}"] .deciding')
        expect(deciding).to_have_count(1)
        assert deciding.get_attribute("data-hit") == f"line:{line}"


@pytest.mark.parametrize("pending", ["place", "pay"])
def test_the_hint_outlines_only_the_step_to_touch_now_on_the_board_or_in_the_bar(browser, start_table, pending):
    """A placement's hint outlines its space, then the tile in hand; a payment's hint marks the bar's
    button, with the space being paid for outlined on the board. Following the outlines plays the hint."""
    seed, game = position_of("pavilion", pending, lambda options, state: len(options) >= 2 and (
        pending == "pay" or sum("@" in option for option in options) >= 4))
    remote, running = start_table(Setup(game="pavilion", seats=PHONE_SEATS, seed=seed), game)
    session = running.session
    seat = session.snapshot.current_player
    page = seated_phone(browser, remote, seat)
    snapshot = session.snapshot
    shown(page, snapshot.version)
    board = page.locator("#board")
    if pending == "pay":
        deciding = board.locator(f'[data-seat="{seat}"] .deciding')
        expect(deciding).to_have_count(1)
        assert deciding.get_attribute("data-hit") == f"space:{snapshot.state['placing'].split('@')[1]}"
        assert deciding.locator(".ghost").count() == 1  # the tile to come
    page.locator("#hint-request").tap()
    expect(page.locator("#hint-text")).to_contain_text("Hint:", timeout=30_000)
    snapshot = session.snapshot  # the hint's coming is news to every phone
    hint = snapshot.hint[1]
    shown(page, snapshot.version)
    steps = []
    while page.locator("body").get_attribute("data-version") == str(snapshot.version) \
            and not page.locator("#confirm").is_visible():
        outlined = page.locator("#board .hit.hint, #controls button.hinted")
        expect(outlined.first).to_be_attached()
        keys = {node.get_attribute("data-hit") for node in outlined.all()}
        assert len(keys) == 1, keys  # one step at a time
        assert board.locator(".hit.hint:not(.legal)").count() == 0  # only parts that act when touched
        steps.append(keys.pop())
        before = board.get_attribute("data-touches")
        part(page, steps[-1]).evaluate("node => node.scrollIntoView({ block: 'center' })")
        part(page, steps[-1]).tap(force=True)
        page.wait_for_function("([before, version]) => document.body.dataset.version !== version"
                               " || document.getElementById('board').dataset.touches !== before",
                               arg=[before, str(snapshot.version)])
    if page.locator("body").get_attribute("data-version") == str(snapshot.version):
        page.locator("#confirm").tap()
    moved_on(page, snapshot.version)
    assert session.snapshot.history[len(snapshot.history)] == (seat, hint)
    if pending == "place":  # the space, then the tile in hand unless the space alone names the hint
        colour, space = hint.split("@")
        alone = [option for option in snapshot.options if option.endswith(f"@{space}")] == [hint]
        assert steps == [f"space:{space}"] + ([] if alone else [f"hand:{colour}"])
    else:
        assert steps == [f"choice:{hint}"]


@pytest.mark.parametrize("reveal", ["end", "each"])
def test_the_plates_put_under_the_stack_are_drawn_under_it(browser, start_table, reveal):
    seed, game = position_of("duel", "action", lambda options, state: sum(state["stack_seen"]) >= 2, {"stack_reveal": reveal})
    state = game.to_dict()
    under = [(depth, plate) for depth, (plate, seen) in enumerate(zip(state["stack"], state["stack_seen"])) if seen]
    remote, running = start_table(Setup(game="duel", seats=PHONE_SEATS, seed=seed, flags=(("stack_reveal", reveal),)), game)
    context = browser.new_context(base_url=f"http://127.0.0.1:{remote.port}", **PHONE)
    page = context.new_page()
    page.goto("/")
    shown(page, running.session.snapshot.version)
    drawn = page.locator("#board .under-stack")
    expect(drawn.locator("text.label")).to_have_count(1 + len(under))
    size = len(state["stack"])
    assert [drawn.locator("text.label").nth(i + 1).text_content() for i in range(len(under))] == \
        [f"{depth + 1} of {size}" for depth, _ in under]
    public = running.session.snapshot.state
    sent = payload.build(remote.service.current(), "en")["state"]
    assert [(item["depth"], item["plate"]) for item in sent["stack_under"]] == under
    unseen = {plate for plate, seen in zip(public["stack"], public["stack_seen"]) if not seen}
    assert not unseen & {item["plate"] for item in sent["stack_under"]}
    context.close()


def test_every_structure_is_drawn_as_the_spaces_around_it_and_the_complete_ones_are_framed(browser, start_table):
    """Summer Pavilion: each pillar, statue and window shows the spaces it surrounds (covered ones as their
    tiles), so a player can plan the bonus; the seat's complete ones are framed."""
    from core_ext.pavilion import BOARD, STARS

    seed, game = position_of("pavilion", "draft", lambda options, state: any(
        len(seat["structures"]) >= 2 for seat in state["seats"]))
    remote, running = start_table(Setup(game="pavilion", seats=PHONE_SEATS, seed=seed), game)
    state = running.session.snapshot.state
    seat = next(i for i, seat in enumerate(state["seats"]) if len(seat["structures"]) >= 2)
    page = seated_phone(browser, remote, seat)
    shown(page, running.session.snapshot.version)
    board = page.locator(f'#board [data-seat="{seat}"]')
    drawn = board.locator("[data-structure]")
    expect(drawn).to_have_count(len(BOARD["structures"]))
    for name, kind, spaces in BOARD["structures"]:
        structure = board.locator(f'[data-structure="{name}"]')
        covered = [state["seats"][seat]["board"][STARS.index(space[0])][int(space[1]) - 1] != "." for space in spaces]
        assert structure.locator(".tile").count() == sum(covered), name
        numbers = structure.locator("text").all_text_contents()
        assert numbers == [space[1] for space, done in zip(spaces, covered) if not done], (name, numbers)
        expect(structure).to_have_class("structure complete" if all(covered) else "structure")
    complete = board.locator(".structure.complete")
    assert sorted(complete.evaluate_all("(nodes) => nodes.map((node) => node.dataset.structure)")) == sorted(
        state["seats"][seat]["structures"])
    words = board.locator("text.label").all_text_contents()
    built = len([name for name in state["seats"][seat]["structures"] if name.startswith("W-")])
    assert f"Windows, 3 bonus tiles each: {built} of 6 complete" in words, words


def test_a_name_written_like_markup_is_drawn_as_its_letters(browser, start_table):
    """The board is drawn as markup: a seat's name is its letters on the board and in the board's name for screen
    readers, and nothing in it becomes a part of the drawing."""
    name = '<i>Ana</i> & "B'
    remote, _ = start_table(Setup(game="duel", seats=(Seat("phone", name), Seat("phone", "Bo")), seed=5))
    page = seated_phone(browser, remote, 0)
    shown(page, remote.service.current().version)
    board = page.locator('#board svg.table-drawing:has([data-seat="0"])')
    assert board.get_attribute("aria-label") == f"Board of {name}"
    expect(board.locator("g.player > text").first).to_have_text(re.compile(rf"^(▶ )?{re.escape(name)}: \d+$"))
    assert page.locator("#board i").count() == 0
