"""The two games as the table sees them: how to start one, its rules flags and player counts."""
import dataclasses
import importlib
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

    @property
    def module(self):
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


def _pavilion_uncovered(state):
    return state["rng"]


GAMES = {
    "duel": GameSpec("duel", "Azul Duel", 2, 2, {"stack_reveal": ("end", "each")}, _duel_uncovered,
                     ("setup", "action")),
    "pavilion": GameSpec("pavilion", "Azul: Summer Pavilion", 2, 4, {"side": ("coloured", "monochrome")},
                         _pavilion_uncovered, ("draft", "place")),
}


def spec(name: str) -> GameSpec:
    try:
        return GAMES[name]
    except KeyError:
        raise ValueError(f"unknown game {name!r} (games: {', '.join(GAMES)})") from None
