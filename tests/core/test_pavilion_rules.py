"""Summer Pavilion position tests: every example and test vector of the rules
document (drafting, placement A-F, ring scoring, the 18 structures, payment,
passing, final scoring), the project's decisions S1-S13, and the board table
checked against its own geometry."""
import json
import math
import random

import pytest

from core_ext import envelope
from core_ext._shared import drain_bag
from core_ext import pavilion as pv


POSITION_RNG = 12345


def counts(letters):
    """Per-colour counts (in ``pv.COLOURS`` order) of a string of colour letters."""
    return [letters.upper().count(c) for c in pv.COLOURS]


def boards(*spaces):
    """A seat's board with ``spaces`` filled: ``"B6"`` holds the star's own colour,
    ``"C3"`` the centre-star colour COLOURS[2] (all different), ``"C3Y"`` or
    ``"B6Y"`` the colour named last."""
    rows = [list("......") for _ in pv.STARS]
    for space in spaces:
        star, pos = pv.STARS.index(space[0]), int(space[1]) - 1
        rows[star][pos] = space[2] if len(space) > 2 else pv.COLOURS[pos] if star == 0 else space[0]
    return ["".join(row) for row in rows]


def tiles_in(state):
    used = [0] * 6
    zones = [state["tower"], state["supply"], state["centre"], *state["factories"]]
    for seat in state["seats"]:
        zones += [seat["hand"], seat["corners"], counts("".join(seat["board"]).replace(".", ""))]
    for zone in zones:
        used = [u + n for u, n in zip(used, zone)]
    return used


def position(players=2, round=1, pending="place", current=0, seats=(), factories=(), centre="", supply="",
             tower="", side="coloured", token_holder=-1, start_player=0, placing="", bonus_owed=0, bag=None,
             spare=None):
    """A game loaded from a hand-built position; every tile not placed elsewhere is in the bag,
    or in the hand of seat ``spare``."""
    seat_states = []
    for p in range(players):
        spec = seats[p] if p < len(seats) else {}
        seat_states.append({
            "score": spec.get("score", 5), "score_before_final": -1, "leftover": 0,
            "hand": counts(spec.get("hand", "")), "corners": counts(spec.get("corners", "")),
            "board": spec.get("board", boards()), "passed": spec.get("passed", False),
        })
    state = {
        "players": players, "side": side, "round": round, "wild": pv.COLOURS[round - 1],
        "start_player": start_player, "token_holder": token_holder, "current_player": current,
        "pending": pending, "rng": envelope.hex64(POSITION_RNG), "tower": counts(tower), "supply": counts(supply),
        "factories": [counts(f) for f in factories] + [[0] * 6] * (2 * players + 1 - len(factories)),
        "centre": counts(centre), "placing": placing, "bonus_owed": bonus_owed, "seats": seat_states,
    }
    rest = [22 - n for n in tiles_in(state)]
    if spare is not None:
        seat_states[spare]["hand"] = [a + b for a, b in zip(seat_states[spare]["hand"], rest)]
        state["bag"] = [0] * 6
    else:
        state["bag"] = rest if bag is None else counts(bag)
    return pv.Game.from_json(envelope.dump("pavilion", 1, state))


def placing_game(hand, board=(), score=5, round=1, side="coloured", supply="PGOYBRPGOY"):
    """Seat 0 to place with ``hand``; seat 1 has passed, so every turn comes back to seat 0."""
    return position(round=round, side=side, supply=supply,
                    seats=[{"hand": hand, "board": boards(*board), "score": score}, {"passed": True}])


def place(game, text, wilds=None):
    """Place, paying with ``wilds`` wild tiles when the payment is a real choice; returns the points scored."""
    before = game.scores()[game.current_player]
    seat = game.current_player
    game.push(text)
    if game.pending == "pay":
        game.push(f"W{wilds or 0}")
    else:
        assert wilds in (None, 0) or game.to_dict()["tower"]  # a single payment was taken by itself
    return game.scores()[seat] - before


def seat(game, p=0):
    return game.to_dict()["seats"][p]


def legal(game):
    return [str(m) for m in game.legal_moves()]


# ---------------------------------------------------------------------------
# Phase 1: drafting (rules 4, 12)
# ---------------------------------------------------------------------------

