"""The JSON envelope shared by both games' saved states.

A saved game is one JSON object::

    {"format": "azul-table", "game": "duel", "version": 1, "state": {...}}

``state`` belongs to the game module. :class:`StateReader` reads it field by
field and turns every type or range problem into an :class:`InvalidStateError`
that names the offending field, so a game's ``from_json`` never has to
validate by hand.
"""
import json

from core_ext.errors import InvalidStateError

FORMAT = "azul-table"


def dump(game: str, version: int, state: dict) -> str:
    """Serialize one game's state inside the envelope (compact, stable key order)."""
    return json.dumps(
        {"format": FORMAT, "game": game, "version": version, "state": state},
        separators=(",", ":"),
        sort_keys=True,
    )


def load(text, game: str, version: int) -> "StateReader":
    """Parse ``text`` and check the envelope; returns a reader over its ``state``."""
    if isinstance(text, (bytes, bytearray)):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise InvalidStateError(f"saved game is not UTF-8: {exc}") from None
    if not isinstance(text, str):
        raise InvalidStateError(f"saved game must be JSON text, not {type(text).__name__}")
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InvalidStateError(f"saved game is not valid JSON: {exc}") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise InvalidStateError(f"not an {FORMAT} saved game (missing \"format\": \"{FORMAT}\")")
    if doc.get("game") != game:
        raise InvalidStateError(f"saved game is for {doc.get('game')!r}, not {game!r}")
    if doc.get("version") != version:
        raise InvalidStateError(
            f"saved {game} format version {doc.get('version')!r} is not supported (expected {version})"
        )
    return StateReader(doc.get("state"), "state")


class StateReader:
    """Typed, range-checked access to one JSON object of a saved state."""

    __slots__ = ("_obj", "_path", "_seen")

    def __init__(self, obj, path: str):
        if not isinstance(obj, dict):
            raise InvalidStateError(f"{path} must be an object")
        self._obj = obj
        self._path = path
        self._seen = set()

    def _get(self, key):
        if key not in self._obj:
            raise InvalidStateError(f"{self._path}.{key} is missing")
        self._seen.add(key)
        return self._obj[key]

    def _fail(self, key, what):
        raise InvalidStateError(f"{self._path}.{key} {what}")

    def int(self, key, lo, hi):
        """An integer in [lo, hi]."""
        value = self._get(key)
        if isinstance(value, bool) or not isinstance(value, int):
            self._fail(key, "must be an integer")
        if not lo <= value <= hi:
            self._fail(key, f"must be between {lo} and {hi}, not {value}")
        return value

    def bool(self, key):
        value = self._get(key)
        if not isinstance(value, bool):
            self._fail(key, "must be true or false")
        return value

    def str(self, key, choices=None):
        """A string, optionally one of ``choices``."""
        value = self._get(key)
        if not isinstance(value, str):
            self._fail(key, "must be a string")
        if choices is not None and value not in choices:
            self._fail(key, f"must be one of {sorted(choices)}, not {value!r}")
        return value

    def hex64(self, key):
        """A 64-bit unsigned integer written as a hex string (JSON numbers lose bits past 2**53)."""
        value = self._get(key)
        try:
            number = int(value, 16) if isinstance(value, str) else -1
        except ValueError:
            number = -1
        if not 0 <= number < 1 << 64:
            self._fail(key, "must be a 64-bit hex string")
        return number

    def ints(self, key, length, lo, hi):
        """A list of ``length`` integers (any length if None), each in [lo, hi]."""
        value = self._get(key)
        if not isinstance(value, list):
            self._fail(key, "must be a list")
        if length is not None and len(value) != length:
            self._fail(key, f"must have {length} entries, not {len(value)}")
        for i, item in enumerate(value):
            if isinstance(item, bool) or not isinstance(item, int) or not lo <= item <= hi:
                self._fail(f"{key}[{i}]", f"must be an integer between {lo} and {hi}")
        return value

    def list(self, key, length=None):
        """A list of raw values (for nested structures read with :meth:`item`)."""
        value = self._get(key)
        if not isinstance(value, list):
            self._fail(key, "must be a list")
        if length is not None and len(value) != length:
            self._fail(key, f"must have {length} entries, not {len(value)}")
        return value

    def object(self, key):
        """A nested object, as a reader of its own."""
        return StateReader(self._get(key), f"{self._path}.{key}")

    def objects(self, key, length=None):
        """A list of nested objects, as readers."""
        return [StateReader(item, f"{self._path}.{key}[{i}]") for i, item in enumerate(self.list(key, length))]

    def has(self, key):
        """Whether ``key`` is present (for a derived field that older files lack)."""
        return key in self._obj

    def done(self):
        """Reject keys that were never read: a typo in a hand-written position must not pass silently."""
        extra = set(self._obj) - self._seen
        if extra:
            raise InvalidStateError(f"{self._path} has unknown keys: {', '.join(sorted(extra))}")


def hex64(value: int) -> str:
    """The JSON form read back by :meth:`StateReader.hex64`."""
    return format(value, "016x")
