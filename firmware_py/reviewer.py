"""The game review: after a game ends, every decision of a human seat is judged by the computer.

One thread does it, at nice 19 (the lowest priority), so it takes little
from play, the LEDs and the phones; the search it runs spends most of its
time in C without the GIL. Only finished games are reviewed. Each
decision's result (the option the search prefers and the points the one
played lost, see ``core_ext.ai.review``) goes into the journal as soon as it
is known, so a restart loses at most the decision in progress: on start the
reviewer resumes every finished game whose review is not complete.
"""
import logging
import os
import threading

from firmware_py.journal import DamagedGame, JournalError
from firmware_py.records import RecordError, replay

log = logging.getLogger(__name__)

HUMAN_KINDS = ("rig", "phone")
"""Seat kinds whose decisions are reviewed (the computer's own are not)."""


def lowest_priority():
    """Give the calling thread nice 19, the lowest CPU priority (Linux: a thread id; elsewhere best effort).

    Not ``SCHED_IDLE``: the thread holds the GIL between its C parts, and a thread
    that other programs' load could keep off the CPU indefinitely would then stall
    the table's own threads; at nice 19 it still gets a small share of a busy core.
    """
    try:
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 19)
    except (AttributeError, OSError):
        log.info("the game review runs at normal priority here")


class Reviewer:
    """Reviews the journal's finished games on a background thread; wake it with :meth:`notice`.

    ``iterations`` and ``samples`` are the budget of each decision (defaults:
    ``core_ext.ai.review``'s); ``assess`` replaces the reviewing function
    (``assess(game, notation, *, iterations, samples, seed, cancel)``).
    """

    def __init__(self, journal, *, iterations=None, samples=None, assess=None):
        self._journal = journal
        self._budget = {name: value for name, value in (("iterations", iterations), ("samples", samples))
                        if value is not None}
        self._assess = assess
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread = None
        self.idle = threading.Event()  # set while nothing is left to review (for tests and the doctor)

    def start(self):
        """Start the thread; it first resumes every review left unfinished (idempotent)."""
        if self._thread is None:
            self._wake.set()
            self._thread = threading.Thread(target=self._run, name="review", daemon=True)
            self._thread.start()
        return self

    def notice(self, snapshot):
        """Session subscriber: a game that just ended is reviewed (cheap: it only wakes the thread)."""
        if snapshot.over:
            self.idle.clear()
            self._wake.set()

    def close(self, timeout=5.0):
        """Stop reviewing (the decision in progress is dropped and done again on the next start)."""
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None

    def _run(self):
        lowest_priority()
        while not self._stop.is_set():
            self._wake.clear()
            try:
                for game_id in self._journal.games_to_review():
                    if self._stop.is_set():
                        return
                    self.review_game(game_id)
            except JournalError as error:
                log.warning("the game review stopped: %s", error)
            if not self._wake.is_set():
                self.idle.set()
            self._wake.wait()

    def review_game(self, game_id: int):
        """Review every decision of a human seat in a finished game not reviewed yet, then mark it complete.

        Stops without marking it when the reviewer is closed or a decision is taken back meanwhile.
        :raise JournalError: the journal cannot be written.
        """
        if self._assess is None:
            from core_ext.ai.review import assess

            self._assess = assess
        try:
            record = self._journal.export(game_id)
            positions = replay(record)
        except (DamagedGame, RecordError, KeyError) as error:
            log.warning("game %s is not reviewed: %s", game_id, error)
            self._journal.finish_review(game_id)  # what cannot be read will not be read on the next try either
            return
        humans = {seat for seat, kind in enumerate(s.kind for s in record.setup.seats) if kind in HUMAN_KINDS}
        for decision_id, ply, seat, notation, preferred, _ in self._journal.review_rows(game_id):
            if seat not in humans or preferred is not None:
                continue
            if ply > len(record.moves) or record.moves[ply - 1] != notation:
                return  # the line changed since the export: the game is taken up again later
            try:
                found = self._assess(positions[ply - 1], notation, seed=decision_id, cancel=self._stop,
                                     **self._budget)
            except ValueError as error:
                log.warning("game %s, decision %s (%s) is not reviewed: %s", game_id, ply, notation, error)
                continue
            if self._stop.is_set() or not self._journal.keep_review(decision_id, found.preferred, found.loss):
                return
        self._journal.finish_review(game_id)