def drafting(factories, centre="", score=5, token_holder=-1):
    return position(pending="draft", factories=factories, centre=centre, token_holder=token_holder,
                    seats=[{"score": score}, {}])


def test_factory_take_of_one_colour_sends_the_rest_to_the_centre():
    game = drafting(["RRYY", "GGGG"])  # Ina's example
    game.push("F1R")
    state = game.to_dict()
    assert state["seats"][0]["hand"] == counts("RR")
    assert state["centre"] == counts("YY") and state["factories"][0] == [0] * 6
    assert state["token_holder"] == -1 and game.current_player == 1


def test_factory_take_adds_exactly_one_wild_tile():
    game = drafting(["GPPY", "OOOO"])  # Andrea's example, purple is wild in round 1
    assert legal(game)[:2] == ["F1G", "F1Y"]  # no wild pick while other colours are there
    game.push("F1G")
    state = game.to_dict()
    assert state["seats"][0]["hand"] == counts("GP") and state["centre"] == counts("PY")


def test_factory_with_purple_green_orange():
    game = drafting(["PPGO", "OOOO"])
    game.push("F1G")
    assert seat(game)["hand"] == counts("GP") and game.to_dict()["centre"] == counts("PO")


def test_a_factory_of_wild_tiles_only_gives_one_of_them():
    game = drafting(["PPPP", "GGGG"])
    assert legal(game) == ["F1P", "F2G"]
    game.push("F1P")
    assert seat(game)["hand"] == counts("P") and game.to_dict()["centre"] == counts("PPP")


def test_first_from_the_centre_takes_the_token_and_loses_a_point_per_tile():
    game = drafting(["GGGG"], centre="YYYP", score=10)  # Tom's example
    game.push("CY")
    state = game.to_dict()
    assert state["seats"][0]["hand"] == counts("YYYP") and state["centre"] == [0] * 6
    assert state["token_holder"] == 0 and game.scores()[0] == 6


def test_the_token_penalty_stops_at_1():
    game = drafting(["GGGG"], centre="RRRRP", score=3)
    game.push("CR")
    assert game.scores()[0] == 1 and seat(game)["hand"] == counts("RRRRP")


def test_the_token_is_taken_once_per_round():
    game = drafting(["GGGG"], centre="YYPP", token_holder=1, score=10)
    game.push("CY")
    state = game.to_dict()
    assert state["token_holder"] == 1 and game.scores()[0] == 10
    assert state["seats"][0]["hand"] == counts("YYP") and state["centre"] == counts("P")  # other wilds stay


def test_a_centre_of_wild_tiles_only_gives_one():
    game = drafting(["GGGG"], centre="PPP", score=10)
    assert legal(game) == ["F1G", "CP"]
    game.push("CP")
    assert seat(game)["hand"] == counts("P") and game.to_dict()["centre"] == counts("PP")
    assert game.scores()[0] == 9


def test_drafting_ends_when_factories_and_centre_are_empty_and_the_token_holder_places_first():
    game = position(pending="draft", current=1, start_player=1, factories=["GGGG", "OOOO", "YYYY"], centre="B",
                    seats=[{}, {"hand": "BBB"}])
    game.push("F1G")
    game.push("CB")  # seat 0 takes the token
    game.push("F2O")  # seat 1; seat 0's last draft, F3Y, is its only option and is taken by itself
    assert game.pending == "place" and game.current_player == 0 and game.to_dict()["token_holder"] == 0
    assert sum(game.to_dict()["supply"]) == 10


def test_nobody_taking_from_the_centre_keeps_the_start_player(  # S2, S11
):
    game = position(pending="draft", current=1, start_player=1, factories=["GGGG", "OOOO", "YYYY"],
                    seats=[{}, {}])
    game.push("F1G")
    game.push("F2O")  # seat 1's F3Y follows by itself
    assert game.pending == "place" and game.current_player == 1  # the Phase 1 starter starts Phase 2
    game.push("pass")
    for _ in range(4):
        game.push("KG")  # the fourth ends the pass: the yellow tiles are discarded
    game.push("pass")
    game.push("K-")
    state = game.to_dict()
    assert game.round == 2 and state["start_player"] == 1 and game.current_player == 1
    assert state["seats"][1]["hand"] == counts("GGGG")  # corner tiles come back to the hand


