"""Play matches between the search and reference opponents; print win rates.

``python -m core_ext.ai.match --game duel --ai hard --opponent greedy --games 200 --seed 1``

A player is ``random``, ``greedy``, ``heuristic``, ``lookahead`` or ``planner``
(the reference players of ``core_ext.ai.baselines``; ``planner`` plays Summer
Pavilion only), a level name (``easy``, ``normal``, ``hard``, ``expert``), a
whole number (that many iterations per decision of the guided search, one
tree, no time limit: reproducible from ``--seed``), a
number of seconds such as ``2s`` (the guided search thinking that long), or
either of the last two after ``plain:`` for the search without knowledge.
``N:full`` (guided playouts to the end of the game instead of the round) and
``N:uniform`` (the same prior for every option) change one step of the guided
search, to measure what it adds. ``frozen:REV:LEVEL`` is a level of the computer
players as they were at git revision REV (``core_ext.ai.frozen``), such as
``frozen:e8aa901:hard``.
The tested player (``--ai``) takes each seat in turn from game to game; the
other seats are all ``--opponent``. A game counts as a win when the tested
player is its only winner; shared victories are reported apart. Every game
draws its deal and its choices from a stream of its own (the seed and the
game's number), so ``--jobs`` processes can play the games side by side and
the results do not depend on how many there are, and a long match can be split
into runs: ``--games 100`` and then ``--first 101 --games 100`` play the same
200 games as ``--games 200`` (each run counts its own games).
"""
import argparse
import concurrent.futures
import contextlib
import importlib
import math
import multiprocessing
import random
import sys
import time
from dataclasses import dataclass, field
from typing import NamedTuple

from core_ext import ai
from core_ext.ai import frozen
from core_ext.ai.baselines import greedy_move, heuristic_move, lookahead_move, planner_move, random_move

GAMES = {"duel": (2, 2), "pavilion": (2, 4)}
"""Game module name -> (fewest, most) seats."""

BASELINES = {"random": random_move, "greedy": greedy_move, "heuristic": heuristic_move, "lookahead": lookahead_move,
             "planner": planner_move}

PAVILION_ONLY = {"planner"}
"""Reference players that play Summer Pavilion only (they plan a Summer Pavilion board)."""


def player_from_spec(spec, workers=1):
    """A ``(game, rng) -> Move`` function for a player description (see the module docstring).

    ``workers`` caps the threads a level's trees run on.
    """
    if spec in BASELINES:
        return BASELINES[spec]
    if spec in ai.LEVELS:
        return lambda game, rng: ai.choose(game, level=spec, seed=rng.getrandbits(64), workers=workers)
    if spec.startswith("frozen:"):
        revision, _, level = spec[len("frozen:"):].rpartition(":")
        earlier = frozen.load(revision)
        if level not in earlier.LEVELS:
            raise ValueError(f"revision {revision} has the levels {', '.join(earlier.LEVELS)}, not {level!r}")
        return lambda game, rng: earlier.choose(game, level=level, seed=rng.getrandbits(64), workers=workers)
    budget, _, variant = spec.partition(":")
    guided = budget != "plain"
    if not guided:
        budget, variant = variant, ""
    if budget.isdigit() and int(budget) > 0 and (not variant or variant in VARIANTS):
        iterations = int(budget)
        if variant:
            return _variant_player(iterations, **VARIANTS[variant])
        return lambda game, rng: ai.choose(game, iterations=iterations, guided=guided, seed=rng.getrandbits(64))
    seconds = _seconds(budget) if not variant else math.nan
    if 0 < seconds < math.inf:
        return lambda game, rng: ai.choose(game, think_time=seconds, guided=guided, seed=rng.getrandbits(64))
    raise ValueError(
        f"a player is one of {', '.join([*BASELINES, *ai.LEVELS])}, a positive number of iterations "
        f"or of seconds (2s), optionally after plain:, or frozen:REV:LEVEL, not {spec!r}"
    )


def _seconds(text):
    """``"2s"`` -> 2.0; NaN for anything else."""
    try:
        return float(text[:-1]) if text.endswith("s") else math.nan
    except ValueError:
        return math.nan


VARIANTS = {"full": {"playout_rounds": 0}, "uniform": {"uniform_priors": True}}
"""Guided-search variants for measuring one step at a time (``N:full``, ``N:uniform``)."""


