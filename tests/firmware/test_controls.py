"""The rig never traps a player: the seat buttons and the HOST menu as one state machine
(firmware_py/controls.py), explored with hypothesis over a real session.

From every state that presses, phone commands, new games and the passing of time reach, the
seat whose turn it is gets back to the game with at most ``BACKS_TO_GAME`` presses of BACK and
then plays its highlighted option with OK; and no press is silently swallowed: each one changes
what the session publishes or flashes a refusal on the LEDs.
"""
import dataclasses
import functools

import pytest
from hypothesis import settings, strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule, run_state_machine_as_test

from firmware_py import controls
from firmware_py.credentials import digest
from firmware_py.session import (
    AnswerUndo, CommandRejected, HostLogin, Join, NewGame, Play, Press, Rematch, RequestUndo, Seat, Session, Setup,
)
from tests.firmware.test_undo import Clock, play_until_undoable

BUTTONS = ("PREV", "NEXT", "OK", "BACK")


class AskedThinker:
    """Takes the session's searches and never answers: a hint press counts as done once it is asked."""

    def __init__(self):
        self.asked = 0

    def think(self, key, game, level, deliver, seed=None):
        self.asked += 1

    def cancel_all(self):
        pass


@st.composite
def setups(draw):
    """Both games, every seat count, at least one seat at the rig, the others on phones."""
    game = draw(st.sampled_from(("duel", "pavilion")))
    count = 2 if game == "duel" else draw(st.integers(2, 4))
    kinds = draw(st.lists(st.sampled_from(("rig", "phone")), min_size=count, max_size=count).filter(
        lambda kinds: "rig" in kinds))
    return Setup(game=game, seats=tuple(Seat(kind=kind) for kind in kinds), seed=draw(st.integers(0, 2**16)))


def tick(session):
    """What the session thread does when nothing comes in before a deadline: expire, publish."""
    if session._expire():
        session._publish()


def mode_of(session, seat):
    """The controls' mode for ``seat``'s buttons (None: the HOST button)."""
    mode = session._menu.mode
    request = session.snapshot.undo_request
    if mode == controls.GAME and seat is not None and request is not None and seat in request.waiting:
        return controls.ASKED
    return mode


def shown(snapshot):
    """What a snapshot shows, whatever its version and its last refusal."""
    return dataclasses.replace(snapshot, version=0, flash=None)