def test_the_token_holder_starts_the_next_round():
    game = position(pending="draft", current=1, start_player=1, factories=["GGGG", "YYYY"], centre="O",
                    seats=[{}, {}])
    game.push("F1G")
    game.push("CO")  # seat 0 takes the token; seat 1's F2Y follows by itself
    assert game.current_player == 0
    game.push("pass")
    game.push("K-")
    game.push("pass")
    game.push("K-")
    assert game.round == 2 and game.to_dict()["start_player"] == 0 and game.current_player == 0
    assert game.to_dict()["token_holder"] == -1


# ---------------------------------------------------------------------------
# Phase 2: placement examples A-F (rules 5.6), payment and ring scoring
# ---------------------------------------------------------------------------

def test_example_a_blue_6_with_seven_blue():
    game = placing_game("BBBBBBB")
    assert place(game, "B@B6") == 1
    assert seat(game)["hand"] == counts("B") and game.to_dict()["tower"] == counts("BBBBB")
    assert seat(game)["board"][pv.STARS.index("B")] == ".....B"


def test_example_b_red_3_between_6_and_1():
    game = placing_game("RRR", ["R6", "R1"])
    assert place(game, "R@R3") == 1
    assert seat(game)["hand"] == [0] * 6 and game.to_dict()["tower"] == counts("RR")


def test_example_c_three_wilds_complete_blue_6():
    game = placing_game("BBBPPP", ["B4", "B5"])
    game.push("B@B6")  # 3 wilds and 3 blue is the only payment: it is made by itself
    assert game.scores()[0] == 5 + 3
    assert game.pending == "bonus" and game.to_dict()["bonus_owed"] == 3  # B5 and B6 surround the window
    assert seat(game)["hand"] == [0] * 6 and game.to_dict()["tower"] == counts("BBPPP")


def test_example_d_orange_4_with_three_wilds_keeps_the_green():
    game = placing_game("OGPPP", ["O3", "O5"])
    assert place(game, "O@O4", wilds=3) == 3
    assert seat(game)["hand"] == counts("G")


def test_example_e_wild_colour_on_its_own_star():
    game = placing_game("PPRRGGGG", ["P1", "P3"])
    assert place(game, "P@P2") == 3
    assert seat(game)["hand"] == counts("RRGGGG") and game.to_dict()["tower"] == counts("P")


def test_example_f_pass_keeps_four_and_loses_a_point_per_discard():
    game = position(seats=[{"hand": "GGGGRR", "score": 10}, {"hand": "B", "board": boards()}])
    game.push("pass")
    assert game.pending == "keep" and legal(game) == ["KG", "KR", "K-"]
    for _ in range(4):
        game.push("KG")
    state = game.to_dict()  # the fourth kept tile ends the choice: the rest is discarded
    assert state["seats"][0]["corners"] == counts("GGGG") and state["seats"][0]["hand"] == [0] * 6
    assert game.scores()[0] == 8 and state["tower"] == counts("RR") and state["seats"][0]["passed"]


def test_keeping_fewer_than_four_is_allowed():
    game = position(seats=[{"hand": "GGY", "score": 10}, {"hand": "B"}])
    game.push("pass")
    game.push("KY")
    game.push("K-")
    assert seat(game)["corners"] == counts("Y") and game.scores()[0] == 8


def test_pass_discards_stop_at_1():
    game = position(seats=[{"hand": "GGGGGGG", "score": 2}, {"hand": "B"}])
    game.push("pass")
    game.push("K-")
    assert game.scores()[0] == 1


@pytest.mark.parametrize("wilds, hand_after, tower_after", [("W3", "G", "PPP"), ("W2", "P", "GPP")])
def test_payment_choice_lists_every_split_with_at_least_one_natural_tile(wilds, hand_after, tower_after):
    game = placing_game("GGPPP")  # cost 4 on green: 1 or 2 natural green
    game.push("G@G4")
    assert game.pending == "pay" and legal(game) == ["W2", "W3"]
    game.push(wilds)
    assert seat(game)["hand"] == counts(hand_after) and game.to_dict()["tower"] == counts(tower_after)


def test_placement_needs_a_natural_tile_and_wilds_only_on_their_colour():
    game = placing_game("PPPPPP")
    moves = legal(game)
    assert "G@G1" not in moves and "P@P6" in moves and "P@C6" in moves
    assert all(m.startswith("P@") or m == "pass" for m in moves)