def _variant_player(iterations, **options):
    """The guided search with ``iterations`` per decision on one tree and ``Search`` ``options``."""
    def play(game, rng):
        legal = game.legal_moves()
        if len(legal) == 1:
            return legal[0]
        search = ai.Search(game, rng.getrandbits(64), ai.knowledge_of(game), **options)
        search.run(iterations)
        best = search.best_code([move.code for move in legal])
        return next(move for move in legal if move.code == best)
    return play


def wilson_interval(successes, trials, z=1.96):
    """The 95% Wilson score interval of a proportion, as (low, high)."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    centre = (p + z * z / (2 * trials)) / (1 + z * z / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / (1 + z * z / trials)
    return max(0.0, centre - half), min(1.0, centre + half)


def new_game(game_name, seats, seed):
    """A fresh game of ``game_name`` (a key of :data:`GAMES`) for ``seats`` players."""
    if game_name not in GAMES:
        raise ValueError(f"game must be one of {', '.join(GAMES)}, not {game_name!r}")
    fewest, most = GAMES[game_name]
    if not fewest <= seats <= most:
        raise ValueError(f"{game_name} is played by {fewest} to {most} players, not {seats}")
    module = importlib.import_module(f"core_ext.{game_name}")
    if game_name == "duel":
        return module.Game(seed=seed)
    return module.Game(players=seats, seed=seed)


def play_game(game, players, rng):
    """Play ``game`` to its end in place, seat ``i`` moved by ``players[i]``; returns the game."""
    while not game.is_over():
        game.push(players[game.current_player](game, rng))
    return game


SOURCES = ("rounds", "stars", "numbers", "leftover")
"""Summer Pavilion: where final points come from (the parts of ``Game.final_breakdown``), as reported."""

_SOURCE_OF_LABEL = {"Rounds": "rounds", "Star": "stars", "All": "numbers", "Leftover": "leftover"}


def _sources(game, seat):
    """Summer Pavilion: ``seat``'s final points per :data:`SOURCES`."""
    totals = dict.fromkeys(SOURCES, 0)
    for part in game.final_breakdown()[seat]:
        source = _SOURCE_OF_LABEL.get(part["label"].split(" ")[0])
        if source is not None:
            totals[source] += part["points"]
    return totals


class SeatEnd(NamedTuple):
    """Azul Duel: what one seat left undone in one game."""

    chips: int
    """Bonus chips never spent."""
    fields: int
    """Special fields on its dome left without their tile."""
    offered: tuple
    """Its payment decisions (each a missing space of a line that its chips could buy): in rounds 1-4, in
    round 5."""
    declined: tuple
    """Of those, the ones it declined, in rounds 1-4 and in round 5 (chips are worth nothing after the
    game)."""


class EndCounts(NamedTuple):
    """Azul Duel: what each player left undone in one game."""

    tested: SeatEnd
    opponent: SeatEnd
    objective: bool
    """Whether the special-fields objective was in play (-3 points for each empty field)."""


@dataclass(frozen=True)
class GameOutcome:
    """What a match keeps of one finished game."""

    tested_seat: int
    scores: tuple
    winners: tuple
    unspent: EndCounts = None
    """Azul Duel only."""
    sources: tuple = ()
    """Summer Pavilion: per seat, its points per :data:`SOURCES`."""


