"""The rules on the phone: a page per game, in the table's own words, one section per decision of a turn.

Each decision's section carries a picture of a real position where that
decision is up, drawn by the phone's own board drawing (``board.js``) with the
parts the player may touch outlined, and with what the first of them would do
(its preview). The live page links from the pending decision straight to its
section ("How does this work?"), and the first-game mode shows the same text
the first time a player meets a decision.

The numbers the texts quote (rounds, bonus tiles, star values, penalties) are
fields filled in from the rules cores, so the words cannot drift from the
rules the table plays; ``tests/web/test_rules_pages.py`` checks that every
decision kind of both cores has its section and that the sections name only
decision kinds and events the cores have.
"""
import dataclasses
import functools
import random

from flask import Blueprint

from core_ext import duel, pavilion
from core_ext.ai.baselines import heuristic_move
from firmware_py import games
from firmware_py.session import Seat, Setup
from web_remote import i18n, kept, payload
from web_remote.guards import BadRequest, language, service
from web_remote.pages import page

bp = Blueprint("rules", __name__, url_prefix="/rules")

BROKEN_PENALTIES = (1, 2, 3, 4)
"""What each of a Duel player's four broken-tiles spaces costs (D6); the test checks it against the core."""
START_TILE_PENALTY = 2
"""What the Duel's starting-player tile costs its holder at the end of a round."""
KEPT_TILES = 4
"""How many tiles a Summer Pavilion player keeps on the corners after passing (S6)."""
OBJECTIVE_POINTS = {"horizontal": 3, "colourful": 4, "vertical": 7, "outer": 1, "diagonals": 10,
                    "corner_top": 3, "corner_bottom": 8, "wild": 2, "special": 3}
"""What each Duel objective counts (rules 1.3): per row, column, covered edge space, diagonal, top and bottom
corner plate, wild space (all of them covered) and, as a cost, empty special space; the test checks it
against the core's final scoring."""
EDGE_SPACES = 4 * 6 - 4  # the spaces on the edge of a 6 x 6 dome
PICTURE_SEEDS = range(40)  # games played until each decision kind has a picture
OBJECTIVES_TAUGHT = "action"
"""The Duel decision whose first-game explanation also teaches the objectives in play: every player meets it
in round 1, long before the final scoring counts them."""
CHOICES_LISTED = 6  # options named under a picture
RANDOM_SHARE = 0.3  # of the moves in those games chosen at random


@dataclasses.dataclass(frozen=True)
class Section:
    """One section of a rules page: ``key`` names its anchor and its strings (``rules.GAME.KEY.title`` and
    ``.text``); ``decisions`` are the pending kinds it explains (the first has the picture); ``events``
    the event kinds its text tells of; ``objective`` the Duel objective it explains."""

    key: str
    decisions: tuple = ()
    events: tuple = ()
    objective: str = ""  # a Duel objective: its picture is a finished game that scored it


SECTIONS = {
    "duel": (
        Section("goal", events=("objective_scored",)),
        Section("round", events=("round_ended", "factories_refilled")),
        Section("setup", ("setup",), ("plate_taken", "plate_placed")),
        Section("action", ("action",), ("plate_taken", "sun_taken", "moon_taken", "chip_taken",
                                        "start_tile_taken")),
        Section("draw", ("draw",), ("plate_drawn", "drawing_stopped", "score_floor")),
        Section("keep", ("keep",), ("plate_kept",)),
        Section("return", ("return",), ("plate_returned",)),
        Section("place", ("place",), ("plate_placed",)),
        Section("order", ("order",), ("moon_stacked",)),
        Section("line", ("line",), ("line_filled", "tiles_broken", "penalty")),
        Section("pay", ("pay",), ("chips_paid", "chips_not_paid")),
        Section("tile", ("tile",), ("tile_laid", "special_laid", "line_broken")),
        Section("end", ("over",), ("objective_scored", "game_over")),
        *(Section(f"objective_{name}", events=("objective_scored",), objective=name) for name in duel.OBJECTIVES),
    ),
    "pavilion": (
        Section("goal", events=("star_scored", "number_scored")),
        Section("round", events=("round_ended", "factories_refilled", "passed")),
        Section("board", events=("structure_completed", "bonus_owed")),
        Section("draft", ("draft",), ("tiles_taken", "wild_taken", "rest_to_centre", "start_token_taken")),
        Section("place", ("place",), ("tile_placed", "structure_completed", "bonus_owed", "passed")),
        Section("pay", ("pay",), ("tile_placed",)),
        Section("bonus", ("bonus",), ("bonus_taken",)),
        Section("keep", ("keep",), ("tile_kept", "tiles_discarded")),
        Section("end", ("over",), ("star_scored", "number_scored", "leftover", "game_over")),
    ),
}