def test_a_player_who_cannot_place_passes_by_itself():
    game = position(seats=[{"hand": "G", "score": 9, "board": boards("G1", "C1")}, {"hand": "BB"}])
    # G1 and C1 are taken, every other space costs 2 or more: seat 0 only keeps or discards
    assert game.pending == "keep" and game.current_player == 0 and seat(game)["passed"]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_nobody_has_passed_when_the_next_round_drafts(players):
    game = pv.Game(players=players, seed=3)
    chooser = random.Random(players)
    passed_in_round_1 = set()
    while game.round == 1:
        passed_in_round_1 |= {p for p, s in enumerate(game.to_dict()["seats"]) if s["passed"]}
        game.push_code(chooser.choice(game.legal_codes()))
    state = game.to_dict()
    assert passed_in_round_1 == set(range(players))  # everyone passed to end round 1
    assert game.pending == "draft" and [s["passed"] for s in state["seats"]] == [False] * players
    assert pv.Game.from_json(game.to_json()).to_dict()["seats"] == state["seats"]


def test_a_drafting_position_saved_with_last_rounds_passes_loads_as_nobody_passed():
    saved = json.loads(pv.Game(players=2, seed=3).to_json())
    for seat_state in saved["state"]["seats"]:
        seat_state["passed"] = True
    loaded = pv.Game.from_json(json.dumps(saved))
    assert [s["passed"] for s in loaded.to_dict()["seats"]] == [False, False]


def test_centre_star_takes_each_colour_once():
    game = placing_game("YYYYYY", ["C1Y"])
    assert not any(m.startswith("Y@C") for m in legal(game))
    game = placing_game("YYYYYY", ["C1G"])
    assert [m for m in legal(game) if m.startswith("Y@C")] == ["Y@C2", "Y@C3", "Y@C4", "Y@C5", "Y@C6"]


def test_wild_colour_on_the_centre_star_as_itself():
    game = placing_game("PPP")
    assert place(game, "P@C3") == 1
    assert seat(game)["board"][0] == "..P..."


@pytest.mark.parametrize("filled, placed, points", [
    ((), 1, 1), ((), 4, 1),
    ((4, 5), 6, 3), ((6, 1), 3, 1),
    ((1,), 2, 2), ((1,), 6, 2), ((1,), 3, 1), ((1,), 4, 1), ((1,), 5, 1),
    ((1, 3), 2, 3), ((1, 3), 4, 2), ((1, 3), 5, 1), ((1, 3), 6, 2),
    ((1, 4), 2, 2), ((1, 4), 3, 2), ((1, 4), 5, 2), ((1, 4), 6, 2),
    ((1, 5), 6, 3), ((1, 5), 2, 2), ((1, 5), 3, 1), ((1, 5), 4, 2),
    ((1, 2), 3, 3),
    ((1, 2, 3, 4, 5), 6, 6), ((2, 3, 4, 5, 6), 1, 6), ((1, 2, 4, 5, 6), 3, 6),
])
def test_ring_scoring(filled, placed, points):
    game = placing_game("GGGGGGG", [f"G{k}" for k in filled])
    assert place(game, f"G@G{placed}") == points


@pytest.mark.parametrize("filled, placed, points", [((4, 5), 6, 3), ((1, 5), 6, 3), ((2, 4, 6), 3, 3)])
def test_ring_scoring_on_the_centre_star(filled, placed, points):
    game = placing_game("PGOYBR" * 6, [f"C{k}" for k in filled])
    colour = pv.COLOURS[placed - 1]
    assert place(game, f"{colour}@C{placed}") == points


# ---------------------------------------------------------------------------
# Bonus structures (rules 5.4, 9.3, 12)
# ---------------------------------------------------------------------------

STRUCTURE_CASES = [(name, kind, spaces, last) for name, kind, spaces in pv.BOARD["structures"] for last in spaces]


def place_last(spaces, last, extra=()):
    """Seat 0 has ``spaces`` (but ``last``) and ``extra`` filled and places ``last``."""
    game = placing_game("PGOYBR" * 6, [s for s in spaces if s != last] + list(extra))
    colour = pv.COLOURS[int(last[1]) - 1] if last[0] == "C" else last[0]
    place(game, f"{colour}@{last}")
    return game


