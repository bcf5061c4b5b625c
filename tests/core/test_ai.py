"""The search: legal answers, reproducibility, no peeking at hidden state, budgets and cancelling."""
import importlib.util
import random
import threading
import time

import pytest

from core_ext import ai, duel, envelope
from core_ext.ai.baselines import greedy_move, random_move
from core_ext.ai.match import new_game, play_game

ENGINES = ["duel"] + (["pavilion"] if importlib.util.find_spec("core_ext.pavilion") else [])


def positions(game_name, seed, every=7, seats=2):
    """Positions along one random game with a real choice pending, about one in ``every``."""
    rng = random.Random(seed)
    game = new_game(game_name, seats, seed)
    found = []
    while not game.is_over():
        codes = game.legal_codes()
        if len(codes) > 1 and rng.randrange(every) == 0:
            found.append(game.copy())
        game.push_code(rng.choice(codes))
    return found


@pytest.mark.parametrize("game_name", ENGINES)
def test_choices_and_hints_are_legal_and_leave_the_game_unchanged(game_name):
    for index, game in enumerate(positions(game_name, seed=3)):
        before = game.to_json()
        move = ai.choose(game, iterations=60, seed=index)
        assert move in game.legal_moves()
        assert ai.hint(game, seat=game.current_player, iterations=60, seed=index) is move
        assert game.to_json() == before


@pytest.mark.parametrize("game_name", ENGINES)
def test_a_seed_and_an_iteration_count_make_the_search_reproducible(game_name):
    game = positions(game_name, seed=5)[2]
    first, second = ai.Search(game, seed=9), ai.Search(game, seed=9)
    assert first.run(400) == second.run(400) == 400
    assert first.statistics() == second.statistics()
    assert sum(visits for visits, _ in first.statistics().values()) == 400
    assert ai.choose(game, iterations=400, seed=9) is ai.choose(game, iterations=400, seed=9)
    other = ai.Search(game, seed=10)
    other.run(400)
    assert other.statistics() != first.statistics()


def _with_hidden_chips_swapped(game):
    """The same Duel position with two face-down bonus chips exchanged and another RNG state."""
    state = game.to_dict()
    hidden = [f for f in state["small_factories"] if f["chip"] and not f["chip_revealed"]]
    pair = next(((a, b) for a in hidden for b in hidden if a["chip"] != b["chip"]), None)
    if pair is None:
        return None
    pair[0]["chip"], pair[1]["chip"] = pair[1]["chip"], pair[0]["chip"]
    state["rng"] = "%016x" % (int(state["rng"], 16) ^ 0x5DEECE66D)
    return duel.Game.from_json(envelope.dump("duel", duel.FORMAT_VERSION, state))


def test_duel_choices_do_not_depend_on_face_down_chips_or_the_rng():
    compared = 0
    for game in positions("duel", seed=11, every=3):
        twin = _with_hidden_chips_swapped(game)
        if twin is None:
            continue
        assert twin.to_json() != game.to_json()
        first, second = ai.Search(game, seed=4), ai.Search(twin, seed=4)
        first.run(150)
        second.run(150)
        assert first.statistics() == second.statistics()
        compared += 1
    assert compared >= 5


@pytest.mark.parametrize("game_name", ENGINES)
def test_choices_do_not_depend_on_anything_the_seat_cannot_see(game_name):
    """Two states that differ only in hidden parts (a redetermined copy) get identical searches."""
    rng = random.Random(1)
    for game in positions(game_name, seed=12, every=4):
        twin = game.redetermine(rng.getrandbits(64), game.current_player)
        first, second = ai.Search(game, seed=4), ai.Search(twin, seed=4)
        first.run(150)
        second.run(150)
        assert first.statistics() == second.statistics()


def test_the_search_beats_random_play():
    for seed in range(4):
        game = new_game("duel", 2, seed)
        searcher = lambda g, rng: ai.choose(g, iterations=300, guided=False, seed=rng.getrandbits(64))
        players = [searcher, random_move] if seed % 2 == 0 else [random_move, searcher]
        play_game(game, players, random.Random(seed))
        assert game.winners() == (seed % 2,), game.scores()


