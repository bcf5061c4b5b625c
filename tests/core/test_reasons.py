"""Why a move is not legal (``Game.why_not``) in both rules cores.

Random positions of Azul Duel and of Summer Pavilion (2, 3 and 4 seats, both sides), reached by
random play: every well-formed move of every kind (``duel_universe``, ``PAVILION_UNIVERSE``) is
asked about; exactly the legal ones have no reason, every other one has a reason whose fields are
checked against the state (``to_dict()``) by a check of its own below (``DUEL_CHECKS``,
``PAVILION_CHECKS``), and asking changes nothing. The same for a seat that does not decide, and for
every move after the game. Worked examples: one chosen position per reason code per game, each with
the exact reason it gives (``DUEL_EXAMPLES``, ``PAVILION_EXAMPLES``).

Reason counts over the random positions (the default hypothesis profile, derandomized, so every
run sees the same 2,223 Azul Duel and 3,177 Summer Pavilion positions; printed after the tests):

Azul Duel: other_decision 665,044; sun_empty 20,090; order_wrong_tiles 16,636; game_over 13,400;
chips_not_held 12,498; order_wrong_count 8,725; chip_not_revealed 2,802; slot_taken 2,780;
not_your_turn 2,223; colour_not_in_sun 2,046; moon_colour_absent 1,619; line_other_colour 1,485;
plate_limit 1,340; cell_outside_row 1,290; payment_short 854; moons_empty 810;
no_plates_final_round 684; moon_colour_buried 681; plate_not_drawn 678; line_full 602;
chip_already_taken 541; display_empty 540; payment_wasteful 373; chip_limit 148; cell_other_colour
98; stack_empty 40; cell_taken 33; plate_kept 27; cell_special 21; cell_no_plate 16.

Summer Pavilion: other_decision 579,170; drafting_over 115,260; star_other_colour 84,400;
space_covered 62,748; cost_too_high 44,930; needs_natural_tile 43,275; factory_empty 31,338;
game_over 19,920; colour_on_star 16,560; colour_not_in_factory 14,529; no_such_factory 14,244;
star_single_coloured 5,815; not_your_turn 3,177; wild_with_other_colours 2,296; keep_not_in_hand
1,954; payment_over_cost 369; payment_all_wild 190; payment_wilds_not_held 150; bonus_not_in_supply
122; payment_naturals_not_held 57.
"""
import collections
import itertools
import random
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core_ext import duel, pavilion
from core_ext.errors import InvalidMoveError
from core_ext.reasons import Reason

NOTATION = Path(__file__).parents[2] / "docs" / "notation.md"

# The move kinds that answer each decision, as docs/notation.md's tables of decisions list them.
DUEL_KINDS = {
    "setup": {"display"}, "action": {"display", "draw", "sun", "moon", "chip"}, "draw": {"draw", "stop"},
    "keep": {"keep"}, "return": {"under"}, "place": {"place"}, "order": {"order"}, "line": {"line"},
    "pay": {"nopay", "pay"}, "tile": {"tile"},
}
PAVILION_KINDS = {"draft": {"take"}, "place": {"place", "pass"}, "pay": {"pay"}, "bonus": {"bonus"},
                  "keep": {"keep", "discard"}}

NOPAY = duel.Move.parse("$-").code
ALL_PAYMENTS = range(NOPAY + 2, NOPAY + 3 ** len(duel.CHIP_TYPES) + 1)
"""The codes of every chip set the notation can write (up to 2 chips of each face, at least one)."""

COUNTS = {"duel": collections.Counter(), "pavilion": collections.Counter()}
POSITIONS = collections.Counter()


@pytest.fixture(scope="module", autouse=True)
def print_counts(pytestconfig):
    """After the module's tests: how often each reason came up over the random positions."""
    yield
    with pytestconfig.pluginmanager.get_plugin("capturemanager").global_and_fixture_disabled():
        for game, counts in COUNTS.items():
            if counts:
                listed = "; ".join(f"{code} {n:,}" for code, n in counts.most_common())
                print(f"\n{game} reasons over {POSITIONS[game]:,} random positions: {listed}")


# ---------------------------------------------------------------------------
# The universe of well-formed moves
# ---------------------------------------------------------------------------


def duel_universe(game, sample):
    """Every Azul Duel move but the payments (codes 0 to ``$-``: all display positions, factories x
    colours, plates, slots x rotations, stacking orders, lines, cells), and payments: at a payment
    decision every chip set the seat holds and each of those with one chip it lacks added, and
    always ``sample`` sets at random (all 59,048 are asked in ``test_every_payment_notation``)."""
    codes = set(range(NOPAY + 1)) | set(sample)
    if game.pending == "pay":
        held = collections.Counter(game.to_dict()["players"][game.current_player]["chips"])
        for counts in itertools.product(*(range(held[face] + 1) for face in duel.CHIP_TYPES)):
            for extra in (None,) + duel.CHIP_TYPES:
                chips = [face for face, n in zip(duel.CHIP_TYPES, counts) for _ in range(n)]
                chips += [extra] if extra else []
                if chips and max(collections.Counter(chips).values()) <= 2:
                    codes.add(duel.Move.parse("$" + "+".join(chips)).code)
    return [duel.Move.from_code(code) for code in sorted(codes)]


