"""What a phone is sent about each option and the last decision shows nothing hidden.

The check: a redetermined copy of a position (the same public view, the
hidden parts drawn again: the stack's order, unrevealed drawn plates,
face-down chips, the bag) must give every phone the very same JSON. The JSON
is the body of ``/api/state`` (and of each event-stream update) as the
session and :func:`web_remote.payload.build` make it: one body for every
phone, seated or watching, so one comparison covers them all. It holds the
public state, every option's preview and the last decision's events.
"""
import json
import random

import pytest

from firmware_py import games
from firmware_py.session import Play, Seat, Session, Setup
from web_remote import payload

GAMES_PER_SETTING = 20  # random games; every position of each is checked
REDETERMINATIONS = 2
PER_SESSION = ("game_id", "run")  # drawn at random for each session, not from the position

SETTINGS = [("duel", 2, {"stack_reveal": "end"}), ("duel", 2, {"stack_reveal": "each"}),
            ("pavilion", 2, {}), ("pavilion", 3, {}), ("pavilion", 4, {})]


def sent(setup, position, last=None) -> str:
    """The ``/api/state`` body of a table at ``position``, or after ``last`` played there (other than
    the per-session identifiers)."""
    session = Session(setup, game=position.copy())
    if last is not None:
        session.apply(Play(position.current_player, last))
    body = payload.build(session.snapshot, "en")
    for key in PER_SESSION:
        del body[key]
    return json.dumps(body, sort_keys=True)


def positions(name, players, flags, seed):
    """Every position of one random game, as (the position, None) at the start and then (the position
    before a decision, the decision)."""
    chooser = random.Random(seed)
    game = games.spec(name).new(players, seed, flags)
    yield game.copy(), None
    while True:
        move = chooser.choice(game.legal_moves())
        yield game.copy(), move
        game.push(move)
        if game.is_over():
            return


@pytest.mark.long
@pytest.mark.parametrize("name,players,flags", SETTINGS, ids=lambda value: str(value))
def test_a_redetermined_position_sends_every_phone_the_same(name, players, flags):
    spec = games.spec(name)
    setup = Setup(game=name, seats=tuple(Seat(kind="phone") for _ in range(players)), seed=0,
                  flags=tuple(flags.items()))
    checked = 0
    for seed in range(GAMES_PER_SETTING):
        for position, last in positions(name, players, flags, seed):
            shown = sent(setup, position, last)
            public = spec.public(_after(position, last).to_dict())
            for copy_seed in range(REDETERMINATIONS):
                other = position.redetermine(copy_seed, position.current_player)
                if spec.public(_after(other, last).to_dict()) != public:
                    continue  # the decision drew from what was hidden: another outcome, not the same view
                assert sent(setup, other, last) == shown, (seed, str(last))
            checked += 1
    assert checked > GAMES_PER_SETTING * 100


def _after(position, last):
    """``position`` with ``last`` played on a copy (``position`` itself when there is none)."""
    if last is None:
        return position
    after = position.copy()
    after.push(last)
    return after
