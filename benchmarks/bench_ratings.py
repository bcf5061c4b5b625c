"""Ratings: working out every rating again from a journal of 1,000 finished games, and merging two profiles of
one person in a journal of 1,000 profiles and 1,000 games."""
import json
import random
import tempfile
import time

from firmware_py.journal import Journal

GAMES = 1000
PEOPLE = 12
PROFILES = 1000


def run():
    with tempfile.TemporaryDirectory() as directory:
        journal = Journal(directory)
        people = [journal.players.create(f"Player {n}").id for n in range(PEOPLE)]
        rng = random.Random(1)
        with journal.writing("write the games") as db:
            for number in range(GAMES):
                game = rng.choice(("duel", "pavilion"))
                seated = rng.sample(people, 2 if game == "duel" else rng.randint(2, 4))
                scores = [rng.randint(0, 60) for _ in seated]
                when = f"2026-{1 + number // 100:02d}-01T{number % 100:02d}:00:00+00:00"
                game_id = db.execute(
                    "INSERT INTO games(game, seats, flags, start_state, status, origin, started_at, finished_at,"
                    " scores, winners) VALUES (?, ?, '{}', '{}', 'finished', 'table', ?, ?, ?, ?)",
                    (game, json.dumps([{"kind": "rig", "name": ""}] * len(seated)), when, when, json.dumps(scores),
                     json.dumps([scores.index(max(scores))]))).lastrowid
                db.executemany("INSERT INTO seat_players VALUES (?, ?, ?)",
                               [(game_id, seat, player) for seat, player in enumerate(seated)])
        times = []
        for _ in range(3):
            start = time.perf_counter()
            with journal.writing("work the ratings out again") as db:
                journal.ratings.recompute_in(db)
            times.append(time.perf_counter() - start)
        journal.close()
    yield "ratings.recompute_1000_games_ms", min(times) * 1000, "ms"
    yield from run_merge()


def merge_figures():
    """A merge with PROFILES profiles and GAMES games, the merged profile in half of them (never beside the kept
    one): (games moved, seconds)."""
    with tempfile.TemporaryDirectory() as directory:
        journal = Journal(directory)
        people = [journal.players.create(f"Person {n}").id for n in range(PROFILES)]
        kept, merged, others = people[0], people[1], people[2:]
        rng = random.Random(2)
        with journal.writing("write the games") as db:
            for number in range(GAMES):
                seated = ([merged] if number % 2 else []) + rng.sample(others, rng.randint(1, 3))
                scores = [rng.randint(0, 60) for _ in seated]
                when = f"2026-{1 + number // 100:02d}-01T{number % 100:02d}:00:00+00:00"
                game_id = db.execute(
                    "INSERT INTO games(game, seats, flags, start_state, status, origin, started_at, finished_at,"
                    " scores, winners) VALUES ('pavilion', ?, '{}', '{}', 'finished', 'table', ?, ?, ?, ?)",
                    (json.dumps([{"kind": "rig", "name": ""}] * len(seated)), when, when, json.dumps(scores),
                     json.dumps([scores.index(max(scores))]))).lastrowid
                db.executemany("INSERT INTO seat_players VALUES (?, ?, ?)",
                               [(game_id, seat, player) for seat, player in enumerate(seated)])
            journal.ratings.recompute_in(db)
        moved = len([g for g in journal.games() if merged in g.profiles])
        start = time.perf_counter()
        journal.players.merge(kept, merged)
        taken = time.perf_counter() - start
        journal.close()
    return moved, taken


def run_merge():
    moved, taken = merge_figures()
    yield "players.merge_games_moved", moved, "games"
    yield "players.merge_1000_profiles_1000_games_ms", taken * 1000, "ms"