PAVILION_UNIVERSE = [pavilion.Move.from_code(code) for code in range(pavilion.Move.parse("K-").code + 1)]
"""Every Summer Pavilion move: F1-F9 and the centre x colours, colours x stars x ring positions,
pass, W0-W5, bonus and keep colours, K-."""


# ---------------------------------------------------------------------------
# Independent checks: each reason's fields are true of the state
# ---------------------------------------------------------------------------


def check_common(kinds):
    def game_over(state, move, f):
        assert state["pending"] == "over" and f == {}

    def not_your_turn(state, move, f):
        assert f["current"] == state["current_player"] != f["seat"]

    def other_decision(state, move, f):
        assert f == {"pending": state["pending"], "kind": move.kind} and move.kind not in kinds[state["pending"]]

    return {"game_over": game_over, "not_your_turn": not_your_turn, "other_decision": other_decision}


def named_checks(prefix, kinds, codes):
    """The check of each of ``codes``: the common ones, and the functions of this module named ``prefix + code``."""
    checks = check_common(kinds) | {name[len(prefix):]: check for name, check in globals().items()
                                    if name.startswith(prefix) and callable(check)}
    assert sorted(checks) == sorted(codes)
    return checks


def duel_seat(state):
    return state["players"][state["current_player"]]


def duel_sun(state, factory):
    return state["large_factory"]["sun"] if factory == 0 else state["small_factories"][factory - 1]["sun"]


def buys(chips, colour, missing):
    """D22 as written: ``missing`` spaces, each bought with 2 chips showing ``colour`` or 3 of any."""
    matching = sum(colour in face for face in chips)
    return any(2 * pairs <= matching and 2 * pairs + 3 * (missing - pairs) <= len(chips)
               for pairs in range(missing + 1))


def drop(chips, face):
    rest = list(chips)
    rest.remove(face)
    return rest


def duel_line(state):
    line = state["tiling_line"]
    tiles = duel_seat(state)["lines"][line - 1]
    return line, tiles[0], line - len(tiles)


def duel_space(state, row, column):
    seat = duel_seat(state)
    slot = (row - 1) // 2 * 3 + (column - 1) // 2
    return duel.plate_spaces(seat["plates"][slot], seat["rotations"][slot])[(row - 1) % 2 * 2 + (column - 1) % 2]


def d_no_plates_final_round(state, move, f):
    assert state["pending"] == "action" and f["round"] == state["round"] == duel.ROUNDS


def d_plate_limit(state, move, f):
    assert state["pending"] == "action" and f["taken"] == duel_seat(state)["plates_taken"] == 2


def d_display_empty(state, move, f):
    assert f["position"] == move.display and state["display"][move.display - 1] == -1


def d_stack_empty(state, move, f):
    assert state["stack"] == [] and f == {}


def d_sun_empty(state, move, f):
    assert f["factory"] == move.factory and sum(duel_sun(state, move.factory)) == 0


def d_colour_not_in_sun(state, move, f):
    sun = duel_sun(state, move.factory)
    assert (f["factory"], f["colour"]) == (move.factory, duel.COLOURS[move.colour])
    assert sun[move.colour] == 0 < sum(sun)


def d_moons_empty(state, move, f):
    assert not any(state["large_factory"]["moon"]) and not any(s["moon"] for s in state["small_factories"])


def d_moon_colour_buried(state, move, f):
    colour, stacks = duel.COLOURS[move.colour], [s["moon"] for s in state["small_factories"]]
    assert f["colour"] == colour and state["large_factory"]["moon"][move.colour] == 0
    assert not any(stack.endswith(colour) for stack in stacks)
    assert f["factories"] == [i + 1 for i, stack in enumerate(stacks) if colour in stack] != []


def d_moon_colour_absent(state, move, f):
    colour = duel.COLOURS[move.colour]
    assert f["colour"] == colour and state["large_factory"]["moon"][move.colour] == 0
    assert not any(colour in s["moon"] for s in state["small_factories"])


def d_chip_limit(state, move, f):
    assert f["taken"] == duel_seat(state)["chips_taken"] == 2


def d_chip_already_taken(state, move, f):
    assert f["factory"] == move.factory and state["small_factories"][move.factory - 1]["chip"] == ""


def d_chip_not_revealed(state, move, f):
    factory = state["small_factories"][move.factory - 1]
    assert f["factory"] == move.factory and factory["chip"] and not factory["chip_revealed"]


def d_plate_not_drawn(state, move, f):
    assert f["plate"] == move.plate and move.plate not in state["drawn"]


def d_plate_kept(state, move, f):
    assert f["plate"] == move.plate == state["kept"]


