"""Pictures of real positions as the simulator draws them: the figures of docs/layouts.md.

``python -m firmware_py.layouts.pictures [DIR]`` writes them (default
``docs/img``); the tests render the same positions and compare them with
those files, so the documentation always shows the current layouts.
"""
import dataclasses
import random
import sys
from pathlib import Path

import hardware
from firmware_py.display import TableDisplay
from firmware_py.controls import HostMenu
from firmware_py.session import Play, Press, Seat, Session, Setup

# name -> (setup, decisions played by a seeded random choice, caption)
POSITIONS = {
    "duel_setup": (Setup(game="duel", seed=3), 0, "Azul Duel at setup: the non-starting player picks a starting plate"),
    "duel_round2": (Setup(game="duel", seed=5), 60, "Azul Duel in round 2, a player choosing an action"),
    "duel_late": (Setup(game="duel", seed=7), 170, "Azul Duel in round 4: a player choosing the line for the tiles taken"),
    "pavilion_2p": (Setup(game="pavilion", seed=3), 12, "Summer Pavilion, 2 players, round 1: the first player places a tile"),
    "pavilion_4p": (Setup(game="pavilion", seats=(Seat(),) * 4, seed=4), 150, "Summer Pavilion, 4 players, drafting in round 5"),
    "pavilion_over": (Setup(game="pavilion", seats=(Seat(),) * 3, seed=4), 1000,
                      "Summer Pavilion, 3 players, game over: the trophy and the winner on the centre, W on the winner's panel"),
}

# name -> (setup, the HOST menu item on show, caption)
MENU_VIEWS = {
    "legend_duel": (Setup(game="duel", seed=3), "legend", "The legend of the HOST menu, Azul Duel: each tile colour's glyph and letter"),
    "legend_pavilion": (Setup(game="pavilion", seed=3), "legend", "The legend of the HOST menu, Summer Pavilion"),
    "address": (Setup(game="duel", seed=3), "address", "JOIN in the HOST menu: the address scrolling, the join code below"),
}
NAMES = (*POSITIONS, *MENU_VIEWS)
SHOWN_ADDRESS = "192.168.1.20:8080/join azul-table.local:8080/join"

DOCS_DIR = Path(__file__).resolve().parents[2] / "docs" / "img"


def position(name: str) -> Session:
    """The session of a named position, reached by seeded random decisions, or with a HOST menu item on show."""
    if name in MENU_VIEWS:
        setup, item, _ = MENU_VIEWS[name]
        session = Session(setup)
        session.apply(Press(None, "HOST", "hold"))
        for _ in range(HostMenu.ITEMS.index(item)):
            session.apply(Press(None, "HOST"))
        session.apply(Press(0, "OK"))
        return session
    setup, decisions, _ = POSITIONS[name]
    session = Session(setup)
    choices = random.Random(decisions)
    for _ in range(decisions):
        snapshot = session.snapshot
        if snapshot.over:
            break
        session.apply(Play(snapshot.current_player, choices.choice(snapshot.options)))
    return session


def render(name: str) -> bytes:
    """The whole table for position ``name`` as a PNG, with the highlight in its lit phase."""
    hw = hardware.simulate(clock=hardware.ManualClock())
    try:
        display = TableDisplay(hw.leds, clock=lambda: 0.0)
        display.address = SHOWN_ADDRESS
        snapshot = position(name).snapshot
        # the join code is random: the pictures show a fixed one
        snapshot = dataclasses.replace(snapshot, credentials=dataclasses.replace(snapshot.credentials, join_code="406813"))
        display.draw(snapshot)
        return hardware.render_png(hw.layout, hw.memory.panels().display)
    finally:
        hw.close()


def main(argv=None):
    target = Path((argv or sys.argv[1:] or [DOCS_DIR])[0])
    target.mkdir(parents=True, exist_ok=True)
    for name in NAMES:
        (target / f"layout_{name}.png").write_bytes(render(name))
        print(target / f"layout_{name}.png")


if __name__ == "__main__":
    main()