def section_of(game: str, pending: str) -> str:
    """The anchor of the section that explains ``pending``."""
    return next(section.key for section in SECTIONS[game] if pending in section.decisions)


def fields(game: str, lang: str) -> dict:
    """The numbers and names the texts quote, from the rules cores."""
    if game == "duel":
        return {"rounds": duel.ROUNDS, "objectives": 3, "penalties": ", ".join(map(str, BROKEN_PENALTIES)),
                "most": sum(BROKEN_PENALTIES), "start_tile": START_TILE_PENALTY, "edge": EDGE_SPACES,
                **{f"obj_{name}": points for name, points in OBJECTIVE_POINTS.items()}}
    board = pavilion.BOARD
    stars = {letter: points for letter, _, points, _, _ in board["stars"]}
    return {"rounds": pavilion.ROUNDS, "keep": KEPT_TILES, "start": pavilion.Game(players=2, seed=0).scores()[0],
            **{f"{kind}_spaces": ", ".join(numbers) for kind, numbers in structure_spaces().items()},
            "wilds": ", ".join(i18n.colour_name(lang, "pavilion", letter) for letter in pavilion.COLOURS),
            **board["structure_bonus"], **{f"star_{letter}": points for letter, points in stars.items()},
            **{f"number_{number}": points for number, points in board["number_bonus"].items()}}


def structure_spaces() -> dict:
    """The numbers of the spaces each kind of Summer Pavilion structure surrounds, as its first one on the board
    lists them: a pillar's own star's spaces ("pillar"), a statue's on its first and second star ("statue",
    "statue_next"), a window's ("window"); the test checks that every structure of its kind surrounds the same."""
    first = {}
    for _, kind, spaces in pavilion.BOARD["structures"]:
        first.setdefault(kind, spaces)
    statue = [[space[1:] for space in first["statue"] if space[0] == star]
              for star in dict.fromkeys(space[0] for space in first["statue"])]
    return {"pillar": [space[1:] for space in first["pillar"] if space[0] != "C"], "statue": statue[0],
            "statue_next": statue[1], "window": [space[1:] for space in first["window"]]}


@functools.cache
def picture_positions(game: str) -> dict:
    """A position for each decision kind of ``game``, with at least two options where play offers one:
    pending kind -> (game, seats). They come from games played from fixed seeds by the heuristic player
    with a random option now and then (which reaches the decisions it avoids, such as several stack draws)."""
    found, kinds = {}, games.spec(game).module.PENDING
    for seed in PICTURE_SEEDS:
        players = 2 if game == "duel" else 2 + seed % 3
        setup = Setup(game=game, seats=tuple(Seat("ai", name) for name in ("Ana", "Ben", "Cleo", "Dev")[:players]),
                      seed=seed)
        played, chooser = setup.new_game(), random.Random(seed)
        while True:
            options = 0 if played.is_over() else len(played.legal_moves())
            if played.pending not in found or found[played.pending][2] < 2 <= options:
                found[played.pending] = (played.copy(), setup.seats, options)
            if played.is_over():
                break
            move = chooser.choice(played.legal_moves()) if chooser.random() < RANDOM_SHARE else \
                heuristic_move(played, chooser)
            played.push(move)
        if len(found) == len(kinds) and all(options >= 2 for _, _, options in found.values() if options):
            break
    return {kind: (position, seats) for kind, (position, seats, _) in found.items()}


