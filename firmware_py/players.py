"""The computer at the table: AI seats and hints, thinking off the session thread.

The session asks for a move (or a hint) with the game copied at one version;
the search runs on a worker thread and its answer comes back as an ordinary
command carrying that version, so an answer that arrives after the game moved
on, or was replaced, is refused like any stale input. A new game cancels
every search in progress.
"""
import threading

HINT_LEVEL = "normal"


class Thinker:
    """Runs AI searches on worker threads; each can be cancelled."""

    def __init__(self, choose=None):
        self._choose = choose
        self._lock = threading.Lock()
        self._running = {}  # key -> cancel event

    def _search(self):
        if self._choose is None:
            from core_ext import ai

            self._choose = ai.choose
        return self._choose

    def think(self, key, game, level: str, deliver, seed=None):
        """Search ``game`` at ``level`` and call ``deliver(move)`` unless cancelled; one search per ``key``."""
        with self._lock:
            if key in self._running:
                return
            cancel = threading.Event()
            self._running[key] = cancel
        choose = self._search()

        def work():
            try:
                move = choose(game, level=level, seed=seed, cancel=cancel)
            finally:
                with self._lock:
                    self._running.pop(key, None)
            if not cancel.is_set():
                deliver(move)

        threading.Thread(target=work, name=f"ai-{key}", daemon=True).start()

    def cancel_all(self):
        with self._lock:
            for cancel in self._running.values():
                cancel.set()
            self._running.clear()
