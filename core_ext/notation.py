"""Helpers shared by both games' move notations (documented in docs/notation.md)."""
import re

from core_ext.errors import InvalidMoveError


def match(pattern: "re.Pattern", text, what: str) -> "re.Match":
    """Full-match ``text`` against one move form, or raise :class:`InvalidMoveError` naming it."""
    if not isinstance(text, str):
        raise InvalidMoveError(f"{what} notation must be a string, not {type(text).__name__}")
    found = pattern.fullmatch(text.strip())
    if found is None:
        raise InvalidMoveError(f"{text!r} is not valid {what} notation")
    return found


def letters_to_indices(letters: str, alphabet: str, what: str) -> tuple:
    """Map each letter of ``letters`` to its index in ``alphabet`` (case-insensitive)."""
    out = []
    for letter in letters.upper():
        index = alphabet.find(letter)
        if index < 0:
            raise InvalidMoveError(f"{letter!r} is not a {what} (expected one of {alphabet})")
        out.append(index)
    return tuple(out)
