"""Player profiles: the people who play at this table, and one computer player per level.

Every seat of a game can be linked to a profile (the journal's ``seat_players``
rows), so a player's games add up across game nights whatever the seat was
called; a seat without a link keeps the name it was set up with. Names are
unique per table (compared without regard to case, width or spacing) and
bounded; a rename shows in every game of the profile, and a merge moves every
game of one profile to another. The web remote lets only the host change
profiles; this module checks everything else, and a refused change raises
:class:`ProfileError` and changes nothing.
"""
import dataclasses
import functools
import json
import re
import unicodedata
from typing import Optional

from firmware_py.session import AI_LEVELS, MAX_NAME, CommandRejected

COLOURS = ("orange", "sky", "green", "yellow", "blue", "vermilion", "purple", "grey")
"""The colours a player may choose: the Okabe-Ito set, which colour-blind players tell apart, and grey."""
SYMBOLS = ("circle", "square", "diamond", "triangle", "star", "heart", "moon", "cross")
"""The symbols a player may choose, so a profile is told apart without its colour."""
COMPUTER_LOOK = ("grey", "cross")
"""The computer players' colour and symbol, theirs alone."""
MAX_LANGUAGES = 5
MAX_PEOPLE = 1000  # profiles of people a table keeps: far beyond a home's, and a bound on what a list shows
LANGUAGE_CODE = re.compile(r"[a-z]{2,3}\Z")
KINDS = ("person", "computer")


class ProfileError(CommandRejected):
    """A refused profile change; ``key`` and ``fields`` name the message the phone shows, ``status`` its HTTP code."""

    def __init__(self, key: str, reason: str, status: int = 409, **fields):
        super().__init__(reason)
        self.key = key
        self.status = status
        self.fields = fields


@dataclasses.dataclass(frozen=True)
class Profile:
    """One player: a person, or the computer at one level (``level``; its name is the pages' to say)."""

    id: int
    name: str
    kind: str
    level: Optional[str]
    colour: str
    symbol: str
    languages: tuple
    created: str
    last_played: Optional[str] = None

    @property
    def is_computer(self) -> bool:
        return self.kind == "computer"

    def to_dict(self) -> dict:
        return {"id": self.id, "name": self.name, "kind": self.kind, "level": self.level, "colour": self.colour,
                "symbol": self.symbol, "languages": list(self.languages), "last_played": self.last_played}


BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800\u180e\u2028\u2029")
"""Characters that draw nothing though Unicode files them as letters, symbols or separators (Hangul fillers,
the blank Braille pattern, ...): a name of them looks empty or like another's."""
REFUSED_CATEGORIES = ("Cc", "Cf", "Co", "Cn", "Cs", "Zl", "Zp")
ZWJ = "\u200d"
COMPUTER_NAMES = tuple(f"Computer ({level})" for level in AI_LEVELS)
"""The computer players' names as the exports write them; no person may be named like one."""


def _joins_emoji(name: str, index: int) -> bool:
    """Whether the zero-width joiner at ``index`` sits inside an emoji sequence (👩‍👩‍👧): symbols (with an
    optional variation selector or skin tone) on both sides."""
    def emoji(char):
        return unicodedata.category(char) == "So" or "\U0001f3fb" <= char <= "\U0001f3ff"

    before = name[index - 1] if index > 0 else ""
    if before == "\ufe0f" and index > 1:
        before = name[index - 2]
    after = name[index + 1] if index + 1 < len(name) else ""
    return bool(before and after) and emoji(before) and emoji(after)


@functools.lru_cache(maxsize=4096)
def skeleton(name: str) -> str:
    """What a name looks like: each character replaced by the first in code point order of itself and the
    single characters Unicode's confusables data lists as looking like it ("Аna", Cyrillic А, is "Ana"),
    then case folded (as names are compared). Kept for the names seen last: a new name is compared with
    every player's."""
    return "".join(map(_looks_like, unicodedata.normalize("NFKC", name))).casefold()


@functools.lru_cache(maxsize=None)
def _looks_like(char: str) -> str:
    """The first in code point order of ``char`` and the single characters that look like it."""
    # Loaded at the first name compared, not with the journal: its tables take a tenth of the table's start.
    from confusable_homoglyphs.confusables import confusables_data

    return min([char, *(found["c"] for found in confusables_data.get(char, ()) if len(found["c"]) == 1)])


