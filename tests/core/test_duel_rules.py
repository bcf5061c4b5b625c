"""Azul Duel rules as position tests: every worked example and test vector of
section 11 of the rules, and the mechanics of setup, the four actions, tiling,
penalties and the next round. Positions are written as saved-game JSON."""

from core_ext import duel, envelope

WILD_PLATES = [i for i, layout in enumerate(duel.PLATE_LAYOUTS) if "W" in layout]
SPECIAL_PLATES = [i for i, layout in enumerate(duel.PLATE_LAYOUTS) if "S" in layout]
DEFAULT_OBJECTIVES = ["horizontal", "vertical", "diagonals"]


# -- building positions -------------------------------------------------------


def blank(round=1, objectives=DEFAULT_OBJECTIVES):
    """Phase 1 of ``round`` with every factory empty, both players' plates and
    chips taken, the starting-player tile with player 1, player 0 to move."""
    state = duel.Game(seed=0, starting_player=0, objectives=objectives).to_dict()
    state.update(round=round, pending="action", current_player=0, starting_player=0, setup_stage=2,
                 start_tile_holder=1, display=[-1, -1, -1])
    state["large_factory"] = {"sun": [0] * 5, "moon": [0] * 5, "start_tile": False}
    state["small_factories"] = [{"sun": [0] * 5, "moon": "", "chip": "", "chip_revealed": False} for _ in range(4)]
    for player in state["players"]:
        player.update(plates_taken=2 if round < 5 else 0, chips_taken=2)
    return state


