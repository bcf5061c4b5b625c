"""Languages of the phone page: catalogues, the choice per phone, and words for moves and refusals.

Each language is one JSON catalogue in ``translations/`` with the same keys as
English. A phone's language is its own setting (the ``lang`` cookie) when it
made one, else the best match of its Accept-Language header, else the table's
language.
"""
import functools
import importlib
import json
import re
from pathlib import Path

LANGUAGES = {"en": "English", "zh": "简体中文", "it": "Italiano", "pt": "Português", "sv": "Svenska"}
LANGUAGE_COOKIE = "lang"
HERE = Path(__file__).parent / "translations"


@functools.cache
def catalogue(language: str) -> dict:
    """The strings of ``language`` (key -> text with ``{field}`` placeholders)."""
    if language not in LANGUAGES:
        raise ValueError(f"unknown language {language!r} (languages: {', '.join(LANGUAGES)})")
    with open(HERE / f"{language}.json", encoding="utf-8") as handle:
        return json.load(handle)


def translate(language: str, key: str, **fields) -> str:
    """The text of ``key`` in ``language`` with ``fields`` filled in."""
    return catalogue(language)[key].format(**fields)


def pick_language(request, default: str) -> str:
    """The phone's own choice, else its Accept-Language, else the table's ``default``."""
    chosen = request.cookies.get(LANGUAGE_COOKIE)
    if chosen in LANGUAGES:
        return chosen
    return request.accept_languages.best_match(list(LANGUAGES)) or default


# -- words for the game ----------------------------------------------------------


def colour_name(language: str, game: str, letter: str) -> str:
    return translate(language, f"colour.{game}.{letter}")


def _duel_option(language: str, move) -> str:
    """A Duel option in words, from the fields its Move decodes."""
    from core_ext.duel import COLOURS

    kind = move.kind
    t = functools.partial(translate, language)
    colour = functools.partial(colour_name, language, "duel")
    if kind in ("display", "draw", "stop", "nopay"):
        return t(f"option.{kind}", n=move.display)
    if kind == "sun":
        name = colour(COLOURS[move.colour])
        return t("option.sun_large", colour=name) if move.factory == 0 else t("option.sun", n=move.factory, colour=name)
    if kind == "moon":
        return t("option.moon", colour=colour(COLOURS[move.colour]))
    if kind == "chip":
        return t("option.chip", n=move.factory)
    if kind in ("keep", "under"):
        return t(f"option.{kind}", plate=move.plate)
    if kind == "place":
        return t("option.place", slot=move.slot, degrees=90 * move.rotation)
    if kind == "line":
        return t("option.floor") if move.line == 0 else t("option.line", n=move.line)
    if kind == "tile":
        row, column = move.cell
        return t("option.tile", row=row, column=column)
    if kind == "order":
        return t("option.order", colours=", ".join(colour(COLOURS[c]) for c in move.order))
    chips = " + ".join("/".join(colour(letter) for letter in face) for face in move.chips)
    return t("option.pay", chips=chips)


def _pavilion_option(language: str, move) -> str:
    """A Summer Pavilion option in words."""
    from core_ext.pavilion import COLOURS, STARS

    kind = move.kind
    t = functools.partial(translate, language)
    if kind in ("pass", "discard"):
        return t(f"option.pavilion.{kind}")
    if kind == "pay":
        return t("option.pavilion.pay", n=move.wilds)
    colour = colour_name(language, "pavilion", COLOURS[move.colour])
    if kind == "take":
        return t("option.pavilion.centre", colour=colour) if move.factory == 0 else t(
            "option.pavilion.take", n=move.factory, colour=colour)
    if kind == "place":
        return t("option.pavilion.place", colour=colour, star=t(f"star.{STARS[move.star]}"), space=move.space)
    return t(f"option.pavilion.{kind}", colour=colour)


OPTION_WORDS = {"duel": ("core_ext.duel", _duel_option), "pavilion": ("core_ext.pavilion", _pavilion_option)}


def option_label(language: str, game: str, notation: str) -> str:
    """An option in words (its notation stays beside it on the page)."""
    module, words = OPTION_WORDS[game]
    return words(language, importlib.import_module(module).Move.parse(notation))


def pending_label(language: str, game: str, pending: str) -> str:
    """What the pending decision asks for, in words."""
    key = f"pending.{game}.{pending}"
    return translate(language, key) if key in catalogue(language) else translate(language, "pending.other", kind=pending)


def _objective_key(found):
    from core_ext.duel import OBJECTIVE_LABELS, OBJECTIVES

    return f"objective.{OBJECTIVES[OBJECTIVE_LABELS.index(found.group(0))]}", {}


BREAKDOWN = (
    (re.compile(r"Rounds 1-(?P<last>\d)"), lambda found: ("breakdown.rounds", found.groupdict())),
    (re.compile(r"Score floor at (?P<n>\d)"), lambda found: ("breakdown.floor", found.groupdict())),
    (re.compile(r"All (?P<n>\d)s covered"), lambda found: ("breakdown.number", found.groupdict())),
    (re.compile(r"Leftover tiles"), lambda found: ("breakdown.leftover", {})),
    (re.compile(r"Star (?P<star>[A-Z]) complete"), lambda found: ("breakdown.star", {"star": found.group("star")})),
    (re.compile(r"Horizontal rows|Colourful rows|Vertical rows|Outer fields|Diagonals|Corner plates|Wild fields"
                r"|Special fields"), _objective_key),
)
"""The games' final scoring parts, matched to catalogue keys."""


def breakdown_label(language: str, label: str) -> str:
    """A part of the final scoring in words (unknown parts as the game names them)."""
    for pattern, key_of in BREAKDOWN:
        found = pattern.fullmatch(label)
        if found:
            key, fields = key_of(found)
            if "star" in fields:
                fields = {"star": translate(language, f"star.{fields['star']}")}
            return translate(language, key, **fields)
    return label


REFUSALS = (
    (re.compile(r"it is (?P<name>.+)'s decision, not"), "error.not_your_turn"),
    (re.compile(r"the game moved on"), "error.stale"),
    (re.compile(r"is not an option now"), "error.not_an_option"),
    (re.compile(r"the game is over"), "error.game_over"),
    (re.compile(r"there is nothing to undo"), "error.nothing_to_undo"),
    (re.compile(r"revealed hidden tiles or plates"), "error.undo_revealed"),
    (re.compile(r"nobody asked for an undo"), "error.no_undo_request"),
    (re.compile(r"the other player must answer"), "error.other_answers"),
    (re.compile(r"hints are turned off"), "error.hints_off"),
)
"""The session's refusal reasons, matched to catalogue keys."""


def refusal(language: str, reason: str) -> str:
    """A refusal of the table in the phone's language (unknown reasons quoted as given)."""
    for pattern, key in REFUSALS:
        found = pattern.search(reason)
        if found:
            return translate(language, key, **found.groupdict())
    return translate(language, "error.refused", reason=reason)