def clean_name(text, *, others=(), empty: bool = False) -> str:
    """Every name the table accepts (profiles, renames, seats at setup, phones joining, imported records) as it
    is kept: Unicode NFKC (so "＝" is "=" and "Ａｎａ" is "Ana"), spaces made one, bounded.

    :raise ProfileError: not text, empty (unless ``empty``: a seat may go unnamed), too long, a character that is
        invisible or controls the text (naming it: "U+3164 HANGUL FILLER"; a joiner inside an emoji sequence is
        kept), or a name confusable with one of ``others`` (Unicode's confusables data through the
        ``confusable_homoglyphs`` library, and the computer players' names), naming the look-alike.
    """
    if not isinstance(text, str):
        raise ProfileError("players.bad_name", "a name must be text", status=400)
    name = unicodedata.normalize("NFKC", text)
    for written in (text, name):  # the character as typed is named, and none may appear through NFKC
        for index, char in enumerate(written):
            if (unicodedata.category(char) in REFUSED_CATEGORIES or char in BLANK_LETTERS) \
                    and not (char == ZWJ and _joins_emoji(written, index)):
                shown = f"U+{ord(char):04X} {unicodedata.name(char, 'control character')}"
                raise ProfileError("players.bad_character", f"a name cannot hold {shown}", status=400,
                                   character=shown)
    name = " ".join(name.split())
    if not name and not empty:
        raise ProfileError("players.empty_name", "a player needs a name", status=400)
    if len(name) > MAX_NAME:
        raise ProfileError("players.long_name", f"a name has at most {MAX_NAME} characters", status=400, n=MAX_NAME)
    if name:
        key, looks = name_key(name), skeleton(name)
        for other in (*COMPUTER_NAMES, *others):
            if (name_key(other) != key or other in COMPUTER_NAMES) and skeleton(other) == looks:
                raise ProfileError("players.confusable", f"{name} looks like {other}, a player here", name=name,
                                   other=other)
    return name


def name_key(name: str) -> str:
    """What two names must differ in to be two players: case and width are not enough ("ana" is "Ana")."""
    return unicodedata.normalize("NFKC", name).casefold()


def clean_languages(languages) -> tuple:
    """The languages a player reads, as short lowercase codes (the web remote checks them against its own).
    :raise ProfileError: not a list of at most MAX_LANGUAGES codes."""
    if not isinstance(languages, (list, tuple)) or len(languages) > MAX_LANGUAGES \
            or not all(isinstance(code, str) and LANGUAGE_CODE.match(code) for code in languages):
        raise ProfileError("players.bad_languages", "languages must be a list of language codes", status=400)
    return tuple(dict.fromkeys(languages))


def _choice(value, allowed, what: str, fallback: Optional[str]) -> Optional[str]:
    if value is None:
        return fallback
    if value not in allowed:
        raise ProfileError("players.bad_choice", f"{what} must be one of {', '.join(allowed)}", status=400,
                           field=what)
    return value


def free_look(taken, colour: Optional[str] = None, symbol: Optional[str] = None) -> Optional[tuple]:
    """The first (colour, symbol) pair nobody in ``taken`` (pairs) has, with ``colour`` or ``symbol`` where
    given; a colour and a symbol nobody uses yet come first, so each new player stands out on both; the
    computers' pair is never one. None when every such pair is taken."""
    taken = set(taken) | {COMPUTER_LOOK}
    colours_used, symbols_used = {c for c, _ in taken}, {s for _, s in taken}
    free = [(c, s) for c in ((colour,) if colour else COLOURS) for s in ((symbol,) if symbol else SYMBOLS)
            if (c, s) not in taken]
    return min(free, key=lambda look: (look[0] in colours_used, look[1] in symbols_used), default=None)


def least_used_look(taken) -> tuple:
    """The pair fewest people have, when every pair is someone's (a table of more people than pairs)."""
    counts = {(c, s): 0 for c in COLOURS for s in SYMBOLS if (c, s) != COMPUTER_LOOK}
    for look in taken:
        if look in counts:
            counts[look] += 1
    return min(counts, key=counts.get)