class RigControls(RuleBasedStateMachine):
    """A table with rig and phone seats: its buttons pressed, phones acting, time passing."""

    transitions = set()  # (mode, key) pressed, over every run
    states = set()  # the controls' states seen: (mode, menu item, item on show, over)

    @initialize(setup=setups())
    def start(self, setup):
        self.clock = Clock()
        self.thinker = AskedThinker()
        self.session = Session(setup, clock=self.clock, thinker=self.thinker)

    @property
    def snapshot(self):
        return self.session.snapshot

    def seat(self, number):
        return number % len(self.snapshot.setup.seats)

    def attempt(self, command):
        try:
            self.session.apply(command)
        except CommandRejected:
            pass

    def press(self, seat, button, hold):
        """Press ``button`` at ``seat`` (None: HOST): it must change what the session shows or flash a refusal."""
        kind = "hold" if hold else "press"
        mode = mode_of(self.session, seat)
        key = controls.key(button, kind, seat is None)
        type(self).transitions.add((mode, key))
        before, asked = self.snapshot, self.thinker.asked
        try:
            self.session.apply(Press(seat, button, kind))
        except CommandRejected as refusal:
            assert self.snapshot.flash == (seat, str(refusal)), f"{key} in {mode}: refused without a flash"
            return
        hint = controls.ACTIONS[mode][key] == "hint"
        assert shown(self.snapshot) != shown(before) or (hint and self.thinker.asked > asked), \
            f"{key} in {mode} changed nothing"

    @rule(number=st.integers(0, 3), button=st.sampled_from(BUTTONS), hold=st.booleans())
    def press_at_a_seat(self, number, button, hold):
        self.press(self.seat(number), button, hold)

    @rule(button=st.sampled_from(BUTTONS), hold=st.booleans())
    def press_at_the_deciding_seat(self, button, hold):
        self.press(self.seat(self.snapshot.current_player or 0), button, hold)

    @rule(button=st.sampled_from(BUTTONS), hold=st.booleans())
    def press_at_an_asked_seat(self, button, hold):
        request = self.snapshot.undo_request
        if request is not None:
            self.press(request.waiting[0], button, hold)

    @rule(hold=st.booleans())
    def press_host(self, hold):
        self.press(None, "HOST", hold)

    @rule(item=st.sampled_from(controls.HostMenu.ITEMS), choose=st.booleans())
    def the_host_walks_to_a_menu_item(self, item, choose):
        """HOST held (when the menu is closed), short HOST presses to ``item``, and OK at seat 0 if ``choose``."""
        if self.session._menu.mode == controls.GAME:
            self.session.apply(Press(None, "HOST", "hold"))
        while self.snapshot.menu[0][self.snapshot.menu[1]] != item:
            self.session.apply(Press(None, "HOST"))
        if choose:
            self.session.apply(Press(0, "OK"))

    @rule(item=st.sampled_from(controls.HostMenu.SHOWN), number=st.integers(0, 3) | st.none(),
          button=st.sampled_from(BUTTONS), hold=st.booleans())
    def a_press_while_the_menu_shows_an_item(self, item, number, button, hold):
        self.the_host_walks_to_a_menu_item(item, True)
        self.press(None if number is None else self.seat(number), button, hold)

    @rule()
    def back_to_the_game_and_play(self):
        """The deciding seat presses BACK until the game is on show, then OK plays its highlighted option."""
        snapshot = self.snapshot
        if snapshot.over:
            return
        seat = snapshot.current_player
        backs = 0
        while mode_of(self.session, seat) in (controls.MENU, controls.SHOWING):
            self.session.apply(Press(seat, "BACK"))
            backs += 1
            assert backs <= controls.BACKS_TO_GAME
        snapshot = self.snapshot
        chosen = snapshot.options[snapshot.cursors[seat]]
        self.session.apply(Press(seat, "OK"))
        assert self.snapshot.history[-1] == (seat, chosen)

    @rule(index=st.integers(0, 200))
    def a_phone_plays(self, index):
        snapshot = self.snapshot
        if not snapshot.over:
            self.session.apply(Play(snapshot.current_player, snapshot.options[index % len(snapshot.options)]))

    @rule(decisions=st.integers(1, 100))
    def play_on(self, decisions):
        """Many first options in a row, to the game's end when there are enough."""
        for _ in range(decisions):
            snapshot = self.snapshot
            if snapshot.over:
                return
            self.session.apply(Play(snapshot.current_player, snapshot.options[0]))

    @rule(setup=setups())
    def the_host_starts_a_new_game(self, setup):
        self.session.apply(NewGame(setup))
        assert self.session._menu.mode == controls.GAME

    @rule()
    def the_host_asks_for_a_rematch(self):
        over = self.snapshot.over
        self.attempt(Rematch())
        assert not over or self.session._menu.mode == controls.GAME

    @rule(number=st.integers(1, 3), button=st.sampled_from(BUTTONS), hold=st.booleans())
    def an_asked_seat_presses(self, number, button, hold):
        """Someone asks to undo another's decision, and the seat asked presses a button."""
        self.a_player_asks_to_undo_anothers_decision(number)
        self.press_at_an_asked_seat(button, hold)

    @rule(number=st.integers(0, 3))
    def a_phone_joins(self, number):
        self.attempt(Join(self.seat(number), self.snapshot.credentials.join_code, digest(f"phone {number}")))

    @rule(number=st.integers(0, 3))
    def a_player_asks_for_an_undo(self, number):
        self.attempt(RequestUndo(self.seat(number)))

    @rule(number=st.integers(1, 3))
    def a_player_asks_to_undo_anothers_decision(self, number):
        history = self.snapshot.history
        if history:
            self.attempt(RequestUndo(self.seat(history[-1][0] + number)))

    @rule(number=st.integers(0, 3), accept=st.booleans())
    def a_player_answers_an_undo(self, number, accept):
        self.attempt(AnswerUndo(self.seat(number), accept))

    @rule()
    def a_phone_uses_the_host_code(self):
        self.attempt(HostLogin(self.snapshot.host_code or "00000000", digest("host")))

    @rule(seconds=st.sampled_from((1.0, 10.0, 29.0, 31.0, 59.0, 61.0, 120.0)))
    def time_passes(self, seconds):
        self.clock.now += seconds
        tick(self.session)

    @invariant()
    def the_leds_show_what_the_mode_says(self):
        menu, snapshot = self.session._menu, self.snapshot
        type(self).states.add((menu.mode, menu.index if menu.is_open else None, menu.showing, snapshot.over))
        if menu.mode == controls.GAME:
            assert snapshot.menu is None and snapshot.host_code is None and snapshot.showing is None
        else:
            assert snapshot.menu == (controls.HostMenu.ITEMS, menu.index)
            assert self.clock.now < menu.closes_at <= self.clock.now + max(controls.SHOWN_S.values())


def test_no_state_of_the_rig_traps_a_player():
    RigControls.transitions.clear()
    RigControls.states.clear()
    run_state_machine_as_test(RigControls, settings=settings(settings(), stateful_step_count=40))
    print(f"hypothesis reached {len(RigControls.states)} states and pressed {len(RigControls.transitions)} "
          f"of the {sum(map(len, controls.ACTIONS.values()))} (mode, key) transitions")


