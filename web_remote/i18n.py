"""Languages of the phone page: gettext catalogues, the choice per phone, and words for moves and refusals.

Strings are named by key (``web_remote/messages.py`` holds each key's English,
the msgid); the translations are gettext catalogues compiled from
``translations/<language>/LC_MESSAGES/messages.po`` (``make build`` compiles
them, ``make translations`` brings the ``.po`` files up to date with the
code). Counts follow each language's plural rules from Babel. A phone's
language is its own setting (the ``lang`` cookie) when it made one, else the
best match of its Accept-Language header, else the table's language.
"""
import functools
import gettext
import hashlib
import json
import re
from pathlib import Path

from babel import Locale
from babel.numbers import format_decimal
from babel.support import Translations

from core_ext.reasons import COMMON as COMMON_REASONS
from firmware_py import games, ratings
from firmware_py.session import MAX_NAME
from web_remote.messages import MESSAGES, Contextual, Plural

LANGUAGES = {"en": "English", "zh": "简体中文", "it": "Italiano", "pt": "Português", "sv": "Svenska"}
SOURCE_LANGUAGE = "en"  # the msgids are English: it needs no catalogue
LANGUAGE_COOKIE = "lang"
HERE = Path(__file__).parent / "translations"
PLURAL_SAMPLES = (0, 1, 2, 3, 5, 11, 21, 101, 1_000_000)  # a count of every plural category of our languages


@functools.cache
def translations(language: str) -> gettext.NullTranslations:
    """The compiled catalogue of ``language``. :raise ValueError: unknown language or catalogue not compiled."""
    if language not in LANGUAGES:
        raise ValueError(f"unknown language {language!r} (languages: {', '.join(LANGUAGES)})")
    if language == SOURCE_LANGUAGE:
        return gettext.NullTranslations()
    loaded = Translations.load(HERE, [language])
    if not isinstance(loaded, Translations):
        raise ValueError(f"the {language} catalogue is not compiled: run `make build`")
    return loaded


def _text(language: str, entry, count) -> str:
    catalogue = translations(language)
    if isinstance(entry, Plural):
        return catalogue.ngettext(entry.singular, entry.plural, count)
    if isinstance(entry, Contextual):
        return catalogue.pgettext(entry.context, entry.text)
    return catalogue.gettext(entry)


@functools.lru_cache(maxsize=8192)
def _template(language: str, key: str, count) -> str:
    """The catalogue's text of ``key`` in ``language`` (a plural's form for ``count``), looked up once: every
    update of the table puts dozens of texts in words for every phone."""
    return _text(language, MESSAGES[key], count)


def translate(language: str, key: str, **fields) -> str:
    """The text of ``key`` in ``language`` with ``fields`` filled in (``n`` is the count of a plural)."""
    count = fields.get("n", 1) if isinstance(MESSAGES[key], Plural) else 1
    return _template(language, key, count).format(**fields)


def seat_name(language: str, index: int, name: str = "", level=None) -> str:
    """What a seat is called wherever it is shown: a computer seat by its level ("Computer (hard)"), so two
    levels at one table are told apart, a person by their name, "Player N" (``index`` from 0) where a
    person's seat has none. Exports pass SOURCE_LANGUAGE: the English names are stable for spreadsheets."""
    if level is not None:
        return translate(language, "profile.computer", level=translate(language, f"level.{level}"))
    return name[:MAX_NAME] or translate(language, "seat.default", n=index + 1)


def seat_names(language: str, seats) -> list:
    """:func:`seat_name` of each of a setup's seats (``firmware_py.session.Seat``)."""
    return [seat_name(language, index, seat.name, seat.level if seat.kind == "ai" else None)
            for index, seat in enumerate(seats)]


@functools.cache
def catalogue_version(language: str) -> str:
    """A short digest of ``language``'s catalogue: it changes whenever a string does."""
    return hashlib.sha256(json.dumps(catalogue(language), sort_keys=True).encode()).hexdigest()[:12]


PAGE_ONLY = ("rules.", "player.", "people.", "export.", "learn.")
"""Strings only the server's pages show (the rules' long texts, the players' pages, a first game's
explanations): every page would carry them for nothing."""


@functools.cache
def catalogue(language: str) -> dict:
    """Every string of ``language`` for the page scripts: key -> text, or for a plural,
    CLDR plural category -> text (the script picks one with ``Intl.PluralRules``)."""
    rule = Locale.parse(language).plural_form
    strings = {}
    for key, entry in MESSAGES.items():
        if key.startswith(PAGE_ONLY):
            continue
        if isinstance(entry, Plural):
            strings[key] = {rule(n): _text(language, entry, n) for n in PLURAL_SAMPLES}
        else:
            strings[key] = _text(language, entry, 1)
    return strings


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


OPTION_WORDS = {"duel": _duel_option, "pavilion": _pavilion_option}


@functools.lru_cache(maxsize=4096)
def option_label(language: str, game: str, notation: str) -> str:
    """An option in words (its notation stays beside it on the page); kept, as a game offers the same few
    hundred options over and over."""
    return OPTION_WORDS[game](language, games.spec(game).parse(notation))


