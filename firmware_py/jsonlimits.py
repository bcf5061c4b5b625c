"""JSON that comes from outside the table (phones, record files), read with bounded nesting.

Python's parser recurses once per level of ``[`` or ``{``, so a body of a
hundred thousand brackets would exhaust the stack; no document the table reads
needs more than a few levels. The nesting is measured on the text before it is
parsed, and NaN and Infinity (which JSON does not have) are refused, as are
strings with a lone surrogate escape (``"\\udfff"``): they are no text and
cannot be written as UTF-8, to the journal or to a page.
"""
import json
import re

MAX_DEPTH = 16

_STRINGS = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.S)
_BRACKETS = re.compile(r"[\[\]{}]")


class JSONRefused(ValueError):
    """Not JSON, or nested deeper than allowed; ``str()`` says which."""


def nesting(text: str) -> int:
    """How deep the arrays and objects of ``text`` nest (strings skipped), stopping early past MAX_DEPTH."""
    depth = deepest = 0
    for bracket in _BRACKETS.finditer(_STRINGS.sub("", text)):
        if bracket.group() in "[{":
            depth += 1
            deepest = max(deepest, depth)
            if deepest > MAX_DEPTH:
                break
        else:
            depth -= 1
    return deepest


def _no_constant(name):
    raise JSONRefused(f"{name} is not a JSON number")


def _check_text(value):
    """Refuse any string in ``value`` (keys too) that is not valid Unicode text."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise JSONRefused("a string holds a lone surrogate escape") from None
    elif isinstance(value, dict):
        for key, item in value.items():
            _check_text(key)
            _check_text(item)
    elif isinstance(value, list):
        for item in value:
            _check_text(item)


def loads(text, max_depth: int = MAX_DEPTH):
    """``json.loads(text)`` for untrusted text.

    :raise JSONRefused: not JSON, too deep, NaN/Infinity, or a lone surrogate in a string.
    """
    if isinstance(text, (bytes, bytearray)):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as error:
            raise JSONRefused(f"not UTF-8 text: {error}") from None
    if nesting(text) > max_depth:
        raise JSONRefused(f"nested deeper than {max_depth} levels")
    try:
        value = json.loads(text, parse_constant=_no_constant)
    except JSONRefused:
        raise
    except ValueError as error:  # JSONDecodeError, and integers longer than Python converts
        raise JSONRefused(f"not valid JSON: {error}") from None
    _check_text(value)
    return value
