"""What the buttons mean: a highlight per seat over the pending options, and the HOST menu.

The rig's buttons work as one small state machine, so that no sequence of
presses, phone commands or new games can leave a player without a way back
to the game. The table is in one of three modes:

``game``
    The game on show. A seat's PREV/NEXT move its highlight, OK plays the
    highlighted option, BACK steps back within the turn; held, OK asks for a
    hint and BACK for an undo. Pressed at a seat whose turn it is not, they
    flash a refusal on that seat's panel (``asked``, below, is the one
    exception). A short HOST press flashes a refusal; holding HOST opens the
    menu.
``asked``
    The game, for a seat whose consent an undo request waits for: as
    ``game``, but held OK agrees and held BACK refuses.
``menu``
    The HOST menu on the centre panel, one item highlighted. Every seat's
    PREV/NEXT (and a short HOST press) move through the items, OK chooses,
    BACK or holding HOST closes the menu. Untouched for :data:`MENU_IDLE_S`
    it closes by itself.
``showing``
    An item the menu shows in its place (the host code, where phones join,
    the legend), which asks nothing: OK or BACK go back to the menu, PREV/NEXT
    (or HOST) go back to it on the item before or after, holding HOST closes
    the menu. Each closes the menu by itself after its time in
    :data:`SHOWN_S`.

A new game (from the menu, a phone's setup page or a rematch) closes the
menu, whatever it shows. Every press therefore changes what the LEDs show
or flashes a refusal, and from any state at most :data:`BACKS_TO_GAME`
presses of BACK (an item on show, then the menu) bring the game back, where
the seat whose turn it is plays with OK.
"""

GAME, ASKED, MENU, SHOWING = "game", "asked", "menu", "showing"
MODES = (GAME, ASKED, MENU, SHOWING)
BUTTONS = ("PREV", "NEXT", "OK", "BACK")
KEYS = (*BUTTONS, "OK hold", "BACK hold", "HOST", "HOST hold")  # what a press can be, as :func:`key` names it

MENU_IDLE_S = 30.0  # the menu closes by itself when nobody pressed a button for this long
SHOWN_S = {"host code": 60.0, "address": 60.0, "legend": 30.0}  # an item on show closes the menu after this
BACKS_TO_GAME = 2  # from any state: BACK closes an item on show, BACK the menu

_GAME_ACTIONS = {
    "PREV": "previous option",
    "NEXT": "next option",
    "OK": "play",
    "BACK": "step back",
    "OK hold": "hint",
    "BACK hold": "ask undo",
    "HOST": "refuse",
    "HOST hold": "open menu",
}
_MENU_ACTIONS = {
    "PREV": "previous item",
    "NEXT": "next item",
    "OK": "choose",
    "BACK": "close menu",
    "OK hold": "choose",
    "BACK hold": "close menu",
    "HOST": "next item",
    "HOST hold": "close menu",
}
ACTIONS = {
    GAME: _GAME_ACTIONS,
    ASKED: {**{k: a for k, a in _GAME_ACTIONS.items() if not k.startswith("HOST")},
            "OK hold": "agree", "BACK hold": "refuse undo"},
    MENU: _MENU_ACTIONS,
    SHOWING: {**_MENU_ACTIONS, "OK": "back to menu", "BACK": "back to menu", "OK hold": "back to menu",
              "BACK hold": "back to menu"},
}
"""mode -> key -> what it does: every key has a meaning in every mode (``asked`` is a seat's mode, so
it has no HOST keys; the HOST button is in the table's mode)."""


def key(button: str, kind: str, host: bool) -> str:
    """The key of a press: the button's name, with " hold" for a long press of OK, BACK or HOST
    (PREV and NEXT have no long press: held, they count as pressed)."""
    name = "HOST" if host else button
    return f"{name} hold" if kind == "hold" and name in ("OK", "BACK", "HOST") else name


class SeatControls:
    """The blinking highlight of one seat: an index into the pending decision's options."""

    __slots__ = ("index", "count")

    def __init__(self):
        self.index = 0
        self.count = 0

    def reset(self, count: int):
        """New options (``count`` of them, 0 when the decision is not this seat's): back to the first."""
        self.index = 0
        self.count = count

    def step(self, delta: int):
        """PREV/NEXT: move the highlight, wrapping around the ends."""
        if self.count:
            self.index = (self.index + delta) % self.count


class HostMenu:
    """The table menu on the centre panel, opened by holding HOST (modes ``menu`` and ``showing``).

    "host code" shows a new host code (for the phone's host page), "address"
    where phones join (scrolling) with the join code, "legend" each tile
    colour's glyph and letter; "brightness" and "palette" step the setting.
    ``now`` is the session's clock, for closing by itself.
    """

    ITEMS = ("new game", "host code", "address", "legend", "brightness", "palette")
    SHOWN = tuple(SHOWN_S)  # the items shown in the menu's place
    BRIGHTNESS_STEPS = (0.25, 0.5, 0.75, 1.0)
    PALETTES = ("standard", "colour-blind")

    def __init__(self):
        self.is_open = False
        self.index = 0
        self.showing = None  # the item on show in the menu's place, or None
        self.closes_at = None  # clock time the menu closes by itself, while it is open

    @property
    def mode(self) -> str:
        return SHOWING if self.showing else MENU if self.is_open else GAME

    def open(self, now: float):
        self.is_open, self.index, self.showing = True, 0, None
        self.closes_at = now + MENU_IDLE_S

    def close(self):
        self.is_open, self.showing, self.closes_at = False, None, None

    def act(self, action: str, now: float):
        """Carry out a menu action of :data:`ACTIONS`; returns the item chosen by "choose", else None."""
        self.showing = None
        self.closes_at = now + MENU_IDLE_S
        if action in ("next item", "previous item"):
            self.index = (self.index + (1 if action == "next item" else -1)) % len(self.ITEMS)
        elif action == "close menu":
            self.close()
        elif action == "choose":
            item = self.ITEMS[self.index]
            if item in SHOWN_S:
                self.showing = item
                self.closes_at = now + SHOWN_S[item]
            return item
        elif action != "back to menu":
            raise ValueError(f"not a menu action: {action!r}")
        return None

    def stop_showing(self, item: str):
        """Go back to the menu if ``item`` is on show (a host code used up on a phone)."""
        if self.showing == item:
            self.showing = None

    def expire(self, now: float) -> bool:
        """Close the menu if its time is up; True if it closed."""
        if self.closes_at is None or now < self.closes_at:
            return False
        self.close()
        return True

    def view(self):
        """(items, highlighted index) while open, for the renderer; None when closed."""
        return (self.ITEMS, self.index) if self.is_open else None

    @classmethod
    def next_brightness(cls, current: float) -> float:
        larger = [b for b in cls.BRIGHTNESS_STEPS if b > current + 1e-9]
        return larger[0] if larger else cls.BRIGHTNESS_STEPS[0]

    @classmethod
    def next_palette(cls, current: str) -> str:
        return cls.PALETTES[(cls.PALETTES.index(current) + 1) % len(cls.PALETTES)] if current in cls.PALETTES else cls.PALETTES[0]