@functools.cache
def finished(setup):
    """The game of ``setup`` played to its end with first options."""
    session = Session(setup)
    while not session.snapshot.over:
        session.apply(Play(session.snapshot.current_player, session.snapshot.options[0]))
    return session.game


def reach(setup, state):
    """A session of ``setup`` in one of the controls' states: "game", "asked" (seat 1 asked to agree to
    an undo), "over", ("menu", item) or ("showing", item)."""
    session = Session(setup, game=finished(setup).copy() if state == "over" else None, clock=Clock(),
                      thinker=AskedThinker())
    if state == "asked":
        play_until_undoable(session, seat=1)
        session.apply(RequestUndo(0))
        assert session.snapshot.undo_request.waiting == (1,)
    elif state not in ("game", "over"):
        mode, item = state
        open_menu_item(session, item) if mode == controls.SHOWING else walk_to(session, item)
    return session


STATES = ["game", "asked", "over", *((controls.MENU, item) for item in controls.HostMenu.ITEMS),
          *((controls.SHOWING, item) for item in controls.HostMenu.SHOWN)]
SETUPS = [Setup(game="duel", seed=3), Setup(game="pavilion", seats=(Seat(),) * 3, seed=4)]


@pytest.mark.parametrize("setup", SETUPS, ids=lambda setup: f"{setup.game}-{len(setup.seats)}")
@pytest.mark.parametrize("state", STATES, ids=str)
def test_every_press_in_every_state_shows_or_flashes_and_the_deciding_seat_gets_back(setup, state):
    presses = [(seat, button, hold) for seat in (0, 1, 2) for button in BUTTONS for hold in (False, True)]
    presses += [(None, "HOST", False), (None, "HOST", True)]
    for seat, button, hold in presses:
        machine = RigControls()
        machine.session = reach(setup, state)
        machine.thinker = machine.session._thinker
        machine.press(seat % len(setup.seats) if seat is not None else None, button, hold)
        if not machine.snapshot.over:
            machine.back_to_the_game_and_play()


def test_every_key_means_something_in_every_mode():
    assert set(controls.ACTIONS) == set(controls.MODES)
    for mode, actions in controls.ACTIONS.items():
        assert tuple(actions) == (tuple(k for k in controls.KEYS if not k.startswith("HOST"))
                                  if mode == controls.ASKED else controls.KEYS)


def walk_to(session, item):
    """Hold HOST, walk to ``item`` with short HOST presses."""
    session.apply(Press(None, "HOST", "hold"))
    while session.snapshot.menu[0][session.snapshot.menu[1]] != item:
        session.apply(Press(None, "HOST"))


def open_menu_item(session, item, seat=0):
    """Hold HOST, walk to ``item``, OK at ``seat``."""
    walk_to(session, item)
    session.apply(Press(seat, "OK"))


def test_a_new_game_from_the_phone_while_the_rig_shows_the_host_code_is_played_at_the_rig():
    """The trap of a game night: the host code on show, a new game from the host's phone, then every
    OK at the rig made a new host code instead of playing."""
    session = Session(Setup(game="duel", seed=3))
    open_menu_item(session, "host code")
    code = session.snapshot.host_code
    assert code is not None
    session.apply(NewGame(Setup(game="pavilion", seats=(Seat(),) * 4, seed=4)))
    snapshot = session.snapshot
    assert snapshot.host_code is None and snapshot.menu is None
    seat = snapshot.current_player
    chosen = snapshot.options[snapshot.cursors[seat]]
    session.apply(Press(seat, "OK"))
    assert session.snapshot.history == ((seat, chosen),)
    assert session.snapshot.host_code is None


@pytest.mark.parametrize("item", controls.HostMenu.SHOWN)
@pytest.mark.parametrize("button", ["OK", "BACK"])
def test_ok_and_back_close_an_item_on_show_back_to_the_menu(item, button):
    session = Session(Setup(game="duel", seed=3))
    open_menu_item(session, item, seat=1)
    assert session._menu.showing == item
    session.apply(Press(1, button))
    snapshot = session.snapshot
    assert session._menu.showing is None and snapshot.host_code is None and snapshot.showing is None
    assert snapshot.menu == (controls.HostMenu.ITEMS, controls.HostMenu.ITEMS.index(item))
    session.apply(Press(1, "BACK"))
    assert session.snapshot.menu is None


def test_a_single_option_refuses_prev_and_next_with_a_flash():
    session = Session(Setup(game="duel", seed=3))
    while len(session.snapshot.options) != 1:
        session.apply(Play(session.snapshot.current_player, session.snapshot.options[0]))
    seat = session.snapshot.current_player
    with pytest.raises(CommandRejected, match="only one option"):
        session.apply(Press(seat, "NEXT"))
    assert session.snapshot.flash == (seat, "there is only one option")