def d_slot_taken(state, move, f):
    assert f["slot"] == move.slot and f["plate"] == duel_seat(state)["plates"][move.slot - 1] >= 0


def leftovers(state, f):
    sun = state["small_factories"][state["order_factory"] - 1]["sun"]
    assert f["factory"] == state["order_factory"]
    assert f["leftovers"] == "".join(colour * n for colour, n in zip(duel.COLOURS, sun))
    return f["leftovers"]


def d_order_wrong_count(state, move, f):
    assert len(move.order) != len(leftovers(state, f))


def d_order_wrong_tiles(state, move, f):
    order = "".join(duel.COLOURS[c] for c in move.order)
    assert f["order"] == order and len(order) == len(leftovers(state, f)) and sorted(order) != sorted(f["leftovers"])


def d_line_full(state, move, f):
    tiles = duel_seat(state)["lines"][move.line - 1]
    assert f["line"] == move.line == len(tiles) and f["holds"] == tiles[0]


def d_line_other_colour(state, move, f):
    tiles = duel_seat(state)["lines"][move.line - 1]
    assert f["line"] == move.line and f["holds"] == tiles[0] != f["colour"] == state["hand"][0]


def d_chips_not_held(state, move, f):
    lacking = collections.Counter(move.chips) - collections.Counter(duel_seat(state)["chips"])
    assert f["line"] == state["tiling_line"] and collections.Counter(f["chips"]) == lacking != {}


def d_payment_short(state, move, f):
    line, colour, missing = duel_line(state)
    assert (f["line"], f["colour"], f["missing"]) == (line, colour, missing)
    assert not collections.Counter(move.chips) - collections.Counter(duel_seat(state)["chips"])
    assert not buys(move.chips, colour, missing)


def d_payment_wasteful(state, move, f):
    line, colour, missing = duel_line(state)
    assert (f["line"], f["missing"]) == (line, missing) and buys(move.chips, colour, missing)
    assert not collections.Counter(move.chips) - collections.Counter(duel_seat(state)["chips"])
    assert f["spare"] == [face for face in dict.fromkeys(move.chips) if buys(drop(move.chips, face), colour, missing)]
    assert f["spare"]


def d_cell_outside_row(state, move, f):
    line, colour, _ = duel_line(state)
    assert f == {"cell": list(move.cell), "line": line, "colour": colour} and move.cell[0] != line


def d_cell_no_plate(state, move, f):
    row, column = move.cell
    slot = (row - 1) // 2 * 3 + (column - 1) // 2
    assert f == {"cell": [row, column], "slot": slot + 1} and row == state["tiling_line"]
    assert duel_seat(state)["plates"][slot] == -1


def d_cell_taken(state, move, f):
    row, column = move.cell
    assert f["cell"] == [row, column] and row == state["tiling_line"]
    assert f["tile"] == duel_seat(state)["dome"][row - 1][column - 1] != "."


def d_cell_special(state, move, f):
    row, column = move.cell
    assert f["cell"] == [row, column] and row == state["tiling_line"]
    assert duel_seat(state)["dome"][row - 1][column - 1] == "." and duel_space(state, row, column) == "S"


def d_cell_other_colour(state, move, f):
    row, column = move.cell
    line, colour, _ = duel_line(state)
    assert f["cell"] == [row, column] and row == line and f["colour"] == colour
    assert duel_seat(state)["dome"][row - 1][column - 1] == "."
    assert f["space"] == duel_space(state, row, column) not in (colour, "W", "S")


DUEL_CHECKS = named_checks("d_", DUEL_KINDS, duel.REASONS)


def pavilion_seat(state):
    return state["seats"][state["current_player"]]


def printed_number(state, star, position):
    """A space's cost as the rules print it: its ring position on the coloured side; 3 on the
    monochrome centre star and 3, 2, 1, 4, 5, 6 on its outer stars (S13)."""
    if state["side"] == "coloured":
        return position
    return 3 if star == 0 else (3, 2, 1, 4, 5, 6)[position - 1]


def source(state, factory):
    return state["centre"] if factory == 0 else state["factories"][factory - 1]


def p_drafting_over(state, move, f):
    assert move.kind == "take" and state["pending"] != "draft" and f["round"] == state["round"]


def p_no_such_factory(state, move, f):
    assert f == {"factory": move.factory, "factories": len(state["factories"])} and move.factory > f["factories"]


def p_factory_empty(state, move, f):
    assert f["factory"] == move.factory and sum(source(state, move.factory)) == 0


def p_colour_not_in_factory(state, move, f):
    tiles = source(state, move.factory)
    assert f == {"factory": move.factory, "colour": pavilion.COLOURS[move.colour]}
    assert tiles[move.colour] == 0 < sum(tiles)


def p_wild_with_other_colours(state, move, f):
    tiles = source(state, move.factory)
    assert f == {"factory": move.factory, "colour": state["wild"]} and pavilion.COLOURS[move.colour] == state["wild"]
    assert 0 < tiles[move.colour] < sum(tiles)


