"""The story of a game (scores after each round, points by source, tiles laid per round) agrees with the game
itself over random games of both games at every seat count."""
import random

from hypothesis import given, settings, strategies as st

from core_ext import duel, pavilion
from firmware_py import games
from firmware_py.story import LAID, SOURCES, START, story

SEATINGS = [("duel", 2), ("pavilion", 2), ("pavilion", 3), ("pavilion", 4)]


def random_game(name, players, seed, stop=None):
    """A game played with random legal moves (to its end, or ``stop`` moves): (positions, moves)."""
    chooser = random.Random(seed)
    game = games.spec(name).new(players, seed, {})
    positions, moves = [game], []
    while not game.is_over() and (stop is None or len(moves) < stop):
        move = str(chooser.choice(game.legal_moves()))
        game = game.copy()
        game.push(move)
        positions.append(game)
        moves.append(move)
    return positions, moves


def test_every_event_that_scores_has_a_source():
    for name, module in (("duel", duel), ("pavilion", pavilion)):
        assert set(SOURCES[name]) == module.SCORING_EVENTS, name


@settings(max_examples=500, deadline=None)
@given(seating=st.sampled_from(SEATINGS), seed=st.integers(0, 2 ** 32 - 1))
def test_the_sources_add_up_to_the_final_scores_and_each_round_ends_where_the_game_stood(seating, seed):
    name, players = seating
    positions, moves = random_game(name, players, seed)
    told = story(name, positions, moves)
    final = tuple(positions[-1].scores())
    assert told.final and told.rounds[-1] == final
    assert tuple(sum(sources.values()) for sources in told.sources) == final
    assert all(sources.get(START, 0) == start for sources, start in zip(told.sources, told.start))
    ended = [index + 1 for index in range(len(moves))
             if any(event["event"] == "round_ended" for event in positions[index].copy().push(moves[index]))]
    assert len(told.rounds) == len(ended) + 1 == len(told.laid) + 1
    for entry, index in zip(told.rounds[:-2], ended[:-1]):  # the last round's end is followed by the final scoring
        assert entry == tuple(positions[index].scores())
    laid = [0] * players
    for before, move in zip(positions, moves):
        for event in before.copy().push(move):
            if event["event"] in LAID[name]:
                laid[event["player"]] += 1
    assert [sum(row[seat] for row in told.laid) for seat in range(players)] == laid
    assert len(told.scored) == len(told.rounds)
    totals = [told.start] + list(told.rounds)
    for before, after, events in zip(totals, totals[1:], told.scored):
        assert all(event["points"] for event in events)
        assert [after[seat] - before[seat] for seat in range(players)] == \
            [sum(event["points"] for event in events if event["player"] == seat) for seat in range(players)]


@settings(max_examples=40, deadline=None)
@given(seating=st.sampled_from(SEATINGS), seed=st.integers(0, 2 ** 32 - 1), stop=st.integers(1, 60))
def test_an_unfinished_game_ends_its_story_with_the_round_in_progress(seating, seed, stop):
    name, players = seating
    positions, moves = random_game(name, players, seed, stop)
    told = story(name, positions, moves)
    assert not told.final
    assert told.rounds[-1] == tuple(positions[-1].scores())
    assert len(told.rounds) == len(told.laid) == positions[-1].round - (
        1 if any(event["event"] == "round_ended" for event in positions[-2].copy().push(moves[-1])) else 0)


def test_a_game_with_no_moves_has_no_rounds():
    positions, moves = random_game("pavilion", 3, 1, stop=0)
    told = story("pavilion", positions, moves)
    assert told.rounds == () and told.laid == () and told.scored == () and told.start == (5, 5, 5)
    assert told.sources == ({START: 5},) * 3