@pytest.mark.parametrize("name, kind, spaces, last", STRUCTURE_CASES,
                         ids=[f"{c[0]}-{c[3]}" for c in STRUCTURE_CASES])
def test_each_structure_pays_its_bonus_whichever_space_is_last(name, kind, spaces, last):
    game = place_last(spaces, last)
    assert game.pending == "bonus" and game.current_player == 0
    assert game.to_dict()["bonus_owed"] == pv.BOARD["structure_bonus"][kind]


@pytest.mark.parametrize("spaces, last, owed", [
    (("C1", "C2", "B2", "B3"), "B3", 0),  # Blue's pillar needs centre 2 and 3
    (("C1", "C2", "B2", "B3"), "C1", 0),
    (("O2", "O3", "C6", "C1"), "C1", 1),
    (("O2", "O3", "C6", "C5"), "C5", 0),
    (("O1", "R3", "R4", "O3", "C6", "C1", "O2"), "O2", 3),  # statue and pillar at once
    (("O2", "O3", "C6", "R2", "R3", "C2", "C1"), "C1", 2),  # two pillars at once
])
def test_structure_vectors(spaces, last, owed):
    game = place_last(spaces, last)
    assert game.to_dict()["bonus_owed"] == owed
    assert game.pending == ("bonus" if owed else "place")


def test_bonus_tiles_are_chosen_one_by_one_and_may_all_be_wild():
    game = place_last(("G5", "G6"), "G6")  # a window: 3 tiles
    supply = game.to_dict()["supply"]
    assert legal(game) == ["+" + c for c, n in zip(pv.COLOURS, supply) if n]
    hand = seat(game)["hand"]
    for _ in range(supply[0]):
        game.push("+P")
    if supply[0] < 3:
        game.push("+" + next(c for c, n in zip(pv.COLOURS[1:], supply[1:]) if n))
    state = game.to_dict()
    assert state["seats"][0]["hand"][0] == hand[0] + min(3, supply[0])
    assert game.pending == "place" and sum(state["supply"]) == 10  # refilled before the next turn


def full_board():
    return ["PGOYBR", "OOOOOO", "RRRRRR", "BBBBBB", "YYYYYY", "GGGGGG", "PPPPPP"]


def test_a_short_supply_gives_all_it_has_and_the_rest_is_lost():
    # S3, S12: bag and tower are empty (seat 1 holds every spare tile); the statue owes 2, the supply has 1
    game = position(supply="Y", spare=1, seats=[{"hand": "RRR", "board": boards("O1", "O2", "R4")}, {}])
    game.push("R@R3")
    state = game.to_dict()
    assert state["seats"][0]["hand"] == counts("Y") and state["bonus_owed"] == 0
    # the next turn (seat 1's) starts with the supply refilled from the tower: the 2 red paid
    assert game.current_player == 1 and state["supply"] == counts("RR") and state["tower"] == [0] * 6


def test_the_supply_refills_from_the_tower_when_the_bag_is_empty():
    game = position(supply="", tower="Y", spare=1, seats=[{"hand": "GG"}, {}])
    assert game.to_dict()["bag"] == [0] * 6
    game.push("G@G2")  # one green pays, one is placed
    state = game.to_dict()
    assert state["supply"] == counts("YG") and state["tower"] == [0] * 6 and state["bag"] == [0] * 6


def test_phase_3_fills_factories_in_order_then_the_supply():
    # S10: 6 tiles are left (3 in the bag, 3 in the tower); seat 0's forced pass ends round 1
    full = {"board": full_board(), "passed": True}
    game = position(players=4, seats=[{}, full, full, full], supply="", bag="PGO", tower="YBR")
    state = game.to_dict()
    assert game.round == 2 and game.pending == "draft"
    assert [sum(f) for f in state["factories"]] == [4, 2, 0, 0, 0, 0, 0, 0, 0]
    assert state["supply"] == [0] * 6 and state["bag"] == [0] * 6 and state["tower"] == [0] * 6


def test_phase_3_draws_the_factories_before_the_supply():
    game = position(seats=[{}, {"passed": True}], supply="")  # seat 0 passes by itself: round 1 ends
    state = game.to_dict()
    drawn, bag, tower, rng = drain_bag([22] * 6, [0] * 6, POSITION_RNG, 30)  # all 132 tiles in the bag
    assert game.round == 2 and state["factories"] == [counts("".join(pv.COLOURS[c] for c in drawn[i:i + 4]))
                                                      for i in range(0, 20, 4)]
    assert state["supply"] == counts("".join(pv.COLOURS[c] for c in drawn[20:]))
    assert state["bag"] == bag and int(state["rng"], 16) == rng