class Players:
    """The profiles of one journal: ``journal.players``. Safe to share between threads (the journal's lock)."""

    _COLUMNS = "p.id, p.name, p.kind, p.level, p.colour, p.symbol, p.languages, p.created_at"
    _LAST_PLAYED = ("(SELECT MAX(g.started_at) FROM seat_players s JOIN games g ON g.id = s.game_id"
                    " WHERE s.player_id = p.id)")

    def __init__(self, journal):
        self._journal = journal

    # -- reading ---------------------------------------------------------------------

    def all(self, *, kind: Optional[str] = None) -> list:
        """Every profile (or every one of ``kind``), the most recently played first, then the newest."""
        where = "" if kind is None else "WHERE p.kind = ?"
        with self._journal.reading() as db:
            rows = db.execute(
                f"SELECT {self._COLUMNS}, {self._LAST_PLAYED} AS last FROM players p {where}"
                " ORDER BY last IS NULL, last DESC, p.id DESC", () if kind is None else (kind,)).fetchall()
        return [_profile(row) for row in rows]

    def get(self, player_id) -> Profile:
        """:raise ProfileError: 404 when there is no such profile."""
        if not isinstance(player_id, int) or isinstance(player_id, bool) or not 0 < player_id < 2 ** 63:
            raise ProfileError("players.unknown", f"there is no player {player_id!r}", status=404, n=player_id)
        with self._journal.reading() as db:
            row = db.execute(f"SELECT {self._COLUMNS}, {self._LAST_PLAYED} FROM players p WHERE p.id = ?",
                             (player_id,)).fetchone()
        if row is None:
            raise ProfileError("players.unknown", f"there is no player {player_id}", status=404, n=player_id)
        return _profile(row)

    def computer(self, level: str) -> Profile:
        """The computer player of ``level`` (each level is made with the journal)."""
        with self._journal.reading() as db:
            row = db.execute(f"SELECT {self._COLUMNS}, {self._LAST_PLAYED} FROM players p"
                             " WHERE p.kind = 'computer' AND p.level = ?", (level,)).fetchone()
        return _profile(row)

    def of_game(self, game_id: int) -> dict:
        """seat -> profile id of a game's linked seats."""
        with self._journal.reading() as db:
            return dict(db.execute("SELECT seat, player_id FROM seat_players WHERE game_id = ?", (game_id,)))

    def unlinked_names(self) -> list:
        """The names of seats played by people in past games and linked to no profile, with how many games
        each: (name, games), the most frequent first. The host attaches them to profiles."""
        with self._journal.reading() as db:
            rows = db.execute("SELECT id, seats FROM games").fetchall()
            linked = set(db.execute("SELECT game_id, seat FROM seat_players"))
        counts = {}
        for game_id, seats in rows:
            for seat, kind, name in _seat_names(seats):
                if kind != "ai" and name and (game_id, seat) not in linked:
                    counts[name] = counts.get(name, 0) + 1
        return sorted(counts.items(), key=lambda item: (-item[1], item[0]))

    # -- changing ----------------------------------------------------------------------

    def create(self, name, *, colour=None, symbol=None, languages=()) -> Profile:
        """A new person's profile. :raise ProfileError: a bad name or choice, or a name already taken."""
        with self._journal.writing("keep the new player") as db:
            player_id = self.create_in(db, name, colour=colour, symbol=symbol, languages=languages)
        return self.get(player_id)

    def create_in(self, db, name, *, colour=None, symbol=None, languages=()) -> int:
        """:meth:`create` inside the caller's transaction (a phone joins and becomes a new player at once)."""
        name = clean_name(name, others=self.names_in(db))
        languages = clean_languages(languages)
        if db.execute("SELECT COUNT(*) FROM players WHERE kind = 'person'").fetchone()[0] >= MAX_PEOPLE:
            raise ProfileError("players.too_many", f"this table keeps at most {MAX_PEOPLE} players", n=MAX_PEOPLE)
        colour, symbol = self._new_look(db, _choice(colour, COLOURS, "colour", None),
                                        _choice(symbol, SYMBOLS, "symbol", None))
        self._check_free(db, name)
        return db.execute(
            "INSERT INTO players(name, name_key, kind, colour, symbol, languages, created_at)"
            " VALUES (?, ?, 'person', ?, ?, ?, ?)",
            (name, name_key(name), colour, symbol, json.dumps(list(languages)), self._journal.now())).lastrowid

    def update(self, player_id, *, name=None, colour=None, symbol=None, languages=None) -> Profile:
        """Rename a person, or change their colour, symbol or languages; every game of theirs shows the change."""
        with self._journal.writing("change the player") as db:
            profile = self.get(player_id)  # inside the transaction: a merge cannot remove it meanwhile
            if profile.is_computer and (name, colour, symbol) != (None, None, None):
                raise ProfileError("players.computer_look", "the computer players keep their level's name and look")
            name = profile.name if name is None else clean_name(name, others=self.names_in(db, but=profile.id))
            colour = _choice(colour, COLOURS, "colour", profile.colour)
            symbol = _choice(symbol, SYMBOLS, "symbol", profile.symbol)
            if (colour, symbol) != (profile.colour, profile.symbol):
                self._check_look_free(db, (colour, symbol), but=profile.id)
            languages = profile.languages if languages is None else clean_languages(languages)
            if name_key(name) != name_key(profile.name):
                self._check_free(db, name)
            db.execute("UPDATE players SET name = ?, name_key = ?, colour = ?, symbol = ?, languages = ? WHERE id = ?",
                       (name, name_key(name) if not profile.is_computer else None, colour, symbol,
                        json.dumps(list(languages)), player_id))
            return self.get(player_id)

    def merge(self, kept_id, merged_id) -> Profile:
        """Make ``merged_id`` the same person as ``kept_id``: its games become the kept profile's, it is removed,
        and the ratings are worked out again, all in one transaction whatever either played. Both profiles are
        read inside it, so two merges at once (x into y, y into x) are one after the other: the second finds
        its profile gone. :raise ProfileError: the same profile, a computer, or two profiles that played each
        other (one person cannot have sat in two seats)."""
        with self._journal.writing("merge the players") as db:
            kept, merged = self.get(kept_id), self.get(merged_id)
            if kept.id == merged.id:
                raise ProfileError("players.merge_self", "a player cannot be merged with themselves", status=400)
            if kept.is_computer or merged.is_computer:
                raise ProfileError("players.merge_computer", "the computer players cannot be merged")
            shared = db.execute(
                "SELECT a.game_id FROM seat_players a JOIN seat_players b ON a.game_id = b.game_id"
                " WHERE a.player_id = ? AND b.player_id = ? ORDER BY a.game_id LIMIT 1",
                (kept.id, merged.id)).fetchone()
            if shared is not None:
                raise ProfileError("players.played_each_other",
                                   f"{kept.name} and {merged.name} played each other in game {shared[0]}",
                                   kept=kept.name, merged=merged.name, n=shared[0])
            db.execute("UPDATE seat_players SET player_id = ? WHERE player_id = ?", (kept.id, merged.id))
            self._journal.ratings.recompute_in(db)  # no rating row names the merged profile after this
            db.execute("DELETE FROM players WHERE id = ?", (merged.id,))
            return self.get(kept.id)  # as committed: a merge right after cannot turn this one into a 404

    def attach(self, name: str, player_id) -> int:
        """Link every unlinked seat of past games named ``name`` (played by a person) to a profile; the number
        of games attached. Games where the profile already sits in another seat are left as they are."""
        if not isinstance(name, str) or len(name) > MAX_NAME * 4:
            raise ProfileError("players.bad_name", "a name must be text", status=400)
        with self._journal.writing("attach the games to the player") as db:
            profile = self.get(player_id)  # inside the transaction: a merge cannot remove it meanwhile
            if profile.is_computer:
                raise ProfileError("players.attach_computer", "seats played by people cannot be given to the computer")
            linked = set(db.execute("SELECT game_id, seat FROM seat_players"))
            seated = {game for game, in db.execute("SELECT game_id FROM seat_players WHERE player_id = ?",
                                                   (profile.id,))}
            rows = []
            for game_id, seats in db.execute("SELECT id, seats FROM games ORDER BY id"):
                for seat, kind, seat_name in _seat_names(seats):
                    if kind != "ai" and seat_name == name and (game_id, seat) not in linked and game_id not in seated:
                        rows.append((game_id, seat, profile.id))
                        seated.add(game_id)
            if not rows:
                raise ProfileError("players.nothing_to_attach", f"no unlinked seat is named {name!r}",
                                   status=404, name=name)
            db.executemany("INSERT INTO seat_players(game_id, seat, player_id) VALUES (?, ?, ?)", rows)
            self._journal.ratings.recompute_in(db)
        return len(rows)

    def link_in(self, db, game_id: int, seat: int, player_id: int, *, computer: bool = False):
        """Link a seat of a game to a profile inside the caller's transaction: a person's, or for a ``computer``
        seat its level's. :raise ProfileError: unknown, a computer player for a person's seat (a phone joining
        as "Computer (easy)" would be rated for it), or already seated elsewhere in this game."""
        kind = db.execute("SELECT kind FROM players WHERE id = ?", (player_id,)).fetchone()
        if kind is None:
            raise ProfileError("players.unknown", f"there is no player {player_id}", status=404, n=player_id)
        if (kind[0] == "computer") != computer:
            raise ProfileError("players.person_needed", "a seat played by a person needs a person's profile",
                               status=400)
        other = db.execute("SELECT seat FROM seat_players WHERE game_id = ? AND player_id = ? AND seat != ?",
                           (game_id, player_id, seat)).fetchone()
        if other is not None:
            raise ProfileError("players.seated_twice", f"that player already sits in seat {other[0] + 1}",
                               n=other[0] + 1)
        db.execute("INSERT OR REPLACE INTO seat_players(game_id, seat, player_id) VALUES (?, ?, ?)",
                   (game_id, seat, player_id))

    def names_in(self, db, but: Optional[int] = None) -> list:
        """Every person's name (but one profile's): what a new name must not be confusable with."""
        return [name for name, in db.execute("SELECT name FROM players WHERE kind = 'person' AND id IS NOT ?",
                                             (but,))]

    def names(self) -> list:
        """:meth:`names_in`, for a name given outside a transaction (a seat's at setup)."""
        with self._journal.reading() as db:
            return self.names_in(db)

    def name_in(self, db, player_id: int) -> str:
        """A profile's name (a computer's is ``""``: the pages name it by its level)."""
        return db.execute("SELECT name FROM players WHERE id = ?", (player_id,)).fetchone()[0]

    def computer_in(self, db, level: str) -> int:
        return db.execute("SELECT id FROM players WHERE kind = 'computer' AND level = ?", (level,)).fetchone()[0]

    def next_look(self) -> tuple:
        """The colour and symbol a new player starts on: a pair nobody at the table has."""
        with self._journal.reading() as db:
            return self._new_look(db, None, None)

    def _new_look(self, db, colour: Optional[str], symbol: Optional[str]) -> tuple:
        """The look of a new profile from what was chosen (either may be None: the first free pair with the
        other). :raise ProfileError: a chosen pair someone has, or a chosen part with no free pair left."""
        if colour and symbol:
            self._check_look_free(db, (colour, symbol))
            return colour, symbol
        taken = self._looks_in(db)
        look = free_look(taken, colour, symbol)
        if look is None and (colour or symbol):
            raise ProfileError("players.look_taken_all", "every pair with that choice is another player's")
        return look or least_used_look(taken)

    @staticmethod
    def _looks_in(db) -> list:
        return [tuple(row) for row in db.execute("SELECT colour, symbol FROM players")]

    @staticmethod
    def _check_look_free(db, look: tuple, but: Optional[int] = None):
        """:raise ProfileError: ``look`` is the computers' or another person's (named)."""
        if look == COMPUTER_LOOK:
            raise ProfileError("players.computer_look_taken", "the grey cross is the computer players' mark")
        other = db.execute("SELECT name FROM players WHERE colour = ? AND symbol = ? AND id IS NOT ? LIMIT 1",
                           (*look, but)).fetchone()
        if other is not None:
            raise ProfileError("players.look_taken", f"{other[0]} already has this colour and symbol", name=other[0])

    @staticmethod
    def _check_free(db, name: str):
        taken = db.execute("SELECT name FROM players WHERE name_key = ?", (name_key(name),)).fetchone()
        if taken is not None:
            raise ProfileError("players.name_taken", f"{taken[0]} is already a player here", name=taken[0])


def _profile(row) -> Profile:
    player_id, name, kind, level, colour, symbol, languages, created, last = row
    return Profile(player_id, name, kind, level, colour, symbol, tuple(json.loads(languages)), created, last)


def _seat_names(seats_json: str):
    """(seat, kind, name) of a game row's seats; nothing for a row that cannot be read."""
    try:
        seats = json.loads(seats_json)
        return [(seat, str(item.get("kind", "")), str(item.get("name", ""))) for seat, item in enumerate(seats)]
    except (ValueError, TypeError, AttributeError):
        return []
