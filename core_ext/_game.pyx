"""The part of the ``Game`` API that both games share, written once.

Each game's ``Game`` derives from this class and fills in the hooks through
which it reaches its own C state: the options of the pending decision, a
legality test, the interned ``Move`` of a code, playing a code while recording
its events, the pending decision's index, a random playout and reading a saved
state. It names its own tables as class attributes: ``_move_type`` (its
``Move``), ``_title`` (for messages: "an Azul Duel"), ``_reasons`` (its module
of why-not explanations), ``_kind`` and ``_format_version`` (its saved-game
envelope), ``_pending_names`` and ``_event_kinds``, ``_scoring_events``,
``_event_fields`` (what a push did).
"""
from libc.stdint cimport uint64_t

from core_ext._events cimport EventLog, event_dicts

from core_ext import envelope, reasons
from core_ext._shared import seed_state
from core_ext.errors import IllegalMoveError, InvalidMoveError

OPTIONS_SHOWN = 12
"""How many options an illegal-move message lists before "..."."""


cdef class Game:
    cdef int _options(self, int* out) noexcept:
        return 0

    cdef bint _is_legal(self, int code) noexcept:
        return False

    cdef object _move(self, int code):
        return None

    cdef void _apply(self, int code, EventLog* log) noexcept:
        pass

    cdef int _pending_index(self) noexcept:
        return 0

    cdef void _play_out(self, uint64_t* chooser) noexcept nogil:
        pass

    cdef void _read(self, reader) except *:
        raise NotImplementedError("a game's Game class reads its own saved state")

    def __copy__(self):
        return self.copy()

    # -- status -------------------------------------------------------------

    @property
    def pending(self):
        """The pending decision's kind, one of the game module's ``PENDING``."""
        return self._pending_names[self._pending_index()]

    def is_over(self):
        return self.pending == "over"

    def winner(self):
        """The single winner, or None while running or on a shared victory."""
        winners = self.winners()
        return winners[0] if len(winners) == 1 else None

    # -- moves --------------------------------------------------------------

    def legal_codes(self):
        cdef int options[MOST_OPTIONS]
        cdef int n = self._options(options), i
        return [options[i] for i in range(n)]

    def legal_moves(self):
        """The options of the pending decision (empty only when the game is over)."""
        cdef int options[MOST_OPTIONS]
        cdef int n = self._options(options), i
        return [self._move(options[i]) for i in range(n)]

    def push_code(self, int code):
        """Play the option ``code`` and return what it did (see :meth:`push`);
        raises :class:`IllegalMoveError` if it is not legal now."""
        cdef EventLog log
        if not self._is_legal(code):
            raise IllegalMoveError(self._illegal_message(code))
        log.n = 0
        self._apply(code, &log)
        return event_dicts(&log, self._event_kinds, self._scoring_events, self._event_fields)

    def push(self, move):
        """Play a :class:`Move` or its notation; the game is unchanged if this raises.

        Returns what the decision did, as a list of event dicts: first the
        decision itself, then everything the game resolved by itself after it,
        such as single-option decisions that follow (docs/notation.md, "What a
        push did").
        """
        return self.push_code(self._move_of(move).code)

    def why_not(self, move, seat=None):
        """Why ``move`` (a :class:`Move` or its notation) cannot be played now by ``seat`` (None: by
        the seat that decides): a :class:`core_ext.reasons.Reason`, or None when it can."""
        return reasons.why_not(self, self._move_of(move), seat, self._reasons.explain)

    def random_playout(self, seed=None):
        """Play to the end in place with uniformly random options (in C); returns the scores."""
        cdef uint64_t chooser = seed_state(seed)
        with nogil:
            self._play_out(&chooser)
        return self.scores()

    def _move_of(self, move):
        """``move`` as this game's ``Move``: itself, or parsed from its notation string."""
        if isinstance(move, str):
            return self._move_type.parse(move)
        if not isinstance(move, self._move_type):
            raise InvalidMoveError(f"expected {self._title} Move or its notation, not {type(move).__name__}")
        return move

    def _illegal_message(self, int code):
        """Why ``code`` cannot be pushed now, with the options the pending decision has."""
        try:
            text = str(self._move_type.from_code(code))
        except InvalidMoveError:
            text = f"code {code}"
        if self.is_over():
            return f"{text} is not legal: the game is over"
        options = [str(m) for m in self.legal_moves()]
        shown = ", ".join(options[:OPTIONS_SHOWN]) + (", ..." if len(options) > OPTIONS_SHOWN else "")
        return (f"{text} is not legal now: player {self.current_player} has a {self.pending!r} "
                f"decision pending, with options {shown}")

    # -- saved games ----------------------------------------------------------

    def to_json(self):
        """The whole state, RNG included, in the shared envelope (docs/notation.md)."""
        return envelope.dump(self._kind, self._format_version, self.to_dict())

    @classmethod
    def from_json(cls, text):
        """Load a saved game; raises :class:`InvalidStateError` naming what is wrong.

        A position whose pending decision has exactly one option that the game
        plays by itself continues automatically, as after any move.
        """
        reader = envelope.load(text, cls._kind, cls._format_version)
        cdef Game game = cls.__new__(cls)
        game._read(reader)
        return game