@dataclass
class MatchResult:
    """Outcome of a match from the tested player's side."""

    games: int = 0
    wins: int = 0
    shared: int = 0
    losses: int = 0
    tested_points: int = 0
    opponent_points: int = 0
    opponent_seats: int = 0
    seconds: float = 0.0
    margins: list = field(default_factory=list)
    unspent: list = field(default_factory=list)
    """Azul Duel: the :class:`EndCounts` of each game."""
    tested_sources: dict = field(default_factory=dict)
    opponent_sources: dict = field(default_factory=dict)
    """Summer Pavilion: points per :data:`SOURCES`, summed over the games (the opponents' over their seats)."""

    @property
    def win_rate(self):
        return self.wins / self.games if self.games else 0.0

    def record(self, outcome):
        """Count one :class:`GameOutcome`."""
        seat, scores, winners = outcome.tested_seat, outcome.scores, outcome.winners
        self.games += 1
        if winners == (seat,):
            self.wins += 1
        elif seat in winners:
            self.shared += 1
        else:
            self.losses += 1
        others = [s for other, s in enumerate(scores) if other != seat]
        self.tested_points += scores[seat]
        self.opponent_points += sum(others)
        self.opponent_seats += len(others)
        self.margins.append(scores[seat] - max(others))
        if outcome.unspent is not None:
            self.unspent.append(outcome.unspent)
        for other, sources in enumerate(outcome.sources):
            totals = self.tested_sources if other == seat else self.opponent_sources
            for source, points in sources.items():
                totals[source] = totals.get(source, 0) + points

    def unspent_line(self, tested, opponent):
        """Azul Duel: each player's mean unspent chips and empty special fields per game (the fields
        also over the games whose objectives cost 3 points for each), and the payments it declined."""
        if not self.unspent:
            return None
        with_objective = [counts for counts in self.unspent if counts.objective]

        def mean(seat, attribute, games):
            return sum(getattr(getattr(counts, seat), attribute) for counts in games) / max(1, len(games))

        def means(name, seat):
            offered, declined = ([sum(getattr(getattr(counts, seat), attribute)[last] for counts in self.unspent)
                                  for last in (0, 1)] for attribute in ("offered", "declined"))
            return (f"{name} {mean(seat, 'chips', self.unspent):.2f} chips unspent, "
                    f"{mean(seat, 'fields', self.unspent):.2f} special fields empty "
                    f"({mean(seat, 'fields', with_objective):.2f} in the {len(with_objective)} games with that "
                    f"objective), payments declined {declined[0]} of {offered[0]} in rounds 1-4 and "
                    f"{declined[1]} of {offered[1]} in round 5")
        return f"per game: {means(tested, 'tested')}; {means(opponent, 'opponent')}"

    def sources_line(self, tested, opponent):
        """Summer Pavilion: where the points came from, per game for the tested player and per opponent seat."""
        if not self.tested_sources:
            return None

        def means(totals, count):
            return ", ".join(f"{source} {totals.get(source, 0) / count:.1f}" for source in SOURCES)
        return (f"points from: {tested} {means(self.tested_sources, self.games)}; "
                f"{opponent} {means(self.opponent_sources, max(1, self.opponent_seats))}")


_MATCH = {}
"""A match worker's players and game, set once per process by :func:`_start_worker`."""


def _start_worker(game_name, seats, tested, opponent, seed, workers):
    _MATCH.update(game_name=game_name, seats=seats, seed=seed, tested=player_from_spec(tested, workers),
                  opponent=player_from_spec(opponent, workers))


def _watching_payments(player, offered, declined):
    """``player``, counting into ``offered`` and ``declined`` (per seat, rounds 1-4 and round 5) the Azul
    Duel payments it could make and the ones it declined."""
    def play(game, rng):
        move = player(game, rng)
        if game.pending == "pay":
            last = game.round == 5
            offered[game.current_player][last] += 1
            declined[game.current_player][last] += move.kind == "nopay"
        return move
    return play


def _play_one(index):
    """Game ``index`` of the match set up by :func:`_start_worker`: the tested player at seat
    ``index % seats``, the deal and every choice drawn from a stream of its own (``seed``, ``index``),
    so a game is the same whichever process plays it."""
    seats = _MATCH["seats"]
    tested_seat = index % seats
    rng = random.Random(f"{_MATCH['seed']}/{index}")
    players = [_MATCH["tested"] if seat == tested_seat else _MATCH["opponent"] for seat in range(seats)]
    duel = _MATCH["game_name"] == "duel"
    offered, declined = [[0, 0] for _ in range(seats)], [[0, 0] for _ in range(seats)]
    if duel:
        players = [_watching_payments(player, offered, declined) for player in players]
    game = play_game(new_game(_MATCH["game_name"], seats, rng.getrandbits(64)), players, rng)
    sources = () if duel else tuple(_sources(game, seat) for seat in range(seats))
    unspent = None
    if duel:
        left = ai.knowledge_of(game).unspent_at_the_end(game)
        tested, other = (SeatEnd(*left[seat], tuple(offered[seat]), tuple(declined[seat]))
                         for seat in (tested_seat, 1 - tested_seat))
        unspent = EndCounts(tested, other, "special" in game.objectives)
    return GameOutcome(tested_seat, tuple(game.scores()), tuple(game.winners()), unspent, sources)


