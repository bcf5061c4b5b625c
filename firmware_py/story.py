"""The story of a game in numbers: each player's score after every round, where the points came from,
and how many tiles each player laid per round.

It is read off the events the rules cores return for every move (the
``points`` fields of docs/notation.md, "What a push did"), so it needs
nothing but the record and tells only what the table showed as it happened.
The pages draw it as charts (``web_remote.charts``).
"""
import dataclasses

SOURCES = {
    "duel": {"tile_laid": "tiles", "special_laid": "specials", "plate_drawn": "plates",
             "objective_scored": "objectives", "penalty": "penalties", "score_floor": "floor"},
    "pavilion": {"tile_placed": "tiles", "start_token_taken": "start_token", "tiles_discarded": "discarded",
                 "star_scored": "stars", "number_scored": "numbers", "leftover": "leftover"},
}
"""Every event kind that changes a score, by game, and the source its points are counted under."""
START = "start"  # the source of the points a seat starts the game with (Summer Pavilion's 5)
LAID = {"duel": ("tile_laid", "special_laid"), "pavilion": ("tile_placed",)}
"""The events that put one tile on a player's board."""
FINAL_SCORING = {"duel": ("objective_scored", "score_floor"), "pavilion": ("star_scored", "number_scored", "leftover")}
"""The events of the final scoring: the last round's entry is the score before them (the rules cores'
``score_before_final``), whether a core ends the round before them (Summer Pavilion) or after (Azul Duel)."""


@dataclasses.dataclass(frozen=True)
class Story:
    """``rounds[r][seat]``: the score when round r + 1 ended, the last round's before the final scoring (the
    rules cores' ``score_before_final``), then, when the game is over, an entry after the final scoring; ``sources[seat]``: points by source, in the order first scored; ``laid[r][seat]``: tiles laid
    in round r + 1; ``scored[r]``: the events that changed a score up to ``rounds[r]``, since the entry before;
    ``final``: whether the last entry of ``rounds`` is the final scoring."""

    game: str
    start: tuple
    rounds: tuple
    sources: tuple
    laid: tuple
    scored: tuple
    final: bool

    def to_dict(self) -> dict:
        return {"game": self.game, "start": list(self.start), "rounds": [list(r) for r in self.rounds],
                "sources": [dict(s) for s in self.sources], "laid": [list(r) for r in self.laid],
                "scored": [list(r) for r in self.scored], "final": self.final}


def story(game: str, positions: list, moves) -> Story:
    """The story of a game from its positions (``records.replay``: the start, then one after each move)
    and its moves; an unfinished game's story ends with the round in progress."""
    kinds = SOURCES[game]
    start = tuple(positions[0].scores())
    seats = range(len(start))
    scores = list(start)
    sources = [{START: points} if points else {} for points in start]
    rounds, laid, laying, open_round, final_scoring = [], [], [0] * len(start), False, False
    scored, scoring = [], []

    def end_round():
        nonlocal laying, scoring, open_round
        rounds.append(tuple(scores))
        laid.append(tuple(laying))
        scored.append(tuple(scoring))
        laying, scoring, open_round = [0] * len(start), [], False

    for before, move in zip(positions, moves):
        open_round = True
        for event in before.copy().push(move):
            kind, seat = event["event"], event.get("player")
            if kind in LAID[game]:
                laying[seat] += 1
            if kind in FINAL_SCORING[game] and not final_scoring:
                final_scoring = True
                if open_round:
                    end_round()
            if kind == "round_ended" and not final_scoring:
                end_round()
            points = event.get("points", 0) if kind in kinds else 0
            if points:
                scoring.append(event)
                scores[seat] += points
                sources[seat][kinds[kind]] = sources[seat].get(kinds[kind], 0) + points
    final = positions[-1].is_over()
    if final or open_round:
        rounds.append(tuple(scores))
        scored.append(tuple(scoring))
        if not final:
            laid.append(tuple(laying))
    return Story(game, start, tuple(rounds), tuple(dict(sources[seat]) for seat in seats), tuple(laid),
                 tuple(scored), final)
