"""The two games as the table sees them: how to start one, its rules flags and player counts."""
import dataclasses
import functools
import importlib
import itertools
from typing import Callable


@dataclasses.dataclass(frozen=True)
class GameSpec:
    name: str  # "duel" or "pavilion": the rules module under core_ext
    title: str
    min_players: int
    max_players: int
    flags: dict  # rules flag -> allowed values, as the game's constructor takes them
    uncovered: Callable  # to_dict() -> what a decision can uncover: the RNG and every face-down thing
    turn_starts: tuple  # pending kinds that begin a turn; other kinds continue the turn in progress
    public: Callable = dict  # to_dict() -> what every player may see (phones get only this)
    progress: Callable = lambda game: ()  # game -> ((objective, points per seat), ...) toward the final scoring
    hidden_plates: Callable = lambda state: frozenset()  # to_dict() -> the plates whose fronts nobody has seen

    @functools.cached_property
    def module(self):
        """The rules module, imported at first use (looked up for every option of every update)."""
        return importlib.import_module(f"core_ext.{self.name}")

    def new(self, players: int, seed, flags: dict):
        """A fresh game for ``players`` seats with the given rules flags."""
        for flag, value in flags.items():
            allowed = self.flags[flag]
            if value not in allowed:
                raise ValueError(f"{flag} must be one of {', '.join(map(str, allowed))}, not {value!r}")
        if self.min_players == self.max_players:
            return self.module.Game(seed=seed, **flags)
        return self.module.Game(players=players, seed=seed, **flags)

    def revealed(self, before, after) -> bool:
        """Whether going from ``before`` to ``after`` drew from the bag or turned up something hidden."""
        return self.uncovered(before.to_dict()) != self.uncovered(after.to_dict())

    def parse(self, text: str):
        return self.module.Move.parse(text)

    def from_json(self, text: str):
        return self.module.Game.from_json(text)


def _duel_uncovered(state):
    return (
        state["rng"],
        len(state["drawn"]),
        state["drawn_revealed"],
        tuple(factory["chip_revealed"] for factory in state["small_factories"]),
    )


def _duel_hidden_plates(state):
    """Unseen stack plates, and drawn plates while their backs are up: an event naming one would show its front."""
    unseen = {plate for plate, seen in zip(state["stack"], state["stack_seen"]) if not seen}
    if not state["drawn_revealed"]:
        unseen.update(state["drawn"])
    return frozenset(unseen)


def _pavilion_uncovered(state):
    return state["rng"]


def _duel_objective_choices():
    """Every legal named choice of 3 objectives: one side each of 3 distinct tablets, in tablet order."""
    from core_ext.duel import OBJECTIVES  # ids 2t and 2t+1 are the two sides of tablet t

    return tuple(
        tuple(OBJECTIVES[2 * tablet + side] for tablet, side in zip(tablets, sides))
        for tablets in itertools.combinations(range(4), 3)
        for sides in itertools.product((0, 1), repeat=3)
    )


def _duel_public(state):
    """The Duel state without what nobody at the table can see.

    Hidden: the RNG, the plate stack's order (only its size, the back of its
    top plate and the plates put under it show), face-down bonus chips and the
    face-down chip supply, and the fronts of drawn plates before they are
    revealed. Added for drawing: the spaces of every plate on show and of each
    dome cell.
    """
    from core_ext.duel import PLATE_LAYOUTS, plate_spaces

    def back(plate):
        return "special" if "S" in PLATE_LAYOUTS[plate] else "wild"

    public = {key: value for key, value in state.items() if key not in ("rng", "stack", "stack_seen", "chip_supply")}
    public["stack_size"] = len(state["stack"])
    public["stack_top"] = back(state["stack"][0]) if state["stack"] else None
    # Plates put under the stack were seen by everyone: their fronts and places (0 = the top) are public.
    public["stack_under"] = [{"plate": plate, "spaces": plate_spaces(plate, 0), "depth": depth}
                             for depth, (plate, seen) in enumerate(zip(state["stack"], state["stack_seen"])) if seen]
    public["chip_supply"] = sum(state["chip_supply"])
    public["small_factories"] = [
        {**factory, "chip": factory["chip"] if factory["chip_revealed"] else "",
         "chip_hidden": bool(factory["chip"]) and not factory["chip_revealed"]}
        for factory in state["small_factories"]
    ]
    public["display"] = [{"plate": plate, "spaces": plate_spaces(plate, 0)} if plate >= 0 else None
                         for plate in state["display"]]
    public["drawn"] = [
        {"plate": plate, "spaces": plate_spaces(plate, 0)} if state["drawn_revealed"] else {"back": back(plate)}
        for plate in state["drawn"]
    ]
    public["players"] = [{**player, "dome_spaces": _dome_spaces(player, plate_spaces)} for player in state["players"]]
    public["kept_spaces"] = [plate_spaces(state["kept"], r) for r in range(4)] if state["kept"] >= 0 else None
    return public


def _dome_spaces(player, plate_spaces):
    """The 6x6 dome as rows of space letters (colour, W wild, S special; '-' where no plate lies)."""
    rows = [["-"] * 6 for _ in range(6)]
    for slot, (plate, rotation) in enumerate(zip(player["plates"], player["rotations"])):
        if plate < 0:
            continue
        spaces = plate_spaces(plate, rotation)
        top, left = 2 * (slot // 3), 2 * (slot % 3)
        for quarter, letter in enumerate(spaces):
            rows[top + quarter // 2][left + quarter % 2] = letter
    return ["".join(row) for row in rows]


def _pavilion_public(state):
    """The Pavilion state without the RNG (the bag is per-colour counts, which play reveals anyway);
    added for drawing: the cost printed on each space, per star in ``STARS`` order, and the structures
    with the spaces around each and the bonus tiles each kind earns."""
    from core_ext.pavilion import BOARD, STARS

    public = {key: value for key, value in state.items() if key != "rng"}
    if state["side"] == "coloured":
        public["costs"] = [[1, 2, 3, 4, 5, 6] for _ in STARS]
    else:
        numbers = BOARD["monochrome_numbers"]
        public["costs"] = [list(numbers["centre" if star == "C" else "outer"]) for star in STARS]
    public["structures_around"] = [{"name": name, "kind": kind, "spaces": list(spaces)}
                                   for name, kind, spaces in BOARD["structures"]]
    public["structure_bonus"] = dict(BOARD["structure_bonus"])
    return public


GAMES = {
    "duel": GameSpec("duel", "Azul Duel", 2, 2,
                     {"stack_reveal": ("end", "each"), "objectives": _duel_objective_choices()},
                     _duel_uncovered, ("setup", "action"), _duel_public,
                     lambda game: tuple(game.objective_progress()), _duel_hidden_plates),
    "pavilion": GameSpec("pavilion", "Azul: Summer Pavilion", 2, 4, {"side": ("coloured", "monochrome")},
                         _pavilion_uncovered, ("draft", "place"), _pavilion_public),
}


def spec(name: str) -> GameSpec:
    try:
        return GAMES[name]
    except KeyError:
        raise ValueError(f"unknown game {name!r} (games: {', '.join(GAMES)})") from None