# ---------------------------------------------------------------------------
# End of the game (rules 7, S6)
# ---------------------------------------------------------------------------

ALL_ONES = ["C1", "O1", "R1", "B1", "Y1", "G1"]


def final_position(hand, score, board):
    return position(round=6, seats=[{"hand": hand, "score": score, "board": board}, {"passed": True}])


def test_final_scoring_stars_numbers_and_leftovers():
    board = boards(*ALL_ONES, *[f"P{k}" for k in range(1, 7)])
    game = final_position("YR", 30, board)
    game.push("pass")
    game.push("KY")
    game.push("KR")  # both kept on the corners; with an empty hand the pass ends by itself
    assert game.is_over() and game.scores()[0] == 30 + 20 + 4 - 2
    breakdown = game.final_breakdown()[0]
    assert breakdown == [
        {"label": "Rounds 1-6", "points": 30},
        {"label": "Star P complete", "points": 20},
        {"label": "All 1s covered", "points": 4},
        {"label": "Leftover tiles", "points": -2},
    ]
    assert game.winners() == (0,) and game.winner() == 0


def test_round_6_pass_then_bonuses_then_leftovers_each_floored():
    board = boards(*[f"P{k}" for k in range(1, 7)])
    game = final_position("YYYYRR", 2, board)
    game.push("pass")
    for _ in range(4):
        game.push("KY")
    # 2 - 2 discards -> 1 (floor); + 20 for the purple star -> 21; - 4 leftovers -> 17
    assert game.scores()[0] == 17
    parts = game.final_breakdown()[0]
    assert parts[0] == {"label": "Rounds 1-6", "points": 1} and sum(p["points"] for p in parts) == 17


def test_leftover_penalty_stops_at_1():
    game = final_position("YYYY", 3, boards())
    game.push("pass")
    for _ in range(4):
        game.push("KY")
    assert game.scores()[0] == 1
    assert game.final_breakdown()[0][-1] == {"label": "Score floor at 1", "points": 2}


def test_a_tie_is_a_shared_victory():
    game = position(round=6, seats=[{"score": 9}, {"score": 9}])  # both pass by themselves
    assert game.is_over() and game.winners() == (0, 1) and game.winner() is None


def test_number_bonuses_need_every_space_of_the_number():
    board = boards(*[f"{s}{k}" for s in pv.STARS for k in (2, 4)], "C1", "C3")
    game = final_position("", 10, board)
    assert game.is_over()
    labels = [p["label"] for p in game.final_breakdown()[0]]
    assert "All 2s covered" in labels and "All 4s covered" in labels
    assert "All 1s covered" not in labels and "All 3s covered" not in labels
    assert game.scores()[0] == 10 + 8 + 16


def test_every_star_bonus_value():
    board = full_board()
    game = final_position("", 5, board)
    parts = {p["label"]: p["points"] for p in game.final_breakdown()[0]}
    assert {k: v for k, v in parts.items() if k.startswith("Star")} == {
        "Star C complete": 12, "Star O complete": 17, "Star R complete": 14, "Star B complete": 15,
        "Star Y complete": 16, "Star G complete": 18, "Star P complete": 20}
    assert game.scores()[0] == 5 + 112 + 40


# ---------------------------------------------------------------------------
# Monochrome side (S7, S13)
# ---------------------------------------------------------------------------

def test_monochrome_costs_follow_the_printed_numbers():
    game = placing_game("Y", side="monochrome")
    assert legal(game) == [f"Y@{s}3" for s in pv.STARS[1:]] + ["pass"]  # ring position 3 costs 1
    game = placing_game("YYY", side="monochrome")
    assert [m for m in legal(game) if m.startswith("Y@C")] == [f"Y@C{k}" for k in range(1, 7)]
    assert "Y@B1" in legal(game) and "Y@B4" not in legal(game)


