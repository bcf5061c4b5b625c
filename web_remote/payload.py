"""The JSON a phone draws from: one snapshot's public view, in one language.

Every open event stream sends the same payload for a (version, language),
so it is built once and shared: with eight phones watching, a move
costs one build per language, not one per phone.
"""
import functools
import json
import threading

from firmware_py import games
from web_remote import i18n

HISTORY_SHOWN = 12


def build(snapshot, language: str) -> dict:
    """The phone's view of ``snapshot``: public state, seats, options and log in words.

    Secrets stay out: the join code, token digests and host code are in the
    snapshot but never here, nor a hint (it goes only to the seat that asked).
    """
    setup = snapshot.setup
    taken = snapshot.credentials.taken
    game = setup.game
    t = functools.partial(i18n.translate, language)
    first = max(0, len(snapshot.history) - HISTORY_SHOWN)
    names = i18n.seat_names(language, setup.seats)
    last = last_events(snapshot.last_events, game, snapshot.state)
    previews = [preview_events(events, game, snapshot.state) for events in snapshot.previews]
    told = [i18n.decision_words(language, game, events, names) for events in previews]
    return {
        "version": snapshot.version,
        "game_id": snapshot.credentials.key,
        "journal_game": snapshot.journal_game,
        "run": snapshot.run,
        "restarted": snapshot.resumed,
        "language": language,
        "game": game,
        "title": t(f"game.{game}"),
        "round": snapshot.state.get("round"),
        "rounds": games.spec(game).module.ROUNDS,
        "pending": snapshot.pending,
        "pending_label": i18n.pending_label(language, game, snapshot.pending),
        "current_player": snapshot.current_player,
        "seats": [
            {
                "name": names[index],
                "kind": seat.kind,
                "kind_label": t(f"kind.{seat.kind}"),
                "level": seat.level,
                "player": seat.player,
                "learning": seat.learning,
                "score": snapshot.scores[index],
                "taken": index in taken,
            }
            for index, seat in enumerate(setup.seats)
        ],
        "moves": len(snapshot.history),
        "history": [
            {"number": first + offset + 1, "seat": seat, "notation": notation,
             "label": i18n.option_label(language, game, notation)}
            for offset, (seat, notation) in enumerate(snapshot.history[first:])
        ],
        "last": None if not snapshot.history else {
            "seat": snapshot.history[-1][0], "notation": snapshot.history[-1][1],
            "events": last, "words": i18n.decision_words(language, game, last, names)},
        "options": [{"notation": option, "label": i18n.option_label(language, game, option),
                     "preview": sentences, "summary": i18n.preview_summary(language, game, events, names, sentences),
                     "events": events, "reversible": reversible}
                    for option, events, sentences, reversible
                    in zip(snapshot.options, previews, told, snapshot.reversible)],
        "objectives": [{"name": name, "label": t(f"objective.{name}"), "points": list(points)}
                       for name, points in snapshot.progress],
        "over": snapshot.over,
        "winners": list(snapshot.winners),
        "breakdown": [
            [{"label": i18n.breakdown_label(language, part["label"]), "points": part["points"]} for part in parts]
            for parts in snapshot.breakdown
        ],
        "ratings": [{"seat": row.seat, "player": row.player_id, "before": row.before.to_dict(),
                     "after": row.after.to_dict(),
                     "words": t("over.rating", name=names[row.seat], before=i18n.rating_text(language, row.before),
                                after=i18n.rating_text(language, row.after))}
                    for row in snapshot.ratings],
        "flash": None if snapshot.flash is None else {
            "seat": snapshot.flash[0], "message": i18n.refusal(language, snapshot.flash[1])},
        "undo_request": _undo_request(snapshot, language),
        "undo": [None if plan is None else undo_offer(plan, seat, game, names, language)
                 for seat, plan in enumerate(snapshot.undo_plans)],
        "step_back": snapshot.step_back,
        "hint": None if snapshot.hint is None else {"seat": snapshot.hint[0]},  # the move: GET /api/hint
        "settings": dict(snapshot.settings),
        "flags": {name: value for name, value in setup.flags},
        "state": games.spec(game).public(snapshot.state),
    }


def _undo_request(snapshot, language: str):
    """Who asks to take back which decision, and whose consent is still needed."""
    request = snapshot.undo_request
    if request is None:
        return None
    seat, notation = request.decision
    return {"seat": request.seat, "ply": request.ply, "decision_seat": seat, "notation": notation,
            "label": i18n.option_label(language, snapshot.setup.game, notation), "waiting": list(request.waiting),
            "agreed": list(request.agreed), "any_one": request.any_one}


def undo_offer(plan, seat: int, game: str, names, language: str) -> dict:
    """What an undo asked by ``seat`` would do now, in one sentence its Undo button shows before it asks
    (or why nothing can be undone), and who would have to agree, in another (None: nobody)."""
    if not plan.possible:
        return {"possible": False, "words": i18n.refusal(language, plan.refusal), "agree": None}
    t = functools.partial(i18n.translate, language)
    (first_seat, first_notation), later = plan.decisions[0], plan.decisions[1:]
    label = i18n.option_label(language, game, first_notation)
    if first_seat != seat:
        words = t("undo.offer.other", name=names[first_seat], label=label)
    elif not later:
        words = t("undo.offer.own", label=label)
    elif plan.any_one or not plan.waiting:
        words = t("undo.offer.computer", n=len(later), label=label)
    else:
        words = t("undo.offer.several", n=len(later), label=label)
    agree = None
    if plan.waiting:
        waiting = ", ".join(names[i] for i in plan.waiting)
        agree = t("undo.offer.one_of" if plan.any_one and len(plan.waiting) > 1 else "undo.offer.agree", names=waiting)
    return {"possible": True, "words": words, "agree": agree}


def hint(snapshot, seat: int, language: str):
    """The computer's suggestion for ``seat``, for that seat's phone only (None if it has none)."""
    if snapshot.hint is None or snapshot.hint[0] != seat:
        return None
    notation = snapshot.hint[1]
    return {"seat": seat, "notation": notation, "label": i18n.option_label(language, snapshot.setup.game, notation)}


PREVIEW_HIDDEN = frozenset(("chip_revealed", "display_refilled"))
"""Events a preview leaves out: they would show a face-down chip or an unseen stack plate."""


def _visible(events, game: str, state, hidden) -> list:
    """``events`` without those of the kinds ``hidden`` and without any that names a plate whose front
    nobody has seen in ``state`` (a drawn plate kept or returned while its back is up)."""
    unseen = games.spec(game).hidden_plates(state)
    return [event for event in events if event["event"] not in hidden and event.get("plate") not in unseen]


def preview_events(events, game: str, state) -> list:
    """What an option's preview may show, ``state`` being the position before it (``to_dict()``)."""
    return _visible(events, game, state, PREVIEW_HIDDEN)


def last_events(events, game: str, state) -> list:
    """What the last decision's events may show, ``state`` being the position after it (``to_dict()``)."""
    return _visible(events, game, state, frozenset())


class PayloadCache:
    """The encoded payloads of the newest version for each language."""

    def __init__(self):
        self._lock = threading.Lock()
        self._key = None
        self._encoded = {}

    def encoded(self, snapshot, language: str) -> str:
        """The payload as JSON text, built at most once per (version, language)."""
        key = snapshot.version
        with self._lock:
            if key != self._key:
                self._key, self._encoded = key, {}
            text = self._encoded.get(language)
        if text is None:
            text = json.dumps(build(snapshot, language), ensure_ascii=False, separators=(",", ":"))
            with self._lock:
                if key == self._key:
                    self._encoded[language] = text
        return text
