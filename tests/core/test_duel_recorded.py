"""Recorded Azul Duel games (seed, options, every decision in notation) replayed
to their recorded outcome: a rules change that alters a result shows up here."""
import json
from pathlib import Path

import pytest

from core_ext import duel

RECORDS = [json.loads(line) for line in (Path(__file__).parent / "data" / "duel_games.jsonl").read_text().splitlines()]


@pytest.mark.parametrize("record", RECORDS, ids=[f"seed{r['seed']}" for r in RECORDS])
def test_recorded_game_replays_to_its_outcome(record):
    game = duel.Game(seed=record["seed"], **record["options"])
    for text in record["moves"].split():
        game.push(text)
    assert game.is_over()
    assert list(game.scores()) == record["scores"]
    assert list(game.winners()) == record["winners"]
    breakdown = [[[part["label"], part["points"]] for part in parts] for parts in game.final_breakdown()]
    assert breakdown == record["breakdown"]
