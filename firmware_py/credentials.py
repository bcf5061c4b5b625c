"""Who may act in a game: the join code, the phones holding seats and the hosts.

They belong to the game, not to the process: the session keeps them beside
the game and the journal stores them with it, so after a restart every phone
is back on its seat. Tokens are kept only as SHA-256 digests; the join code
is kept as it is, because the table shows it again on request.
"""
import dataclasses
import hashlib
import json
import secrets

JOIN_CODE_DIGITS = 6
HOST_CODE_DIGITS = 8


def new_code(digits: int) -> str:
    """A uniformly random code of ``digits`` decimal digits."""
    return f"{secrets.randbelow(10 ** digits):0{digits}d}"


def new_token() -> str:
    """A seat or host token for a phone: 192 random bits."""
    return secrets.token_urlsafe(24)


def digest(token: str) -> str:
    """What the table keeps of a token."""
    return hashlib.sha256(token.encode()).hexdigest()


def same_code(given, expected: str) -> bool:
    """``given`` (anything a phone sent) equals ``expected``, compared in constant time."""
    return isinstance(given, str) and secrets.compare_digest(given.strip().encode(), expected.encode())


@dataclasses.dataclass(frozen=True)
class Credentials:
    """The credentials of one game; every change makes a new value."""

    key: str  # names this game to the phones (public); renewed with every game
    join_code: str
    seats: tuple = ()  # (seat, token digest) of each seat a phone holds
    hosts: frozenset = frozenset()  # token digests of the hosts

    @classmethod
    def fresh(cls, hosts=()) -> "Credentials":
        return cls(secrets.token_hex(8), new_code(JOIN_CODE_DIGITS), (), frozenset(hosts))

    def renewed(self) -> "Credentials":
        """For the next game of the same players (a rematch): a new key and join code, the same seats and hosts."""
        return dataclasses.replace(self.with_new_join_code(), key=secrets.token_hex(8))

    def with_new_join_code(self) -> "Credentials":
        """The same game, seats and hosts with a join code other than this one."""
        code = self.join_code
        while code == self.join_code:
            code = new_code(JOIN_CODE_DIGITS)
        return dataclasses.replace(self, join_code=code)

    def holder(self, seat: int):
        """The digest of the token holding ``seat``, or None."""
        return dict(self.seats).get(seat)

    def seat_of(self, token_digest: str):
        """The seat the token with ``token_digest`` holds, or None."""
        for seat, held in self.seats:
            if secrets.compare_digest(held, token_digest):
                return seat
        return None

    def is_host(self, token_digest: str) -> bool:
        return any(secrets.compare_digest(known, token_digest) for known in self.hosts)

    @property
    def taken(self) -> frozenset:
        return frozenset(seat for seat, _ in self.seats)

    def with_seat(self, seat: int, token_digest: str) -> "Credentials":
        return dataclasses.replace(self, seats=tuple(sorted(self.seats + ((seat, token_digest),))))

    def without_seat(self, seat: int) -> "Credentials":
        return dataclasses.replace(self, seats=tuple(pair for pair in self.seats if pair[0] != seat))

    def with_host(self, token_digest: str) -> "Credentials":
        return dataclasses.replace(self, hosts=self.hosts | {token_digest})

    def to_json(self) -> str:
        return json.dumps({"key": self.key, "join_code": self.join_code,
                           "seats": [list(pair) for pair in self.seats], "hosts": sorted(self.hosts)})

    @classmethod
    def from_json(cls, text: str) -> "Credentials":
        """Read back :meth:`to_json`; raises ValueError when the text is not such a value."""
        try:
            data = json.loads(text)
            seats = tuple(sorted((int(seat), str(held)) for seat, held in data["seats"]))
            return cls(str(data["key"]), str(data["join_code"]), seats, frozenset(str(h) for h in data["hosts"]))
        except (TypeError, KeyError, ValueError, AttributeError) as error:
            raise ValueError(f"damaged credentials ({error})") from None