def pending_label(language: str, game: str, pending: str) -> str:
    """What the pending decision asks for, in words."""
    key = f"pending.{game}.{pending}"
    return translate(language, key) if key in MESSAGES else translate(language, "pending.other", kind=pending)


def _objective_key(found):
    from core_ext.duel import OBJECTIVE_LABELS, OBJECTIVES

    return f"objective.{OBJECTIVES[OBJECTIVE_LABELS.index(found.group(0))]}", {}


BREAKDOWN = (
    (re.compile(r"Rounds 1-(?P<last>\d)"), lambda found: ("breakdown.rounds", found.groupdict())),
    (re.compile(r"Score floor at (?P<n>\d)"), lambda found: ("breakdown.floor", found.groupdict())),
    (re.compile(r"All (?P<n>\d)s covered"), lambda found: ("breakdown.number", found.groupdict())),
    (re.compile(r"Leftover tiles"), lambda found: ("breakdown.leftover", {})),
    (re.compile(r"Star (?P<star>[A-Z]) complete"), lambda found: (f"breakdown.star.{found.group('star')}", {})),
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
            return translate(language, key, **fields)
    return label


REFUSALS = (
    (re.compile(r"it is (?P<name>.+)'s decision, not"), "error.not_your_turn"),
    (re.compile(r"the game moved on"), "error.stale"),
    (re.compile(r"is not an option now"), "error.not_an_option"),
    (re.compile(r"the game is over"), "error.game_over"),
    (re.compile(r"the game is not over yet"), "error.not_over"),
    (re.compile(r"there is nothing to undo"), "error.nothing_to_undo"),
    (re.compile(r"nothing to step back to"), "error.nothing_to_step_back"),
    (re.compile(r"lies behind one that revealed"), "error.undo_behind_reveal"),
    (re.compile(r"revealed hidden tiles or plates"), "error.undo_revealed"),
    (re.compile(r"nobody asked for an undo"), "error.no_undo_request"),
    (re.compile(r"the undo request waits for (?P<names>.+), not (?P<seat>.+)$"), "error.not_asked"),
    (re.compile(r"an undo request is already open"), "error.undo_open"),
    (re.compile(r"hints are turned off"), "error.hints_off"),
    (re.compile(r"this table keeps no players"), "players.no_journal"),
)
"""The session's refusal reasons, matched to catalogue keys."""


def format_number(language: str, value) -> str:
    """A count or score in the language's digits and signs (a whole number unless it has a fraction)."""
    return format_decimal(value, format="#,##0.#", locale=language)


def format_points(language: str, points: int) -> str:
    """A change of score with its sign ("+7", "−3", "0"), in the language's digits."""
    return format_decimal(points, format="+#,##0;−#,##0", locale=language) if points else format_number(language, 0)


WHY_COLOURS = ("colour", "holds", "takes")
"""Fields of a reason (``Game.why_not``) that hold a colour letter."""


def why_text(language: str, game: str, reason, names) -> str:
    """A rules core's reason why a move is not legal, as one short sentence ("Line 3 already holds red.")."""
    fields = dict(reason.fields)
    code = reason.code
    key = f"why.{code}" if code in COMMON_REASONS else f"why.{game}.{code}"
    for name in WHY_COLOURS:
        if name in fields:
            fields[name] = colour_name(language, game, fields[name])
    if game == "duel" and code == "cell_other_colour":
        fields["space"] = colour_name(language, game, fields["space"])
    if "leftovers" in fields:
        fields["leftovers"] = ", ".join(colour_name(language, game, letter) for letter in fields["leftovers"])
    if "current" in fields:
        fields["current"] = names[fields["current"]]
    if "pending" in fields:
        fields["pending"] = pending_label(language, game, fields["pending"])
    if fields.get("factory") == 0 and (game, code) in WHY_VARIANTS:
        key += WHY_VARIANTS[game, code]
    if "have" in fields:
        fields["n"] = fields["have"]
    return translate(language, key, **fields)


WHY_VARIANTS = {("duel", "sun_empty"): "_large", ("pavilion", "factory_empty"): "_centre",
                ("pavilion", "colour_not_in_factory"): "_centre"}
"""Reasons told in another sentence for factory 0 (Duel's large factory, Summer Pavilion's centre)."""


def rating_text(language: str, rating) -> str:
    """A rating as players read it: its mu to one decimal, in the language's digits ("27,3" in Italian)."""
    return format_decimal(rating.mu, format="0.0", locale=language)


def uncertainty_text(language: str, rating) -> str:
    """A rating's uncertainty as players read it beside the rating: "±8.0" ("±8,0" in Italian)."""
    return "±" + format_decimal(rating.sigma, format="0.0", locale=language)


def settled_uncertainty_text(language: str) -> str:
    """The uncertainty under which a rating is no longer new, as the ratings tables' notes quote it."""
    return format_number(language, ratings.SETTLED_SIGMA)


def refusal(language: str, reason: str) -> str:
    """A refusal of the table in the phone's language (unknown reasons quoted as given)."""
    for pattern, key in REFUSALS:
        found = pattern.search(reason)
        if found:
            return translate(language, key, **found.groupdict())
    return translate(language, "error.refused", reason=reason)


# -- what a decision did ------------------------------------------------------------


def _event_fields(language: str, game: str, event: dict, names) -> dict:
    """The fields of a core event (docs/notation.md) as its sentence names them; ``n`` is the count
    that picks the plural form."""
    fields = dict(event)
    if event.get("player") is not None:
        fields["name"] = names[event["player"]]
    if "colour" in event:
        fields["colour"] = colour_name(language, game, event["colour"])
    if "count" in event:
        fields["n"] = event["count"]
    if "cell" in event:
        fields["row"], fields["column"] = event["cell"]
    if "objective" in event:
        fields["objective"] = translate(language, f"objective.{event['objective']}")
    if "space" in event:
        fields["star"], fields["space"] = translate(language, f"star.{event['space'][0]}"), event["space"][1]
    if "star" in event and "space" not in event:
        fields["star"] = translate(language, f"star.{event['star']}")
    if "order" in event:
        fields["n"] = len(event["order"])
        fields["colours"] = ", ".join(colour_name(language, game, letter) for letter in event["order"])
    counted = EVENT_COUNTS.get(event["event"])
    if counted is not None:
        fields["n"] = counted(event)
    return fields


EVENT_COUNTS = {
    "penalty": lambda event: -event["points"],
    "plate_drawn": lambda event: -event["points"],
    "chips_paid": lambda event: len(event["chips"]),
    "tile_placed": lambda event: event["wilds"],
}
"""Events whose sentence counts something other than ``count``: points lost, chips, wild tiles."""

EVENT_VARIANTS = {
    ("duel", "sun_taken"): lambda event: "_large" if event["factory"] == 0 else "",
    ("duel", "plate_drawn"): lambda event: "_cost" if event["points"] else "",
    ("duel", "moon_stacked"): lambda event: "" if event["order"] else "_none",
    ("duel", "tiles_broken"): lambda event: "_tower" if event["to_tower"] else "",
    ("duel", "penalty"): lambda event: "_start_tile" if event["start_tile"] else "",
    ("pavilion", "tiles_taken"): lambda event: "_centre" if event["factory"] == 0 else "",
    ("pavilion", "tile_placed"): lambda event: "_wilds" if event["wilds"] else "",
    ("pavilion", "structure_completed"):
        lambda event: "_" + {"P": "pillar", "S": "statue", "W": "window"}[event["structure"][0]],
}
"""Events told in another sentence when a field says so (the centre, a cost, a structure's kind)."""

QUIET_EVENTS = {
    "line_filled": lambda event: event["line"] == 0,  # straight to the broken tiles: tiles_broken tells it
    "penalty": lambda event: not event["points"],
    "objective_scored": lambda event: not event["points"],
    "tiles_discarded": lambda event: not event["count"],  # nothing was left in the hand
}
"""Events not worth a sentence when they change nothing or repeat the next one."""


def event_key(game: str, event: dict):
    """The catalogue key of an event's sentence (every kind of both games has one), or None when
    :data:`QUIET_EVENTS` leaves it out."""
    kind = event["event"]
    if kind == "game_over":
        return "event.game_over"
    quiet = QUIET_EVENTS.get(kind)
    if quiet is not None and quiet(event):
        return None
    variant = EVENT_VARIANTS.get((game, kind))
    return f"event.{game}.{kind}{variant(event) if variant else ''}"


ENDINGS = frozenset(("round_ended", "game_over"))
"""Events a preview always tells: a decision that ends the round or the game is not like the others."""


def preview_summary(language: str, game: str, events, names, told) -> str:
    """What an option would do, short enough for the action bar of a small phone (the board draws where
    its tiles go): the points it changes for each seat, then whether it ends the round or the game; an
    option that does neither is told by its own first sentence (``told``: the events' sentences, as
    :func:`decision_words` gives them)."""
    changes = {}
    for event in events:
        if event.get("points") and event.get("player") is not None:
            changes[event["player"]] = changes.get(event["player"], 0) + event["points"]
    parts = []
    if any(changes.values()):
        listed = ", ".join(f"{names[seat]} {points:+d}" for seat, points in changes.items() if points)
        parts.append(translate(language, "preview.points", changes=listed))
    for event in events:
        if event["event"] in ENDINGS:
            parts.append(translate(language, event_key(game, event), **_event_fields(language, game, event, names)))
    return " ".join(parts or told[:1])


def decision_words(language: str, game: str, events, names) -> list:
    """What a decision did, one whole sentence per event worth telling (``names``: the seats' names)."""
    sentences = []
    for event in events:
        key = event_key(game, event)
        if key is None:
            continue
        sentence = translate(language, key, **_event_fields(language, game, event, names))
        if sentence not in sentences:
            sentences.append(sentence)
    return sentences
