"""Errors raised by the rules core.

Every error subclasses :class:`ValueError`, so callers that only care about
"bad input" can catch one type, while the table runtime and the phone remote
can tell a typo (:class:`InvalidMoveError`) from a move that is well formed
but not allowed now (:class:`IllegalMoveError`). A game that raised one of
these is unchanged.
"""


class RulesError(ValueError):
    """Root of the rules core's errors."""


class InvalidMoveError(RulesError):
    """Move notation that cannot be parsed."""


class IllegalMoveError(RulesError):
    """A well-formed move that is not among the pending decision's options."""


class InvalidStateError(RulesError):
    """Saved-game JSON that is malformed, of another game or version, or inconsistent."""
