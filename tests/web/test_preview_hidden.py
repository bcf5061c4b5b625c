"""What a phone is sent about each option and the last decision shows nothing hidden.

The check: a redetermined copy of a position (the same public view, the
hidden parts drawn again: the stack's order, unrevealed drawn plates,
face-down chips, the bag) must give every phone the very same JSON, for the
public state, every option's preview, and the last decision's events.
"""
import json
import random

import pytest

from firmware_py import games
from web_remote import payload

POSITIONS_PER_GAME = 30  # random games per setting; every decision of each is checked
REDETERMINATIONS = 3

SETTINGS = [("duel", 2, {"stack_reveal": "end"}), ("duel", 2, {"stack_reveal": "each"}),
            ("pavilion", 2, {}), ("pavilion", 3, {}), ("pavilion", 4, {})]


def sent(game, events_of_last) -> str:
    """The JSON a phone gets of ``game``'s position: public state, previews, the last decision's events."""
    name = type(game).__module__.rsplit(".", 1)[-1]
    state = game.to_dict()
    previews = [[str(move), payload.preview_events(game.copy().push(move), name, state)] for move in game.legal_moves()]
    return json.dumps({"state": games.spec(name).public(state), "previews": previews,
                       "last": payload.last_events(events_of_last, name, state)}, sort_keys=True)


def positions(name, players, flags, seed):
    """Every position of one random game: (before the last decision, the last decision, the game now)."""
    chooser = random.Random(seed)
    game = games.spec(name).new(players, seed, flags)
    before, last = None, None
    while not game.is_over():
        yield before, last, game
        before, last = game.copy(), chooser.choice(game.legal_moves())
        game.push(last)


@pytest.mark.parametrize("name,players,flags", SETTINGS, ids=lambda value: str(value))
def test_a_redetermined_position_sends_every_phone_the_same(name, players, flags):
    checked = 0
    for seed in range(POSITIONS_PER_GAME):
        for before, last, game in positions(name, players, flags, seed):
            events_of_last = () if before is None else tuple(before.copy().push(last))
            shown = sent(game, events_of_last)
            for copy_seed in range(REDETERMINATIONS):
                if before is None:
                    other, other_last = game.redetermine(copy_seed, game.current_player), ()
                else:
                    # The last decision replayed on a redetermined copy of the position it was made in.
                    other_before = before.redetermine(copy_seed, before.current_player)
                    other = other_before.copy()
                    other_last = tuple(other.push(last))
                    if games.spec(name).public(other.to_dict()) != games.spec(name).public(game.to_dict()):
                        continue  # the decision drew from what was hidden: another outcome, not the same view
                assert sent(other, other_last) == shown, (seed, str(last))
            checked += 1
    assert checked > POSITIONS_PER_GAME * 20