def p_space_covered(state, move, f):
    assert f["space"] == f"{pavilion.STARS[move.star]}{move.space}"
    assert f["colour"] == pavilion_seat(state)["board"][move.star][move.space - 1] != "."


def star_tiles(state, move, f):
    """The star's tiles, with the fields naming the star and colour of the move."""
    assert (f["star"], f["colour"]) == (pavilion.STARS[move.star], pavilion.COLOURS[move.colour])
    return pavilion_seat(state)["board"][move.star].replace(".", "")


def p_star_other_colour(state, move, f):
    star_tiles(state, move, f)
    assert state["side"] == "coloured" and move.star > 0 and f["takes"] == f["star"] != f["colour"]


def p_star_single_coloured(state, move, f):
    tiles = star_tiles(state, move, f)
    assert state["side"] == "monochrome" and len(tiles) >= 2 and set(tiles) == {f["takes"]} != {f["colour"]}


def p_colour_on_star(state, move, f):
    tiles = star_tiles(state, move, f)
    multicoloured = move.star == 0 if state["side"] == "coloured" else len(set(tiles)) == len(tiles) >= 2
    assert multicoloured and f["colour"] in tiles


def p_needs_natural_tile(state, move, f):
    hand, wild = pavilion_seat(state)["hand"], pavilion.COLOURS.index(state["wild"])
    assert f == {"space": f"{pavilion.STARS[move.star]}{move.space}", "colour": pavilion.COLOURS[move.colour],
                 "wilds": hand[wild]}
    assert move.colour != wild and hand[move.colour] == 0


def p_cost_too_high(state, move, f):
    hand, wild = pavilion_seat(state)["hand"], pavilion.COLOURS.index(state["wild"])
    wilds = 0 if move.colour == wild else hand[wild]
    assert f == {"space": f"{pavilion.STARS[move.star]}{move.space}",
                 "cost": printed_number(state, move.star, move.space),
                 "colour": pavilion.COLOURS[move.colour], "have": hand[move.colour], "wilds": wilds}
    assert f["have"] + wilds < f["cost"] and (move.colour == wild or f["have"] > 0)


def payment(state, move, f):
    """The cost and the colour of the placement being paid for, with the fields naming it."""
    placing = pavilion.Move.parse(state["placing"])
    price = printed_number(state, placing.star, placing.space)
    assert (f["space"], f["wilds"], f["cost"]) == (state["placing"][2:], move.wilds, price)
    return price, placing.colour


def p_payment_over_cost(state, move, f):
    assert move.wilds > payment(state, move, f)[0]


def p_payment_all_wild(state, move, f):
    assert move.wilds == payment(state, move, f)[0]


def p_payment_wilds_not_held(state, move, f):
    wild = pavilion.COLOURS.index(state["wild"])
    assert move.wilds < payment(state, move, f)[0] and move.wilds > f["have"] == pavilion_seat(state)["hand"][wild]


def p_payment_naturals_not_held(state, move, f):
    price, colour = payment(state, move, f)
    hand = pavilion_seat(state)["hand"]
    assert f["colour"] == pavilion.COLOURS[colour] and f["have"] == hand[colour] < price - move.wilds
    assert move.wilds <= hand[pavilion.COLOURS.index(state["wild"])]


def p_bonus_not_in_supply(state, move, f):
    assert f["colour"] == pavilion.COLOURS[move.colour] and state["supply"][move.colour] == 0


def p_keep_not_in_hand(state, move, f):
    assert f["colour"] == pavilion.COLOURS[move.colour] and pavilion_seat(state)["hand"][move.colour] == 0


PAVILION_CHECKS = named_checks("p_", PAVILION_KINDS, pavilion.REASONS)


# ---------------------------------------------------------------------------
# Random positions
# ---------------------------------------------------------------------------


def check_position(name, game, universe, checks):
    """Every move of ``universe``: a reason exactly when it is not legal, true of the state; the same
    move asked for another seat is ``not_your_turn`` and for the deciding seat as without one."""
    text, state, legal = game.to_json(), game.to_dict(), set(game.legal_codes())
    counts = COUNTS[name]
    POSITIONS[name] += 1
    for move in universe:
        reason = game.why_not(move)
        if move.code in legal:
            assert reason is None, (str(move), state)
            continue
        assert isinstance(reason, Reason) and reason.code in checks, (str(move), reason)
        checks[reason.code](state, move, reason.fields)
        counts[reason.code] += 1
    move = game.legal_moves()[0]
    assert game.why_not(move, seat=game.current_player) is None
    other = (game.current_player + 1) % game.players
    reason = game.why_not(str(move), seat=other)
    checks[reason.code](state, move, reason.fields)
    assert reason.code == "not_your_turn"
    counts[reason.code] += 1
    assert game.to_json() == text


def check_finished(name, game, universe, checks):
    state = game.to_dict()
    for move in universe:
        reason = game.why_not(move, seat=0)
        checks[reason.code](state, move, reason.fields)
        assert reason.code == "game_over"
        COUNTS[name][reason.code] += 1


