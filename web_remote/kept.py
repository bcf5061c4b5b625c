"""Answers anyone may ask for, worked out once until the journal's results change.

The players' list and pages, the past games and their replays are open to
every phone and to anyone on the Wi-Fi. Worked out at each asking, a crowd
(or a stranger) asking again and again would take the CPU that carries the
moves. What they show changes only when the journal's results do (a game
started, ended or stopped, a profile or a rating changed: the journal's
``results_version``, which the moves of a game that goes on leave alone) or
the table's brightness and palette do, so each answer is kept until then:
asking again costs a lookup. Answers to a request carrying a seat's or the
host's token are never kept, nor refusals, nor an answer marked ``no-store``
(a review still under way).
"""
import collections
import functools
import threading

from flask import Response, current_app, request

from web_remote import guards

KEPT_ANSWERS = 64  # answers kept at most (the page sizes grow with the journal); the least recently asked goes first


class _Answers:
    """One app's kept answers: (endpoint, path, language, settings) -> (journal, its results version, answer)."""

    def __init__(self):
        self.kept = collections.OrderedDict()
        self.lock = threading.Lock()

    def get(self, key, journal, version):
        """The answer kept for ``key`` at this journal's ``version``, None when there is none."""
        with self.lock:
            known = self.kept.get(key)
            if known is None or known[0] is not journal or known[1] != version:
                return None
            self.kept.move_to_end(key)
            return known[2]

    def keep(self, key, journal, version, answer: tuple):
        with self.lock:
            self.kept[key] = (journal, version, answer)
            self.kept.move_to_end(key)
            while len(self.kept) > KEPT_ANSWERS:
                self.kept.popitem(last=False)


def _kept_as(response: Response) -> tuple:
    """What a kept answer is made again from: its body, its status and its headers but the length."""
    headers = [(name, value) for name, value in response.headers.items() if name.lower() != "content-length"]
    return response.get_data(), response.status_code, headers


def _kept(view, version_of):
    """``view`` with its answers kept per path (with its query), language and table settings, for as long as
    ``version_of(journal, the view's arguments)`` stays the same."""

    @functools.wraps(view)
    def kept_answer(*args, **kwargs):
        if request.headers.get(guards.SEAT_HEADER) or request.headers.get(guards.HOST_HEADER):
            return view(*args, **kwargs)
        answers = current_app.extensions.setdefault("azul_kept_answers", _Answers())
        session = guards.service().session
        journal = session.journal
        version = None if journal is None else version_of(journal, kwargs)
        key = (request.endpoint, request.full_path, guards.language(), session.snapshot.settings)
        known = answers.get(key, journal, version)
        if known is None:
            response = current_app.make_response(view(*args, **kwargs))
            if response.status_code != 200 or response.is_streamed or "no-store" in response.cache_control:
                return response
            known = _kept_as(response)
            answers.keep(key, journal, version, known)
        body, status, headers = known
        answer = Response(body, status=status, headers=headers)
        if "ETag" not in answer.headers:
            answer.add_etag()
        return answer.make_conditional(request)

    return kept_answer


def until_results_change(view):
    """A view decorator: the view's answer is worked out once per path (with its query), language and table
    settings, and kept until the journal's results change; with an ETag, so a phone asking again gets a 304."""
    return _kept(view, lambda journal, _: journal.results_version)


def until_the_game_changes(view):
    """:func:`until_results_change` for a view of the one game its ``game_id`` names: while that game is being
    played, its answer is kept only until the next move."""

    def version(journal, arguments):
        game_id = arguments["game_id"]
        found = journal.status(game_id) if game_id < 2 ** 63 else None  # beyond SQLite's integers: no game
        return journal.results_version, journal.version if found and found[0] == "running" else None

    return _kept(view, version)