def spaces(state, p):
    """The 6x6 grid of space letters of player ``p`` (None where no plate lies)."""
    grid = [[None] * 6 for _ in range(6)]
    player = state["players"][p]
    for slot, plate in enumerate(player["plates"]):
        if plate >= 0:
            layout = duel.plate_spaces(plate, player["rotations"][slot])
            for q, letter in enumerate(layout):
                grid[(slot // 3) * 2 + q // 2][(slot % 3) * 2 + q % 2] = letter
    return grid


def lay(state, p, slot, plate, rotation=0):
    """Put ``plate`` on ``slot`` (1-9) of player ``p``."""
    state["players"][p]["plates"][slot - 1] = plate
    state["players"][p]["rotations"][slot - 1] = rotation


def put(state, p, cells, wild=None):
    """Fill the (row, column) cells, 1-based, with their own colour, S on special
    spaces, and ``wild`` on wild spaces (by default the colours in turn)."""
    grid = spaces(state, p)
    dome = [list(row) for row in state["players"][p]["dome"]]
    wilds = 0
    for r, c in cells:
        letter = grid[r - 1][c - 1]
        assert letter is not None, f"no plate under ({r},{c})"
        if letter == "W":
            letter = wild or duel.COLOURS[wilds % 5]
            wilds += 1
        dome[r - 1][c - 1] = letter
    state["players"][p]["dome"] = ["".join(row) for row in dome]


def all_cells():
    return [(r, c) for r in range(1, 7) for c in range(1, 7)]


def counts_outside_bag(state):
    """Coloured tiles per colour everywhere but the bag."""
    counts = dict.fromkeys(duel.COLOURS, 0)
    for c, letter in enumerate(duel.COLOURS):
        counts[letter] += state["tower"][c] + state["large_factory"]["sun"][c] + state["large_factory"]["moon"][c]
        for factory in state["small_factories"]:
            counts[letter] += factory["sun"][c]
    text = state["hand"] + "".join(f["moon"] for f in state["small_factories"])
    for player in state["players"]:
        text += "".join(player["lines"]) + player["broken"] + "".join(player["dome"])
    for letter in text:
        if letter in counts:
            counts[letter] += 1
    return counts


def load(state):
    """Account for every component (the rest of the tiles in the bag, chips in the
    supply, plates on the stack), then load the position as a saved game."""
    counts = counts_outside_bag(state)
    state["bag"] = [13 - counts[letter] for letter in duel.COLOURS]
    assert min(state["bag"]) >= 0, state["bag"]
    placed = set(state["display"]) | set(state["drawn"]) | {state["kept"]}
    for player in state["players"]:
        placed |= set(player["plates"])
    state["stack"] = [plate for plate in range(18) if plate not in placed]
    state["stack_seen"] = [False] * len(state["stack"])
    chips = [f["chip"] for f in state["small_factories"] if f["chip"]]
    for player in state["players"]:
        chips += player["chips"] + player["spent_chips"]
    state["chip_supply"] = [2 - chips.count(face) for face in duel.CHIP_TYPES]
    specials = sum(row.count("S") for player in state["players"] for row in player["dome"])
    state["special_supply"] = 9 - specials
    return duel.Game.from_json(envelope.dump("duel", 1, state))


def end_phase_one(state):
    """Leave player 1 one revealed chip to take, the last action of Phase 1; returns the game after it."""
    state["current_player"] = 1
    state["players"][1]["chips_taken"] = 1
    state["small_factories"][0].update(chip="B", chip_revealed=True)
    game = load(state)
    game.push("C1")
    return game


def fill_dome_leaving(state, p, leave, plates):
    """Lay ``plates`` on all 9 slots of player ``p`` and fill every cell, choosing the
    wild tiles so that exactly ``leave`` (colour letter -> count) stays in the bag."""
    for slot, plate in enumerate(plates, start=1):
        lay(state, p, slot, plate)
    put(state, p, all_cells(), wild=".")
    counts = counts_outside_bag(state)
    left = {letter: 13 - counts[letter] - leave.get(letter, 0) for letter in duel.COLOURS}
    assert min(left.values()) >= 0, left
    need = [letter for letter in duel.COLOURS for _ in range(left[letter])]
    grid = spaces(state, p)
    dome = [list(row) for row in state["players"][p]["dome"]]
    holes = [(r, c) for r in range(6) for c in range(6) if grid[r][c] == "W"]
    assert len(need) == len(holes), (need, holes)
    for (r, c), letter in zip(holes, need):
        dome[r][c] = letter
    state["players"][p]["dome"] = ["".join(row) for row in dome]


# -- section 11: tile placement ------------------------------------------------


def test_first_tile_on_an_empty_dome_scores_1():
    state = blank()
    lay(state, 0, 1, 0)  # Y K / T S
    state["players"][0]["lines"][0] = "Y"
    game = end_phase_one(state)
    assert game.to_dict()["players"][0]["dome"][0] == "Y....."
    assert game.scores()[0] == 5 + 1


def test_one_horizontal_neighbour_scores_2():
    state = blank()
    lay(state, 0, 1, 0)
    put(state, 0, [(1, 2)])
    state["players"][0]["lines"][0] = "Y"
    game = end_phase_one(state)
    assert game.to_dict()["players"][0]["dome"][0] == "YK...."
    assert game.scores()[0] == 5 + 2


def test_runs_of_3_and_2_score_5():
    state = blank()
    lay(state, 0, 4, 1)  # W B / T K: row 3 columns 1-2
    lay(state, 0, 5, 2)  # T R / B W: row 3 columns 3-4
    lay(state, 0, 2, 3)  # K Y / R W: rows 1-2 columns 3-4
    put(state, 0, [(3, 1), (3, 2), (2, 3)])
    state["players"][0]["lines"][2] = "TTT"
    game = end_phase_one(state)
    assert game.to_dict()["players"][0]["dome"][2] == "BBT..."
    assert game.scores()[0] == 5 + 5


def test_runs_of_5_and_6_score_11():
    state = blank()
    for slot, plate in enumerate(WILD_PLATES, start=1):
        lay(state, 0, slot, plate)
    put(state, 0, [(4, 2), (4, 3), (4, 5), (4, 6), (1, 4), (2, 4), (3, 4), (5, 4), (6, 4)])
    colour = spaces(state, 0)[3][3]
    colour = "R" if colour == "W" else colour
    state["players"][0]["lines"][3] = colour * 4
    game = end_phase_one(state)
    if game.pending == "tile":  # (4,1) also takes the colour
        assert game.current_player == 0
        game.push("T44")
    assert game.to_dict()["players"][0]["dome"][3][3] == colour
    assert game.scores()[0] == 5 + 11


def test_a_special_tile_neighbour_counts_as_filled():
    state = blank()
    lay(state, 0, 1, 0)  # Y K / T S
    state["players"][0]["dome"][1] = ".S...."
    state["players"][0]["lines"][1] = "TT"
    game = end_phase_one(state)
    assert game.to_dict()["players"][0]["dome"][1] == "TS...."
    assert game.scores()[0] == 5 + 2


# -- section 11: special tiles --------------------------------------------------


def test_special_tile_in_grid_row_4_scores_4_after_the_completing_tile():
    state = blank()
    lay(state, 0, 4, 0)  # rows 3-4: Y K / T S, special field at (4,2)
    put(state, 0, [(3, 1), (3, 2)])
    state["players"][0]["lines"][3] = "TTTT"
    game = end_phase_one(state)
    dome = game.to_dict()["players"][0]["dome"]
    assert dome[3][:2] == "TS"
    # the regular tile scores its vertical run of 2 without the special tile, then +4
    assert game.scores()[0] == 5 + 2 + 4
    assert game.to_dict()["special_supply"] == 8


def test_special_tile_in_grid_row_2_is_worth_2():
    state = blank()
    lay(state, 0, 1, 0)
    put(state, 0, [(1, 1), (1, 2)])
    state["players"][0]["lines"][1] = "TT"
    game = end_phase_one(state)
    assert game.to_dict()["players"][0]["dome"][1][:2] == "TS"
    assert game.scores()[0] == 5 + 2 + 2


# -- section 11: penalties ------------------------------------------------------


def test_two_broken_tiles_and_the_starting_player_tile_cost_5():
    state = blank()
    state["players"][0].update(score=10, broken="RB")
    state["start_tile_holder"] = 0
    game = end_phase_one(state)
    assert game.scores()[0] == 5
    assert game.to_dict()["players"][0]["broken"] == ""
    assert game.to_dict()["starting_player"] == 0  # the holder starts the next round


def test_six_excess_tiles_fill_4_spaces_and_the_score_floors_at_0():
    state = blank()
    state["large_factory"].update(moon=[0, 0, 4, 0, 0], start_tile=True)
    state["start_tile_holder"] = -1
    state["small_factories"][1]["moon"] = "BR"
    state["small_factories"][2]["moon"] = "R"
    game = load(state)
    game.push("MR")
    assert game.pending == "line"
    tower_before = game.to_dict()["tower"][2]
    game.push("LF")
    after = game.to_dict()
    assert after["players"][0]["broken"] == "RRRR"
    assert after["tower"][2] == tower_before + 2
    assert after["start_tile_holder"] == 0
    # player 1 still has the blue top tile to take; then the round ends
    game.push("MB")
    game.push("L1")
    assert game.round == 2
    assert game.scores()[0] == 0  # 5 - 10 - 2, floored
    assert game.to_dict()["starting_player"] == 0


def test_an_unplaceable_line_breaks_after_earlier_broken_tiles():
    state = blank()
    lay(state, 0, 1, 11)  # top row T K
    lay(state, 0, 2, 4)  # top row K S
    lay(state, 0, 3, 12)  # top row B K
    state["players"][0].update(lines=["R", "", "", "", "", ""], broken="BB", score=20)
    game = end_phase_one(state)
    assert game.scores()[0] == 20 - 6  # -1 -2 then -3 for the third space
    assert game.to_dict()["players"][0]["lines"][0] == ""


def test_a_line_whose_full_slot_row_has_no_fitting_space_breaks():
    state = blank()
    lay(state, 0, 1, 11)
    lay(state, 0, 2, 4)
    lay(state, 0, 3, 12)
    state["players"][0]["lines"][0] = "R"
    game = end_phase_one(state)
    after = game.to_dict()
    assert after["players"][0]["lines"][0] == ""
    assert game.scores()[0] == 5 - 1


def test_an_incomplete_line_is_cleared_when_its_full_slot_row_has_no_space_for_it():
    state = blank()
    lay(state, 0, 1, 11)
    lay(state, 0, 2, 4)
    lay(state, 0, 3, 12)
    state["players"][0]["lines"][1] = "Y"  # row 2: R W / T R / S T ... has no yellow, but a wild
    grid = spaces(state, 0)
    put(state, 0, [(2, c) for c in range(1, 7) if grid[1][c - 1] == "W"])
    game = end_phase_one(state)
    assert game.to_dict()["players"][0]["lines"][1] == ""
    assert game.scores()[0] == 5 - 1


def test_a_complete_line_without_space_stays_while_its_slot_row_has_room():
    state = blank()
    lay(state, 0, 1, 11)  # only one plate in slot row 1
    state["players"][0]["lines"][0] = "R"
    game = end_phase_one(state)
    assert game.to_dict()["players"][0]["lines"][0] == "R"
    assert game.scores()[0] == 5


# -- section 11: bonus chips ----------------------------------------------------


def test_four_red_chips_pay_for_two_missing_spaces():
    state = blank()
    lay(state, 0, 4, 2)  # rows 3-4: T R / B W
    state["players"][0].update(lines=["", "", "R", "", "", ""], chips=["R", "R", "BR", "RT"])
    game = end_phase_one(state)
    assert game.pending == "pay" and game.current_player == 0
    options = [str(m) for m in game.legal_moves()]
    assert options[0] == "$-"
    assert "$R+R+BR+RT" in options
    game.push("$R+R+BR+RT")
    after = game.to_dict()["players"][0]
    assert after["lines"][2] == "" and after["dome"][2] == ".R...."
    assert after["chips"] == [] and sorted(after["spent_chips"]) == ["BR", "R", "R", "RT"]


def test_two_matching_and_three_any_chips_complete_a_line():
    state = blank()
    lay(state, 0, 4, 11)  # rows 3-4: T K / R W
    state["players"][0].update(lines=["", "", "", "RR", "", ""], chips=["R", "RT", "K", "Y", "B"])
    game = end_phase_one(state)
    assert [str(m) for m in game.legal_moves()] == ["$-", "$B+R+Y+K+RT"]
    game.push("$B+R+Y+K+RT")
    assert game.pending == "tile"
    assert [str(m) for m in game.legal_moves()] == ["T41", "T42"]
    game.push("T41")
    after = game.to_dict()["players"][0]
    assert after["dome"][3] == "R....." and after["chips"] == [] and len(after["spent_chips"]) == 5
    assert after["lines"][3] == ""


def test_four_chips_with_one_red_cannot_pay_for_two_spaces():
    state = blank()
    lay(state, 0, 4, 11)
    state["players"][0].update(lines=["", "", "", "RR", "", ""], chips=["R", "K", "Y", "B"])
    game = end_phase_one(state)
    assert game.round == 2  # no payment decision: the line simply stays
    after = game.to_dict()["players"][0]
    assert after["lines"][3] == "RR" and sorted(after["chips"]) == ["B", "K", "R", "Y"]


def test_no_payment_leaves_the_line_and_the_chips():
    state = blank()
    lay(state, 0, 4, 2)
    state["players"][0].update(lines=["", "", "R", "", "", ""], chips=["R", "R", "BR", "RT"])
    game = end_phase_one(state)
    game.push("$-")
    after = game.to_dict()["players"][0]
    assert after["lines"][2] == "R" and len(after["chips"]) == 4


def test_payments_never_spend_an_unneeded_chip():
    state = blank()
    lay(state, 0, 1, 14)  # T B / W Y: row 2 takes yellow
    state["players"][0].update(lines=["", "Y", "", "", "", ""], chips=["Y", "Y", "K"])
    game = end_phase_one(state)
    assert [str(m) for m in game.legal_moves()] == ["$-", "$Y+Y"]  # not Y+Y+K, nor Y+K (needs 3 any)


# -- section 11: stack draws ----------------------------------------------------


def with_stack_turn(score, reveal="end"):
    state = blank()
    state.update(stack_reveal=reveal)
    state["players"][0].update(score=score, plates_taken=0)
    return load(state)


def test_a_stack_draw_costs_1_point():
    game = with_stack_turn(5)
    game.push("P+")
    assert game.scores()[0] == 4
    assert game.pending == "draw"


def test_stack_draws_at_0_points_are_free():
    game = with_stack_turn(0)
    for _ in range(4):
        game.push("P+")
    assert game.scores()[0] == 0
    assert len(game.to_dict()["drawn"]) == 4


def test_stack_draw_keep_one_and_return_the_rest_in_chosen_order():
    game = with_stack_turn(5)
    stack = game.to_dict()["stack"]
    game.push("P+")
    assert game.to_dict()["drawn_revealed"] is False  # only backs are seen before stopping
    game.push("P+")
    game.push("P+")
    game.push("P=")
    state = game.to_dict()
    assert state["drawn"] == stack[:3] and state["drawn_revealed"] is True
    assert [str(m) for m in game.legal_moves()] == [f"K{p}" for p in stack[:3]]
    game.push(f"K{stack[1]}")
    assert game.pending == "return"
    game.push(f"U{stack[2]}")
    state = game.to_dict()
    assert game.pending == "place" and state["kept"] == stack[1]
    assert state["stack"] == stack[3:] + [stack[2], stack[0]]
    assert state["stack_seen"][-2:] == [True, True]
    assert game.scores()[0] == 2
    game.push("@9r3")
    state = game.to_dict()
    assert state["players"][0]["plates"][8] == stack[1] and state["players"][0]["rotations"][8] == 3
    assert state["players"][0]["plates_taken"] == 1


def test_each_reveal_shows_every_drawn_plate_at_once():
    game = with_stack_turn(5, reveal="each")
    game.push("P+")
    assert game.to_dict()["drawn_revealed"] is True


def test_a_single_draw_is_kept_without_a_decision():
    game = with_stack_turn(5)
    top = game.to_dict()["stack"][0]
    game.push("P+")
    game.push("P=")
    assert game.pending == "place" and game.to_dict()["kept"] == top


# -- section 11: end-game objectives ----------------------------------------------


def final_round(objectives, plates, empty=()):
    """Round 5 ending with player 0's dome of ``plates`` full except ``empty`` cells."""
    state = blank(round=5, objectives=objectives)
    state["start_tile_holder"] = -1
    for slot, plate in enumerate(plates, start=1):
        lay(state, 0, slot, plate)
    put(state, 0, [cell for cell in all_cells() if cell not in empty])
    state["players"][0]["score"] = 10
    game = end_phase_one(state)
    assert game.is_over()
    return game, {part["label"]: part["points"] for part in game.final_breakdown()[0]}


def test_full_dome_rows_columns_diagonals_score_80():
    plates = WILD_PLATES
    game, parts = final_round(["horizontal", "vertical", "diagonals"], plates)
    assert parts == {"Rounds 1-5": 10, "Horizontal rows": 18, "Vertical rows": 42, "Diagonals": 20}
    assert game.scores()[0] == 90


def test_full_dome_corner_plates_22_and_outer_fields_20():
    plates = WILD_PLATES[:4] + SPECIAL_PLATES[:5]
    game, parts = final_round(["outer", "corners", "wild"], plates)
    assert parts["Outer fields"] == 20 and parts["Corner plates"] == 22
    assert parts["Wild fields"] == 8  # 4 wild plates, all wild spaces filled
    assert game.scores()[0] == 10 + 50


def test_one_empty_wild_space_scores_no_wild_bonus():
    plates = WILD_PLATES[:4] + SPECIAL_PLATES[:5]
    state = blank()
    for slot, plate in enumerate(plates, start=1):
        lay(state, 0, slot, plate)
    hole = next((r + 1, c + 1) for r, row in enumerate(spaces(state, 0)) for c, letter in enumerate(row) if letter == "W")
    _, parts = final_round(["horizontal", "outer", "wild"], plates, empty=[hole])
    assert parts["Wild fields"] == 0


def test_one_empty_special_field_costs_3_and_the_total_floors_at_0():
    plates = SPECIAL_PLATES
    state = blank()
    for slot, plate in enumerate(plates, start=1):
        lay(state, 0, slot, plate)
    hole = next((r + 1, c + 1) for r, row in enumerate(spaces(state, 0)) for c, letter in enumerate(row) if letter == "S")
    game, parts = final_round(["horizontal", "vertical", "special"], plates, empty=[hole])
    assert parts["Special fields"] == -3
    # player 1's dome is empty: no special fields, so no penalty
    assert game.final_breakdown()[1][-1] == {"label": "Special fields", "points": 0}


def find_plate(top_pair, used, bottom=False):
    """A (plate, rotation) whose top (or bottom) row takes the two letters, W for any space."""
    for plate in range(18):
        if plate in used:
            continue
        for rotation in range(4):
            layout = duel.plate_spaces(plate, rotation)
            row = layout[2:] if bottom else layout[:2]
            if all(want == got or (got == "W" and want != "S") for want, got in zip(top_pair, row)):
                return plate, rotation
    raise AssertionError(f"no plate for {top_pair}")


def test_colourful_rows_need_5_colours_and_specials_count_as_none():
    state = blank(round=5, objectives=["colourful", "outer", "special"])
    state["start_tile_holder"] = -1
    used = set()
    # row 2 = B T R S Y . ; row 5 = B T R K Y B
    for slot, pair, bottom in ((1, "BT", True), (2, "RS", True), (3, "Y?", True),
                               (7, "BT", False), (8, "RK", False), (9, "YB", False)):
        plate, rotation = find_plate(pair.replace("?", ""), used, bottom)
        used.add(plate)
        lay(state, 0, slot, plate, rotation)
    dome = [list("......") for _ in range(6)]
    dome[1] = list("BTRSY.")
    dome[4] = list("BTRKYB")
    state["players"][0]["dome"] = ["".join(row) for row in dome]
    game = end_phase_one(state)
    parts = {part["label"]: part["points"] for part in game.final_breakdown()[0]}
    assert parts["Colourful rows"] == 4


# -- section 11: tie-break ------------------------------------------------------


def tied_final(holder):
    state = blank(round=5)
    state["players"][0]["score"] = 32 if holder == 0 else 30
    state["players"][1]["score"] = 32 if holder == 1 else 30
    state["start_tile_holder"] = holder
    return end_phase_one(state)


def test_tie_goes_to_the_starting_player_tile_holder():
    game = tied_final(1)
    assert game.scores() == (30, 30)
    assert game.winners() == (1,) and game.winner() == 1
    game = tied_final(0)
    assert game.winner() == 0


def test_tie_without_a_tile_holder_is_shared():
    game = tied_final(-1)
    assert game.scores() == (30, 30)
    assert game.winners() == (0, 1) and game.winner() is None


# -- setup and Phase 1 -----------------------------------------------------------


def test_setup_non_starting_player_picks_first_and_display_refills():
    game = duel.Game(seed=3, starting_player=0)
    state = game.to_dict()
    assert game.pending == "setup" and game.current_player == 1 and game.round == 1
    assert [str(m) for m in game.legal_moves()] == ["P1", "P2", "P3"]
    assert sum(state["bag"]) == 65 - 5 - 16
    assert sum(state["large_factory"]["sun"]) == 5 and all(sum(f["sun"]) == 4 for f in state["small_factories"])
    assert all(f["chip"] and not f["chip_revealed"] for f in state["small_factories"])
    first_display = state["display"]
    game.push("P2")
    assert game.pending == "place" and len(game.legal_moves()) == 36
    game.push("@5r1")
    state = game.to_dict()
    assert state["display"][0::2] == first_display[0::2] and state["display"][1] not in first_display
    assert state["players"][1]["plates"][4] == first_display[1]
    assert game.pending == "setup" and game.current_player == 0
    game.push("P1")
    game.push("@1r0")
    state = game.to_dict()
    assert game.pending == "action" and game.current_player == 0
    assert all(p["plates_taken"] == 0 and p["score"] == 5 for p in state["players"])
    assert -1 not in state["display"]


def test_small_sun_take_lets_the_taker_order_the_leftovers():
    state = blank()
    state["small_factories"][0].update(sun=[1, 1, 2, 0, 0], chip="K")
    game = load(state)
    game.push("S1R")
    assert game.pending == "order"
    assert [str(m) for m in game.legal_moves()] == ["OBT", "OTB"]
    game.push("OTB")
    assert game.to_dict()["small_factories"][0]["moon"] == "TB"
    assert game.pending == "line" and game.to_dict()["hand"] == "RR"
    assert [str(m) for m in game.legal_moves()] == ["L1", "L2", "L3", "L4", "L5", "L6", "LF"]
    game.push("L2")
    assert game.to_dict()["players"][0]["lines"][1] == "RR"


def test_single_colour_leftovers_stack_without_a_decision():
    state = blank()
    state["small_factories"][0].update(sun=[2, 0, 2, 0, 0], chip="K")
    game = load(state)
    game.push("S1B")
    assert game.pending == "line" and game.to_dict()["small_factories"][0]["moon"] == "RR"


def test_a_single_colour_small_sun_empties_the_factory_and_reveals_its_chip():
    state = blank()
    state["small_factories"][0].update(sun=[0, 0, 0, 4, 0], chip="K")
    game = load(state)
    game.push("S1Y")
    factory = game.to_dict()["small_factories"][0]
    assert factory["chip_revealed"] is True and factory["moon"] == ""


def test_moon_take_top_tiles_of_small_stacks_and_all_of_the_large_moon():
    state = blank()
    state["start_tile_holder"] = -1
    state["large_factory"].update(moon=[1, 0, 2, 0, 0], start_tile=True)
    state["small_factories"][0].update(moon="BR", chip="K")
    state["small_factories"][1].update(moon="RR", chip="Y")
    state["small_factories"][2].update(moon="RB", chip="T")
    game = load(state)
    assert [str(m) for m in game.legal_moves()] == ["MB", "MR"]
    game.push("MR")
    after = game.to_dict()
    assert after["hand"] == "RRRR"
    assert [f["moon"] for f in after["small_factories"][:3]] == ["B", "R", "RB"]
    assert after["large_factory"]["moon"] == [1, 0, 0, 0, 0]
    assert after["start_tile_holder"] == 0 and after["large_factory"]["start_tile"] is False


def test_small_moons_alone_do_not_give_the_starting_player_tile():
    state = blank()
    state["start_tile_holder"] = -1
    state["large_factory"].update(moon=[1, 0, 0, 0, 0], start_tile=True)
    state["small_factories"][0].update(moon="R", chip="K")
    game = load(state)
    game.push("MR")
    after = game.to_dict()
    assert after["start_tile_holder"] == -1 and after["large_factory"]["start_tile"] is True
    assert after["small_factories"][0]["chip_revealed"] is True


def test_a_monochrome_large_sun_take_gives_the_starting_player_tile():
    state = blank()
    state["start_tile_holder"] = -1
    state["large_factory"].update(sun=[0, 0, 5, 0, 0], start_tile=True)
    game = load(state)
    game.push("S0R")
    assert game.to_dict()["start_tile_holder"] == 0


def test_large_sun_leftovers_go_to_the_moon_and_the_tile_stays():
    state = blank()
    state["start_tile_holder"] = -1
    state["large_factory"].update(sun=[1, 1, 3, 0, 0], start_tile=True)
    game = load(state)
    game.push("S0R")
    after = game.to_dict()
    assert after["large_factory"]["moon"] == [1, 1, 0, 0, 0] and after["large_factory"]["start_tile"] is True
    assert after["hand"] == "RRR"


def test_tiles_fill_the_line_and_the_rest_break():
    state = blank()
    state["large_factory"].update(sun=[0, 0, 5, 0, 0])
    state["small_factories"][3]["sun"] = [0, 0, 0, 0, 4]  # keeps the round going
    state["players"][0]["lines"][2] = "R"
    game = load(state)
    game.push("S0R")
    assert [str(m) for m in game.legal_moves()] == ["L1", "L2", "L3", "L4", "L5", "L6", "LF"]
    game.push("L3")
    player = game.to_dict()["players"][0]
    assert player["lines"][2] == "RRR" and player["broken"] == "RRR"


def test_only_the_broken_tiles_area_left_is_resolved_without_a_decision():
    state = blank()
    state["large_factory"].update(sun=[0, 0, 2, 0, 0])
    state["small_factories"][3]["sun"] = [0, 0, 0, 0, 4]
    state["players"][0]["lines"] = ["B", "BB", "BBB", "BBBB", "TTTTT", "KKKKKK"]
    game = load(state)
    game.push("S0R")
    assert game.to_dict()["players"][0]["broken"] == "RR"


def test_forced_pass_lets_the_other_player_act_again_and_chips_stop_at_2():
    state = blank()
    state["players"][0]["chips_taken"] = 0
    state["players"][1]["chips_taken"] = 2
    state["small_factories"][0].update(chip="B", chip_revealed=True)
    state["small_factories"][2].update(chip="R", chip_revealed=True)
    game = load(state)
    game.push("C1")
    assert game.current_player == 0 and game.round == 1  # player 1 cannot act: player 0 goes again
    game.push("C3")
    assert game.round == 2


def test_a_chip_nobody_may_take_returns_to_the_supply_at_the_refill():
    state = blank()
    state["small_factories"][1].update(chip="BR", chip_revealed=True)
    game = end_phase_one(state)  # both players already hold 2 chips this round
    chips = [f["chip"] for f in game.to_dict()["small_factories"]]
    assert all(chips) and game.round == 2
    supply = game.to_dict()["chip_supply"]
    assert sum(supply) == 20 - 4 - 1  # 4 on the factories, player 1's B


def test_a_third_chip_in_a_round_is_not_allowed():
    state = blank()
    state["large_factory"]["sun"] = [0, 0, 0, 0, 2]
    state["small_factories"][0].update(chip="B", chip_revealed=True)
    game = load(state)
    assert [str(m) for m in game.legal_moves()] == ["S0K"]


def test_no_plates_are_taken_in_round_5():
    state = blank(round=5)
    state["players"][0]["chips_taken"] = 0
    state["small_factories"][0].update(chip="B", chip_revealed=True)
    state["display"] = [3, 4, 5]
    game = load(state)
    assert [str(m) for m in game.legal_moves()] == ["C1"]


# -- Phase 3 -----------------------------------------------------------------------


def test_next_round_returns_tokens_refills_display_factories_and_chips():
    state = blank()
    state["display"] = [-1, 7, -1]
    game = end_phase_one(state)
    after = game.to_dict()
    assert game.round == 2 and after["starting_player"] == 1 and game.current_player == 1
    assert all(p["plates_taken"] == 0 and p["chips_taken"] == 0 for p in after["players"])
    assert after["display"][1] == 7 and -1 not in after["display"]
    assert sum(after["large_factory"]["sun"]) == 5 and after["large_factory"]["start_tile"] is True
    assert len([n for n in after["large_factory"]["sun"] if n]) >= 2
    assert all(sum(f["sun"]) == 4 and f["chip"] and not f["chip_revealed"] for f in after["small_factories"])
    assert after["start_tile_holder"] == -1


def shortage_state(leave):
    """Player 0's lines and player 1's full dome hold all tiles but ``leave``."""
    state = blank()
    state["players"][0]["lines"] = ["R", "YY", "YYY", "RRRR", "TTTTT", "BBBBBB"]
    fill_dome_leaving(state, 1, leave, WILD_PLATES)
    return state


def test_tile_shortage_fills_the_large_factory_first_and_reveals_empty_factories_chips():
    game = end_phase_one(shortage_state({"K": 5, "Y": 3}))
    after = game.to_dict()
    assert sum(after["large_factory"]["sun"]) == 5
    assert [sum(f["sun"]) for f in after["small_factories"]] == [3, 0, 0, 0]
    assert [f["chip_revealed"] for f in after["small_factories"]] == [False, True, True, True]


def test_a_monochrome_large_factory_is_redrawn_while_another_colour_exists():
    for seed in range(6):
        state = shortage_state({"K": 5, "Y": 3})
        state["rng"] = envelope.hex64(seed)
        state["tower"] = [0, 0, 0, 3, 0]  # the yellows wait in the tower, the bag holds 5 black
        game = end_phase_one(state)
        assert len([n for n in game.to_dict()["large_factory"]["sun"] if n]) == 2


def test_a_monochrome_large_factory_stands_when_no_other_colour_exists():
    game = end_phase_one(shortage_state({"K": 8}))
    after = game.to_dict()
    assert after["large_factory"]["sun"] == [0, 0, 0, 0, 5]
    taker = game.current_player
    game.push("S0K")
    assert game.to_dict()["start_tile_holder"] == taker


def test_with_no_tiles_left_the_starting_player_tile_leaves_the_game():
    state = blank()
    state["players"][0]["lines"] = ["", "YY", "YYY", "RRRR", "TTTTT", "BBBBBB"]
    for slot, plate in zip((1, 2, 4), SPECIAL_PLATES):  # full plates; no slot row complete
        lay(state, 0, slot, plate)
    put(state, 0, [cell for cell in all_cells() if spaces(state, 0)[cell[0] - 1][cell[1] - 1]])
    fill_dome_leaving(state, 1, {}, WILD_PLATES)
    game = end_phase_one(state)
    after = game.to_dict()
    assert after["large_factory"]["start_tile"] is False and after["start_tile_holder"] == -1
    assert after["starting_player"] == 1
    assert all(f["chip_revealed"] for f in after["small_factories"])


# -- the whole game ------------------------------------------------------------------


def test_a_random_game_runs_five_rounds_and_fills_every_dome():
    game = duel.Game(seed=11)
    game.random_playout(5)
    state = game.to_dict()
    assert game.is_over() and game.round == 5 and game.legal_moves() == []
    assert all(-1 not in p["plates"] for p in state["players"])
    assert state["stack"] == [] and state["display"] == [-1, -1, -1]