@settings(max_examples=max(4, settings().max_examples * 2 // 5), derandomize=True)
@given(seed=st.integers(0, 2**64 - 1), stack_reveal=st.sampled_from(duel.STACK_REVEAL))
def test_every_duel_move_in_random_positions_has_a_true_reason_or_is_legal(seed, stack_reveal):
    game, chooser = duel.Game(seed=seed, stack_reveal=stack_reveal), random.Random(seed)
    while not game.is_over():
        if chooser.random() < 0.25:
            check_position("duel", game, duel_universe(game, chooser.sample(ALL_PAYMENTS, 30)), DUEL_CHECKS)
        game.push(chooser.choice(game.legal_moves()))
    check_finished("duel", game, duel_universe(game, chooser.sample(ALL_PAYMENTS, 30)), DUEL_CHECKS)


@settings(max_examples=max(6, settings().max_examples * 3 // 5), derandomize=True)
@given(seed=st.integers(0, 2**64 - 1), players=st.sampled_from([2, 3, 4]), side=st.sampled_from(pavilion.SIDES))
def test_every_pavilion_move_in_random_positions_has_a_true_reason_or_is_legal(seed, players, side):
    game, chooser = pavilion.Game(players=players, seed=seed, side=side), random.Random(seed)
    while not game.is_over():
        if chooser.random() < 0.3:
            check_position("pavilion", game, PAVILION_UNIVERSE, PAVILION_CHECKS)
        game.push(chooser.choice(game.legal_moves()))
    check_finished("pavilion", game, PAVILION_UNIVERSE, PAVILION_CHECKS)


# ---------------------------------------------------------------------------
# Worked examples: one chosen position per code and game
# ---------------------------------------------------------------------------

END = "to the end"
"""Instead of moves: the game from its seed played to the end at random (``random_playout(0)``);
a number instead of moves: that many random options chosen with ``random.Random(seed)``."""

ROUND_4_STACK_EMPTY = (  # seat 1 has a plate to take in round 4; the plates left are on the display
    "P2 @1r3 P1 @5r2 P3 @1r0 S4R OBY L2 S1K OYB L3 S2K ORT L6 P2 @7r2 S3R OKT L5 S0K LF MT L3 MK L2 P1 @9r3 MR LF "
    "MY L1 C2 C3 MB LF P+ P+ P= K9 @3r0 MY L6 C4 C1 T15 T25 P2 @4r3 S4K OYBY LF S2B L4 S1Y L1 S0B L4 S3B OKTY L4 "
    "P3 @2r2 MY L5 MT L2 MK LF MB LF MT MY LF P+ P= @2r2 MB LF C1 C2 P+ P= @4r0 MR L1 C3 C4 T13 $K+KB S1K ORRY LF "
    "S2Y OKRB L2 S0T L1 S4B OYTT L4 S3K OYBB L2 MB LF MR L3 MB LF MK L2 P2 @8r1 MT MT P1 @6r1 P3 @3r2 MY C3 C2 C4 "
    "P+ P+ P= K10 @8r2 MR MR L3 C1 $T+TY+BR $Y+YK P+ @7r2")
PAY_LINE_2 = (  # tiling round 1: seat 1 holds chips Y and TY; line 2 has 1 yellow of 2
    "P1 @3r0 P3 @6r1 P3 @3r2 S1Y OTR L3 P2 @2r2 S3K L5 S2T OYYR L6 S4B OYK L4 S0R L1 P1 @1r0 MY L2 MR L2 MK L4 "
    "MY L3 C3 MY LF C2 C4 MT LF MB LF P+ P= @8r1 C1")
PAY_LINE_3 = (  # tiling round 2: seat 1 holds chips Y, BR, RT and YK; line 3 has 2 black of 3
    "P1 @3r3 P2 @9r2 S2Y L3 S0T L6 S4K L4 P+ P= @4r1 MT L1 MR L2 S3R OYYK LF P2 @9r0 S1T OBK L6 MT L5 P+ P= @6r2 "
    "MK L3 P+ P= @7r0 MT L5 C4 C2 MB L5 C1 MY L2 MY L1 C3 P2 @5r2 S4B ORY LF P3 @2r0 S0K L4 MB LF P1 @8r1 MY LF "
    "MT LF S2Y L4 MR S3R OBT S1K C4 MT LF MB P+ P= @3r1 C3 MR MB C1 C2")
TILE_LINE_4 = (  # tiling round 1: seat 1's full line 4 of red; slot 5 of row 4 has no plate
    "P3 @6r2 P3 @1r1 S0K L1 S4B OYT L1 S1Y ORB L4 P2 @3r1 P3 @6r1 S3T OBK L3 MK L2 P1 @4r3 S2K LF MB L6 MT L6 "
    "MY LF C3 MR L4 C4 MR L4 P+ P= @3r3 C1 C2")
TILE_LINE_3 = (  # tiling round 1: cell (3, 4) is slot 5's special field
    "P2 @6r2 P2 @6r0 S1Y OTR L6 P3 @5r2 S3T OBKB L3 S0B L1 S4T L5 MR L3 P2 @5r2 S2B L2 MK LF MB L5 MB L1 MY L4 "
    "MK L2 C4 MB L4 MT LF C1 P1 @9r3 P+ P= @9r2 C3 MR C2")
TILE_LINE_1 = (  # tiling round 2: seat 0's yellow of round 1 lies on (1, 1)
    "P2 @4r0 P2 @3r3 P1 @1r0 S2R OKYB L4 S0R L2 P3 @3r0 S4B L3 S3R OTKB L3 MT L4 S1Y OBBR L1 MR L6 P2 @2r0 MB L5 "
    "MB L5 MY L1 MK LF C4 C1 C2 MT L6 P+ P= @6r3 C3 S4K L1 S1T L2 P3 @4r0 S2Y OKT P1 @5r0 P+ P+ P= K1 @6r2 MT L2 "
    "S3Y ORB MR L6 MK C2 S0B LF MK P+ P= @7r1 MR LF C1 MT LF MT L6 C4 MB L5 MR LF C3")
FIRST_ACTION = "P2 @7r2 P1 @5r0"  # seed 0: both starting plates laid

# (seed, moves from the seed, the move asked about, the seat asking, the reason)
DUEL_EXAMPLES = [
    (0, END, "P1", None, Reason("game_over", {})),
    # seat 0 picks its starting plate first
    (0, "", "P1", 1, Reason("not_your_turn", {"seat": 1, "current": 0})),
    # starting plates come from the display
    (0, "", "P+", None, Reason("other_decision", {"pending": "setup", "kind": "draw"})),
    # the first action of round 5
    (0, 183, "P1", None, Reason("no_plates_final_round", {"round": 5})),
    # seat 1 has taken its 2 plates of round 1 (display 3 and 2)
    (146, "P1 @3r0 P3 @6r1 P3 @3r2 S1Y OTR L3 P2 @2r2 S3K L5", "P1", None, Reason("plate_limit", {"taken": 2})),
    # display position 2 was taken at setup and is refilled only in Phase 3
    (6, "P3 @2r1 P2 @5r0 P2 @1r0", "P2", None, Reason("display_empty", {"position": 2})),
    (36, ROUND_4_STACK_EMPTY, "P+", None, Reason("stack_empty", {})),
    # the large sun holds no turquoise
    (0, FIRST_ACTION, "S0T", None, Reason("colour_not_in_sun", {"factory": 0, "colour": "T"})),
    # factory 4's blue was taken, its 2 turquoise went to its moon
    (0, FIRST_ACTION + " S4B L4", "S4B", None, Reason("sun_empty", {"factory": 4})),
    (0, FIRST_ACTION, "MB", None, Reason("moons_empty", {})),
    # factory 4's moon is R, Y, R from the bottom: the yellow is under a red
    (1, "P1 @2r0 P2 @2r3 S4T ORYR L4", "MY", None, Reason("moon_colour_buried", {"colour": "Y", "factories": [4]})),
    # the only moon tiles are factory 4's 2 turquoise
    (0, FIRST_ACTION + " S4B L4", "MB", None, Reason("moon_colour_absent", {"colour": "B"})),
    # seat 0 took the chips of factories 4 and 3
    (33, "P3 @3r2 P3 @4r2 S1Y OBKB L6 S2R OYBB L2 MB L5 S3K L4 MB L4 S4R L3 C4 P2 @6r3 MY L3 C3 C2 P1 @8r3",
     "C1", None, Reason("chip_limit", {"taken": 2})),
    # factory 1's chip was taken by the move before
    (60, "P2 @5r2 P3 @3r1 S1K L2 S4Y L4 S3B OTRY L1 MT L2 P3 @8r0 P1 @4r3 C1", "C1", None,
     Reason("chip_already_taken", {"factory": 1})),
    # factory 1 still holds its tiles over the chip
    (0, FIRST_ACTION, "C1", None, Reason("chip_not_revealed", {"factory": 1})),
    # three plates drawn from the stack, plate 0 not among them
    (68, "P3 @8r1 P3 @9r0 P+ P+ P=", "K0", None, Reason("plate_not_drawn", {"plate": 0})),
    # plate 15 was kept: the other drawn plates go under the stack
    (70, "P1 @5r2 P3 @8r1 S3T OYYK L3 P+ P+ P+ P= K15", "U15", None, Reason("plate_kept", {"plate": 15})),
    # seat 1's starting plate lies on slot 5
    (6, "P3 @2r1 P2 @5r0 P2", "@5r0", None, Reason("slot_taken", {"slot": 5, "plate": 5})),
    # a turquoise take from factory 4 leaves R, R, Y to stack
    (1, "P1 @2r0 P2 @2r3 S4T", "OBB", None, Reason("order_wrong_count", {"factory": 4, "leftovers": "RRY"})),
    (1, "P1 @2r0 P2 @2r3 S4T", "OBBB", None,
     Reason("order_wrong_tiles", {"factory": 4, "leftovers": "RRY", "order": "BBB"})),
    # line 2 holds 2 red
    (24, "P3 @7r0 P3 @3r3 S0R L2 S1R OBTT L6 S4Y", "L2", None, Reason("line_full", {"line": 2, "holds": "R"})),
    # line 3 holds yellow, the tiles taken are black
    (72, "P1 @3r3 P2 @9r2 S2Y L3 S0T L6 S4K", "L3", None,
     Reason("line_other_colour", {"line": 3, "colour": "K", "holds": "Y"})),
    (146, PAY_LINE_2, "$B", None, Reason("chips_not_held", {"line": 2, "chips": ["B"]})),
    # one yellow chip does not buy a space (2 yellow or 3 of any colour do)
    (146, PAY_LINE_2, "$Y", None, Reason("payment_short", {"line": 2, "colour": "Y", "missing": 1})),
    # any 3 of the 4 chips buy the missing space
    (72, PAY_LINE_3, "$Y+BR+RT+YK", None,
     Reason("payment_wasteful", {"line": 3, "missing": 1, "spare": ["Y", "BR", "RT", "YK"]})),
    (34, TILE_LINE_4, "T11", None, Reason("cell_outside_row", {"cell": [1, 1], "line": 4, "colour": "R"})),
    (34, TILE_LINE_4, "T43", None, Reason("cell_no_plate", {"cell": [4, 3], "slot": 5})),
    (34, TILE_LINE_4, "T42", None, Reason("cell_other_colour", {"cell": [4, 2], "colour": "R", "space": "T"})),
    (133, TILE_LINE_3, "T34", None, Reason("cell_special", {"cell": [3, 4]})),
    (88, TILE_LINE_1, "T11", None, Reason("cell_taken", {"cell": [1, 1], "tile": "Y"})),
]

PHASE_2 = "F1G F2B F3R F5R CG CB CO F4B"  # seed 2: seat 0 holds 3 purple (wild), 3 green, 1 orange, 3 red
ON_C2 = "F2R F3R F4O F5B CR F1Y CG CY G@C2 P@C2"  # seed 13: seat 0's green lies on C2 of the centre star
PAY_O4 = "F3Y F5R CB F1R CO F4R CG F2O O@O4"  # seed 16: orange on O4 (cost 4) with 2 orange and 4 purple (wild)

# ({players, side}, seed, moves from the seed, the move asked about, the seat asking, the reason)
TWO = {"players": 2}
PAVILION_EXAMPLES = [
    (TWO, 0, END, "pass", None, Reason("game_over", {})),
    (TWO, 0, "", "F1G", 0, Reason("not_your_turn", {"seat": 0, "current": 1})),
    (TWO, 0, "", "P@C1", None, Reason("other_decision", {"pending": "draft", "kind": "place"})),
    # 2 seats play with factories 1-5
    (TWO, 0, "", "F6P", None, Reason("no_such_factory", {"factory": 6, "factories": 5})),
    # the centre is empty before the first take
    (TWO, 0, "", "CP", None, Reason("factory_empty", {"factory": 0})),
    (TWO, 0, "", "F1P", None, Reason("colour_not_in_factory", {"factory": 1, "colour": "P"})),
    # factory 2 holds purple (wild in round 1) with other colours
    (TWO, 1, "", "F2P", None, Reason("wild_with_other_colours", {"factory": 2, "colour": "P"})),
    (TWO, 2, PHASE_2, "F1P", None, Reason("drafting_over", {"round": 1})),
    (TWO, 2, PHASE_2, "P@O1", None, Reason("star_other_colour", {"star": "O", "colour": "P", "takes": "O"})),
    (TWO, 2, PHASE_2, "Y@C1", None, Reason("needs_natural_tile", {"space": "C1", "colour": "Y", "wilds": 3})),
    (TWO, 2, PHASE_2, "O@O5", None,
     Reason("cost_too_high", {"space": "O5", "cost": 5, "colour": "O", "have": 1, "wilds": 3})),
    (TWO, 2, PHASE_2 + " pass", "KY", None, Reason("keep_not_in_hand", {"colour": "Y"})),
    (TWO, 13, ON_C2, "P@C2", None, Reason("space_covered", {"space": "C2", "colour": "G"})),
    (TWO, 13, ON_C2, "G@C1", None, Reason("colour_on_star", {"star": "C", "colour": "G"})),
    (TWO, 16, PAY_O4, "W5", None, Reason("payment_over_cost", {"space": "O4", "wilds": 5, "cost": 4})),
    (TWO, 16, PAY_O4, "W4", None, Reason("payment_all_wild", {"space": "O4", "wilds": 4, "cost": 4})),
    (TWO, 16, PAY_O4, "W0", None,
     Reason("payment_naturals_not_held", {"space": "O4", "wilds": 0, "cost": 4, "colour": "O", "have": 2})),
    # green on G3 (cost 3) with 1 wild tile
    (TWO, 39, "F2R F4Y F5Y F1O F3O CO CB CG G@G3", "W2", None,
     Reason("payment_wilds_not_held", {"space": "G3", "wilds": 2, "cost": 3, "have": 1})),
    # 4 seats: R@R3 completed a statue; the supply shows no orange
    ({"players": 4}, 12, "F7B F4G F9G F6R F2Y F8G F1G CY CG F5R CB F3B CO R@C2 O@O6 R@R2 W0 B@C5 W1 Y@C1 B@C1 R@C1 "
                         "pass K- pass KB K- O@O1 G@C2 W0 pass K- R@R3 W0",
     "+O", None, Reason("bonus_not_in_supply", {"colour": "O"})),
    # monochrome side: the red star's first tiles are blue and blue
    ({"players": 2, "side": "monochrome"}, 20,
     "F5G F4O F1B F3B F2O CY CO CG CR P@Y2 O@C5 W0 Y@O2 R@R3 G@B3 B@P3 G@G2 P@B3 B@R3 G@B2 B@R2",
     "P@R1", None, Reason("star_single_coloured", {"star": "R", "colour": "P", "takes": "B"})),
]


def reached(game, moves, seed):
    """``game`` after ``moves``: notation, a number of random options, or ``END``."""
    if moves == END:
        game.random_playout(0)
    elif isinstance(moves, int):
        chooser = random.Random(seed)
        for _ in range(moves):
            game.push(chooser.choice(game.legal_moves()))
    else:
        for move in moves.split():
            game.push(move)
    return game


@pytest.mark.parametrize("seed, moves, move, seat, reason", DUEL_EXAMPLES, ids=[e[-1].code for e in DUEL_EXAMPLES])
def test_duel_worked_example(seed, moves, move, seat, reason):
    game = reached(duel.Game(seed=seed), moves, seed)
    text = game.to_json()
    assert game.why_not(move, seat) == reason
    DUEL_CHECKS[reason.code](game.to_dict(), duel.Move.parse(move), reason.fields)
    assert game.to_json() == text


@pytest.mark.parametrize("options, seed, moves, move, seat, reason", PAVILION_EXAMPLES,
                         ids=[e[-1].code for e in PAVILION_EXAMPLES])
def test_pavilion_worked_example(options, seed, moves, move, seat, reason):
    game = reached(pavilion.Game(seed=seed, **options), moves, seed)
    text = game.to_json()
    assert game.why_not(move, seat) == reason
    PAVILION_CHECKS[reason.code](game.to_dict(), pavilion.Move.parse(move), reason.fields)
    assert game.to_json() == text


@pytest.mark.parametrize("module, examples", [(duel, DUEL_EXAMPLES), (pavilion, PAVILION_EXAMPLES)])
def test_the_examples_and_the_docs_cover_every_code(module, examples):
    codes = module.REASONS
    assert len(set(codes)) == len(codes) and all(re.fullmatch(r"[a-z]+(_[a-z]+)*", code) for code in codes)
    assert sorted(example[-1].code for example in examples) == sorted(codes)
    title = "## Azul Duel" if module is duel else "## Azul: Summer Pavilion"
    section = NOTATION.read_text().split(title)[1].split("\n## ")[0].split("### Why a move is not legal")[1]
    section = section.split("\n### ")[0]
    documented = re.findall(r"^\| `([a-z_]+)` \|", section, re.MULTILINE)
    assert documented[0] == "code" and sorted(documented[1:]) == sorted(codes)


@pytest.mark.parametrize("seed, moves", [(146, PAY_LINE_2), (72, PAY_LINE_3)])
def test_every_payment_notation(seed, moves):
    """All 59,048 chip sets the notation can write, at two payment decisions."""
    game = reached(duel.Game(seed=seed), moves, seed)
    assert game.pending == "pay"
    state, legal = game.to_dict(), set(game.legal_codes())
    for code in ALL_PAYMENTS:
        move = duel.Move.from_code(code)
        reason = game.why_not(move)
        assert (reason is None) == (code in legal)
        if reason is not None:
            DUEL_CHECKS[reason.code](state, move, reason.fields)


def test_why_not_reads_notation_and_refuses_what_is_not_a_move_or_a_seat():
    game = duel.Game(seed=0)
    assert game.why_not("p1") is None and game.why_not(duel.Move.parse("P1"), seat=0) is None
    with pytest.raises(InvalidMoveError):
        game.why_not("Z9")
    with pytest.raises(InvalidMoveError):
        pavilion.Game(seed=0).why_not(duel.Move.parse("P1"))
    for seat in (2, -1, True, "0"):
        with pytest.raises(ValueError, match="seat"):
            game.why_not("P1", seat=seat)
    with pytest.raises(ValueError, match="seat"):
        pavilion.Game(players=3, seed=0).why_not("F1G", seat=3)