def test_monochrome_star_kind_is_fixed_by_its_first_two_tiles():
    hand = "GGGGGGYYYYYYOOOOOO"
    game = placing_game(hand, ["B3Y"], side="monochrome")
    assert {m[0] for m in legal(game) if m[2] == "B"} == {"G", "Y", "O"}
    game = placing_game(hand, ["B3Y", "B2Y"], side="monochrome")
    assert {m[0] for m in legal(game) if m[2] == "B"} == {"Y"}
    game = placing_game(hand, ["B3Y", "B2G"], side="monochrome")
    assert {m[0] for m in legal(game) if m[2] == "B"} == {"O"}


def test_monochrome_wild_colour_as_itself():
    game = placing_game("PPPPPPPPP", ["B3Y"], side="monochrome")
    assert place(game, "P@B2") == 2
    game = placing_game("PPPPPPPPP", ["B3Y", "B2Y"], side="monochrome")
    assert not any(m.startswith("P@B") for m in legal(game))


def test_monochrome_completed_stars_and_numbers():
    board = ["PGOYBR", "YYYYYY", "RGOYBP", "......", "......", "......", "......"]
    game = position(round=6, side="monochrome", seats=[{"board": board, "score": 5}, {"passed": True}])
    parts = {p["label"]: p["points"] for p in game.final_breakdown()[0]}
    assert parts == {"Rounds 1-6": 5, "Star C complete": 12, "Star O complete": 16, "Star R complete": 12,
                     "Leftover tiles": 0}
    # every printed 1 (ring position 3 of the six outer stars)
    board = ["......"] + ["..Y..."] * 6
    game = position(round=6, side="monochrome", seats=[{"board": board, "score": 5}, {"passed": True}])
    assert game.scores()[0] == 5 + 4
    # every printed 3: the 6 centre spaces and ring position 1 of the outer stars
    board = ["PGOYBR"] + ["B....."] * 6
    game = position(round=6, side="monochrome", seats=[{"board": board, "score": 5}, {"passed": True}])
    assert game.scores()[0] == 5 + 12 + 12


# ---------------------------------------------------------------------------
# The board table agrees with its own geometry (S9)
# ---------------------------------------------------------------------------

DIRECTION_ANGLE = {"N": 90, "NE": 30, "SE": -30, "S": -90, "SW": -150, "NW": 150}


def angle_gap(a, b):
    return abs((a - b + 180) % 360 - 180)


def facing(star, towards):
    """Ring positions of ``star`` whose rhombi point within 30 degrees of ``towards``."""
    directions = pv.BOARD["stars"][pv.STARS.index(star)][4]
    return {f"{star}{k + 1}" for k, d in enumerate(directions) if angle_gap(DIRECTION_ANGLE[d], towards) < 31}


def star_position(star):
    angle = pv.BOARD["stars"][pv.STARS.index(star)][3]
    return (0.0, 0.0) if angle is None else (math.cos(math.radians(angle)), math.sin(math.radians(angle)))


def bearing(a, b):
    (xa, ya), (xb, yb) = star_position(a), star_position(b)
    return math.degrees(math.atan2(yb - ya, xb - xa))


def test_every_star_is_numbered_clockwise():
    for letter, colour, bonus, angle, directions in pv.BOARD["stars"]:
        angles = [DIRECTION_ANGLE[d] for d in directions]
        assert all(angle_gap(a - 60, b) == 0 for a, b in zip(angles, angles[1:] + angles[:1])), letter


def test_structures_touch_exactly_the_spaces_that_face_them():
    outer = sorted(pv.STARS[1:], key=lambda s: -pv.BOARD["stars"][pv.STARS.index(s)][3] % 360)
    clockwise = {}
    for i, star in enumerate(pv.STARS[1:]):
        clockwise[star] = pv.STARS[1:][(i + 1) % 6]
    assert [clockwise[s] for s in "ORBYGP"] == list("RBYGPO")
    expected = {}
    for star in pv.STARS[1:]:
        angle = pv.BOARD["stars"][pv.STARS.index(star)][3]
        expected[frozenset(facing(star, bearing(star, "C")) | facing("C", angle))] = "pillar"
        after = clockwise[star]
        expected[frozenset(facing(star, bearing(star, after)) | facing(after, bearing(after, star)))] = "statue"
        expected[frozenset(facing(star, angle))] = "window"
    actual = {frozenset(spaces): kind for name, kind, spaces in pv.BOARD["structures"]}
    assert actual == expected and len(outer) == 6