@pytest.mark.parametrize("game_name", ENGINES)
def test_a_table_of_computer_seats_and_one_simulated_human_finishes(game_name):
    seats = 4 if game_name == "pavilion" else 2
    game = new_game(game_name, seats, 21)
    human = seats - 1
    rng = random.Random(21)
    while not game.is_over():
        if game.current_player == human:
            game.push(rng.choice(game.legal_moves()))
        else:
            game.push(ai.choose(game, iterations=30, seed=rng.getrandbits(64)))
    assert len(game.scores()) == seats and game.winners()


@pytest.mark.parametrize("level", ["easy", "normal"])
@pytest.mark.serial
def test_levels_keep_to_their_thinking_time(level):
    game = positions("duel", seed=2)[1]
    started = time.perf_counter()
    move = ai.choose(game, level=level, seed=1)
    elapsed = time.perf_counter() - started
    assert move in game.legal_moves()
    assert elapsed <= ai.LEVELS[level].seconds + 0.25


@pytest.mark.serial
def test_a_think_time_is_kept_and_a_level_table_is_published():
    assert list(ai.LEVELS) == ["easy", "normal", "hard", "expert"]
    easy, normal, hard, expert = ai.LEVELS.values()
    assert easy.iterations < normal.iterations < hard.iterations < expert.iterations
    assert easy.seconds <= normal.seconds <= min(hard.seconds, expert.seconds)
    game = positions("duel", seed=2)[1]
    started = time.perf_counter()
    ai.choose(game, think_time=0.25, seed=1)
    assert time.perf_counter() - started <= 0.25 + 0.25


@pytest.mark.serial
def test_a_cancelled_search_stops_at_once_with_a_legal_option():
    game = positions("duel", seed=2)[1]
    cancel = threading.Event()
    cancel.set()
    started = time.perf_counter()
    move = ai.choose(game, level="hard", seed=1, cancel=cancel)
    assert time.perf_counter() - started < 0.2
    assert move in game.legal_moves()


@pytest.mark.serial
def test_cancelling_from_another_thread_ends_a_long_search():
    game = positions("duel", seed=2)[1]
    cancel = threading.Event()
    threading.Timer(0.1, cancel.set).start()
    started = time.perf_counter()
    ai.choose(game, think_time=30, seed=1, cancel=cancel)
    assert time.perf_counter() - started < 1.0


def test_a_single_option_is_answered_without_searching():
    game = duel.Game(seed=1)
    while len(game.legal_codes()) != 1:
        game.push_code(game.legal_codes()[0])
    assert ai.choose(game, level="hard") is game.legal_moves()[0]


def test_the_search_stops_early_once_the_choice_is_settled():
    game = positions("duel", seed=2)[1]
    search = ai.Search(game, seed=3)
    done = search.run(50_000)
    assert done < 50_000
    visits = sorted((v for v, _ in search.statistics().values()), reverse=True)
    assert visits[0] - visits[1] > 50_000 - done


@pytest.mark.parametrize("options, message", [
    ({"level": "master"}, "easy, normal, hard, expert"),
    ({"level": "easy", "think_time": 1}, "not both"),
    ({"think_time": 0}, "positive number"),
    ({"think_time": float("nan")}, "positive number"),
    ({"think_time": "1"}, "positive number"),
    ({"iterations": 0}, "positive int"),
    ({"iterations": 2.5}, "positive int"),
    ({"iterations": 10, "trees": 0}, "trees must be a positive int"),
])
def test_bad_budgets_are_refused(options, message):
    with pytest.raises(ValueError, match=message):
        ai.choose(duel.Game(seed=1), **options)


def test_a_finished_game_has_nothing_to_choose():
    game = duel.Game(seed=1)
    game.random_playout(1)
    with pytest.raises(ValueError, match="game is over"):
        ai.choose(game, iterations=10)
    with pytest.raises(ValueError, match="game is over"):
        ai.Search(game)


def test_a_hint_is_only_for_the_seat_that_is_deciding():
    game = duel.Game(seed=1)
    other = 1 - game.current_player
    with pytest.raises(ValueError, match=f"seat {other} has no pending decision"):
        ai.hint(game, seat=other, iterations=10)


def test_greedy_play_takes_the_best_immediate_score():
    for game in positions("duel", seed=8, every=2):
        seat = game.current_player
        gains = {}
        for move in game.legal_moves():
            after = game.copy()
            after.push(move)
            gains[move] = after.scores()[seat] - game.scores()[seat]
        assert gains[greedy_move(game, random.Random(0))] == max(gains.values())