def picture(game: str, pending: str, lang: str) -> dict:
    """What ``board.js`` draws for the section of ``pending``: the public position, the seats, its options
    and the first option's preview."""
    position, seats = picture_positions(game)[pending]
    state = position.to_dict()
    drawn = {"game": game, "state": games.spec(game).public(state), "game_id": f"rules-{pending}",
             "seats": [{"name": seat.name} for seat in seats], "current_player": None, "last": None,
             "options": [], "preview": None}
    if not position.is_over():
        options = [str(option) for option in position.legal_moves()]
        events = position.copy().push(options[0])
        labels = [i18n.option_label(lang, game, option) for option in options[:CHOICES_LISTED]]
        drawn.update(current_player=position.current_player, options=options,
                     choices=", ".join(labels) + (", …" if len(options) > CHOICES_LISTED else ""),
                     preview={"seat": position.current_player,
                              "events": payload.preview_events(events, game, state)})
    return drawn


@functools.cache
def objective_position(objective: str):
    """A finished Duel, played by the heuristic player from a fixed seed with ``objective`` in play, in
    which it scored for someone (else the last one tried): (game, seats)."""
    tablet = duel.OBJECTIVES.index(objective) // 2
    others = [duel.OBJECTIVES[2 * other] for other in range(4) if other != tablet][:2]
    seats = tuple(Seat("ai", name) for name in ("Ana", "Ben"))
    for seed in PICTURE_SEEDS:
        played, chooser = duel.Game(seed=seed, objectives=[objective, *others]), random.Random(seed)
        while not played.is_over():
            played.push(heuristic_move(played, chooser))
        if any(dict(played.objective_progress())[objective]):
            break
    return played, seats


def objective_picture(objective: str, lang: str) -> dict:
    """What ``board.js`` draws for an objective's section: the finished game's domes, and each player's
    points for the objective in words."""
    position, seats = objective_position(objective)
    points = dict(position.objective_progress())[objective]
    values = ", ".join(f"{seat.name}: {i18n.format_points(lang, value)}" for seat, value in zip(seats, points))
    return {"game": "duel", "state": games.spec("duel").public(position.to_dict()), "game_id": f"rules-{objective}",
            "seats": [{"name": seat.name} for seat in seats], "current_player": None, "last": None,
            "options": [], "preview": None, "caption": i18n.translate(lang, "rules.objective_picture", values=values)}


def section_picture(game: str, section: Section, lang: str):
    """The picture of ``section``: its first decision's position, an objective's finished game, or none."""
    if section.objective:
        return objective_picture(section.objective, lang)
    return picture(game, section.decisions[0], lang) if section.decisions else None


@bp.get("/")
def index():
    """Both games' rules pages."""
    return page("rules/index.html", games=games.GAMES)


def why(game: str, kind: str, lang: str) -> str:
    """Why an event of ``kind`` (one of the core's scoring events) changed a score, in a sentence."""
    return i18n.translate(lang, f"learn.why.{game}.{kind}", **fields(game, lang))


@bp.get("/<game>/explain/<kind>")
def explain(game: str, kind: str):
    """One decision's explanation, for a first game's overlay on the live page (with a link to its section)."""
    if game not in SECTIONS:
        raise BadRequest("error.invalid_field", field="game")
    if kind not in games.spec(game).module.PENDING:
        raise BadRequest("error.invalid_field", field="kind")
    lang = language()
    return page("rules/explain.html", game=game, kind=kind, section=section_of(game, kind), fields=fields(game, lang),
                objectives=objectives_in_play(lang) if (game, kind) == ("duel", OBJECTIVES_TAUGHT) else [])


def objectives_in_play(lang: str) -> list:
    """The running Duel's objectives: (section, each player's points toward it now in words)."""
    snapshot = service().current()
    if snapshot.setup.game != "duel":
        return []
    names = [seat.name for seat in snapshot.setup.seats]
    return [(f"objective_{objective}", ", ".join(f"{name}: {i18n.format_points(lang, value)}"
                                                 for name, value in zip(names, points)))
            for objective, points in snapshot.progress]


@bp.get("/<game>")
@kept.until_results_change
def rules(game: str):
    """One game's rules, a section per decision of a turn, each with its picture."""
    if game not in SECTIONS:
        raise BadRequest("error.invalid_field", field="game")
    lang = language()
    quoted = fields(game, lang)
    sections = [(section, section_picture(game, section, lang)) for section in SECTIONS[game]]
    return page("rules/rules.html", game=game, sections=sections, fields=quoted)