def run_match(game_name, tested, opponent, *, games, seats=2, seed=0, progress=None, workers=1, jobs=1, first=1):
    """Play ``games`` games of the ``tested`` player against ``opponent`` players, numbered from
    ``first``; a :class:`MatchResult`.

    ``jobs`` processes play games side by side (each game is the same whatever ``jobs`` is);
    ``workers`` caps the threads of each level's search. ``progress``, if given, is called
    with the result after every game, in the games' order.
    """
    if games < 1:
        raise ValueError(f"games must be at least 1, not {games}")
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, not {jobs}")
    if first < 1:
        raise ValueError(f"the first game is number 1 or later, not {first}")
    new_game(game_name, seats, 0)  # validates the game and the seat count before any play
    for spec in (tested, opponent):
        if spec in PAVILION_ONLY and game_name != "pavilion":
            raise ValueError(f"{spec} plays Summer Pavilion only, not {game_name}")
    setup = (game_name, seats, tested, opponent, seed, workers)
    _start_worker(*setup)  # validates both players here, before any process starts
    result = MatchResult()
    started = time.perf_counter()
    indices = range(first - 1, first - 1 + games)
    with contextlib.ExitStack() as stack:
        if jobs == 1:
            outcomes = map(_play_one, indices)
        else:
            pool = stack.enter_context(concurrent.futures.ProcessPoolExecutor(
                jobs, mp_context=multiprocessing.get_context("spawn"), initializer=_start_worker, initargs=setup))
            outcomes = pool.map(_play_one, indices)
        for outcome in outcomes:
            result.record(outcome)
            result.seconds = time.perf_counter() - started
            if progress is not None:
                progress(result)
    return result


def report(result, tested, opponent):
    """The match summary as text lines."""
    mean = result.tested_points / result.games
    opponent_mean = result.opponent_points / max(1, result.opponent_seats)
    margins = sorted(result.margins)
    low, high = wilson_interval(result.wins, result.games)
    return [
        f"{tested} vs {opponent}: {result.wins} wins, {result.shared} shared, {result.losses} losses "
        f"in {result.games} games: win rate {100 * result.win_rate:.1f}% "
        f"(95% interval {100 * low:.1f}-{100 * high:.1f}%)",
        f"mean score {mean:.1f} vs {opponent_mean:.1f}; median margin over the best opponent "
        f"{margins[len(margins) // 2]:+d}; {result.seconds / result.games:.1f} s per game",
    ] + [line for line in (result.unspent_line(tested, opponent), result.sources_line(tested, opponent)) if line]


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m core_ext.ai.match", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", choices=sorted(GAMES), default="duel")
    parser.add_argument("--players", type=int, default=2, help="seats at the table (Summer Pavilion: 2-4)")
    parser.add_argument("--ai", default="normal", help="the tested player (see above)")
    parser.add_argument("--opponent", default="random", help="every other seat (see above)")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--first", type=int, default=1,
                        help="number of the first game (default 1), to go on with a match in another run")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1, help="threads for a level's search trees (default 1)")
    parser.add_argument("--jobs", type=int, default=1,
                        help="processes playing games side by side (default 1; the games are the same for any number)")
    parser.add_argument("--quiet", action="store_true", help="no progress line per game")
    args = parser.parse_args(argv)

    def progress(result):
        low, high = wilson_interval(result.wins, result.games)
        unspent = result.unspent_line(args.ai, args.opponent)
        print(f"game {args.first - 1 + result.games}: win rate {100 * result.win_rate:.1f}% "
              f"({result.wins} wins, {result.shared} shared, {result.losses} losses; 95% interval "
              f"{100 * low:.1f}-{100 * high:.1f}%), mean score {result.tested_points / result.games:.1f} vs "
              f"{result.opponent_points / result.opponent_seats:.1f}"
              + (f"; {unspent}" if unspent else ""), flush=True)

    try:
        result = run_match(args.game, args.ai, args.opponent, games=args.games, seats=args.players,
                           seed=args.seed, progress=None if args.quiet else progress, workers=args.workers,
                           jobs=args.jobs, first=args.first)
    except ValueError as error:
        parser.error(str(error))
    print(f"{args.game}, {args.players} players, seed {args.seed}, games {args.first} to {args.first - 1 + args.games}")
    for line in report(result, args.ai, args.opponent):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
