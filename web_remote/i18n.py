"""Languages of the phone page: catalogues, the choice per phone, and words for moves and refusals.

Each language is one JSON catalogue in ``translations/`` with the same keys as
English. A phone's language is its own setting (the ``lang`` cookie) when it
made one, else the best match of its Accept-Language header, else the table's
language.
"""
import functools
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


def colour_name(language: str, letter: str) -> str:
    return translate(language, f"colour.{letter}")


def _colours(language: str, letters) -> str:
    return ", ".join(colour_name(language, letter) for letter in letters)


def _chip(language: str, face: str) -> str:
    return "/".join(colour_name(language, letter) for letter in face)


def _duel_option(language: str, move) -> str:
    """A Duel option in words, from the fields its Move decodes."""
    from core_ext.duel import COLOURS

    kind = move.kind
    t = functools.partial(translate, language)
    if kind in ("display", "draw", "stop", "nopay"):
        return t(f"option.{kind}", n=move.display)
    if kind == "sun":
        colour = colour_name(language, COLOURS[move.colour])
        return t("option.sun_large", colour=colour) if move.factory == 0 else t("option.sun", n=move.factory, colour=colour)
    if kind == "moon":
        return t("option.moon", colour=colour_name(language, COLOURS[move.colour]))
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
        return t("option.order", colours=_colours(language, [COLOURS[c] for c in move.order]))
    return t("option.pay", chips=" + ".join(_chip(language, face) for face in move.chips))


def option_label(language: str, game: str, notation: str) -> str:
    """An option in words; games without a description here show their notation."""
    if game == "duel":
        from core_ext.duel import Move

        return _duel_option(language, Move.parse(notation))
    return notation


def pending_label(language: str, game: str, pending: str) -> str:
    """What the pending decision asks for, in words."""
    key = f"pending.{game}.{pending}"
    return translate(language, key) if key in catalogue(language) else translate(language, "pending.other", kind=pending)


def _breakdown_keys() -> dict:
    from core_ext.duel import OBJECTIVE_LABELS, OBJECTIVES

    keys = {label: f"objective.{name}" for name, label in zip(OBJECTIVES, OBJECTIVE_LABELS)}
    keys.update({"Rounds 1-5": "breakdown.rounds", "Score floor at 0": "breakdown.floor"})
    return keys


def breakdown_label(language: str, label: str) -> str:
    """A part of the final scoring in words (unknown parts as the game names them)."""
    key = _breakdown_keys().get(label)
    return translate(language, key) if key else label


REFUSALS = (
    (re.compile(r"it is (?P<name>.+)'s decision, not"), "error.not_your_turn"),
    (re.compile(r"the game moved on"), "error.stale"),
    (re.compile(r"is not an option now"), "error.not_an_option"),
    (re.compile(r"the game is over"), "error.game_over"),
    (re.compile(r"there is nothing to undo"), "error.nothing_to_undo"),
    (re.compile(r"revealed hidden tiles or plates"), "error.undo_revealed"),
    (re.compile(r"nobody asked for an undo"), "error.no_undo_request"),
    (re.compile(r"the other player must answer"), "error.other_answers"),
)
"""The session's refusal reasons, matched to catalogue keys."""


def refusal(language: str, reason: str) -> str:
    """A refusal of the table in the phone's language (unknown reasons quoted as given)."""
    for pattern, key in REFUSALS:
        found = pattern.search(reason)
        if found:
            return translate(language, key, **found.groupdict())
    return translate(language, "error.refused", reason=reason)
