"""The session: one thread owns the game; commands from anywhere, refusals that change nothing."""
import random

import pytest

from core_ext import duel
from firmware_py.session import (
    AnswerUndo, ChangeSettings, CommandRejected, NewGame, Play, Press, RequestUndo, Seat, Session, Setup, StepBack,
)


@pytest.fixture
def session():
    running = Session(Setup(game="duel", seed=11)).start()
    yield running
    running.stop()


def test_a_move_pushed_through_the_session_matches_the_core(session):
    reference = duel.Game(seed=11)
    played = []
    for _ in range(12):
        snapshot = session.snapshot
        option = snapshot.options[-1]
        session.call(Play(snapshot.current_player, option))
        reference.push(option)
        played.append(option)
    assert session.snapshot.state == reference.to_dict()
    assert [notation for _, notation in session.snapshot.history] == played


def test_out_of_turn_stale_and_illegal_commands_change_nothing(session):
    before = session.snapshot
    other = 1 - before.current_player
    with pytest.raises(CommandRejected, match="decision, not"):
        session.call(Play(other, before.options[0]))
    with pytest.raises(CommandRejected, match="'Q' is not a colour"):
        session.call(Play(before.current_player, "S0Q"))
    with pytest.raises(CommandRejected, match="not an option now"):
        session.call(Play(before.current_player, "L3"))
    with pytest.raises(CommandRejected, match="no seat"):
        session.call(Play(7, before.options[0]))
    session.call(Play(before.current_player, before.options[0], version=session.snapshot.version))
    with pytest.raises(CommandRejected, match="moved on"):
        session.call(Play(session.snapshot.current_player, session.snapshot.options[0], version=before.version))
    assert len(session.snapshot.history) == 1
    assert session.snapshot.flash is not None


def test_buttons_walk_the_options_and_ok_plays_the_highlighted_one(session):
    snapshot = session.snapshot
    seat = snapshot.current_player
    session.call(Press(seat, "NEXT"))
    session.call(Press(seat, "NEXT"))
    session.call(Press(seat, "PREV"))
    assert session.snapshot.cursors[seat] == 1
    session.call(Press(seat, "OK"))
    assert session.snapshot.history == ((seat, snapshot.options[1]),)
    with pytest.raises(CommandRejected):
        session.call(Press(1 - session.snapshot.current_player, "NEXT"))


def test_back_steps_back_inside_a_turn_but_not_past_a_reveal():
    session = Session(Setup(game="duel", seed=4)).start()
    try:
        _play_until(session, lambda s: s.pending == "action")
        seat = session.snapshot.current_player
        take = next(o for o in session.snapshot.options if o.startswith("S0"))
        session.call(Play(seat, take))
        assert session.snapshot.pending == "line"
        session.call(Press(seat, "BACK"))
        assert session.snapshot.pending == "action" and session.snapshot.history[-1][1] != take
        with pytest.raises(CommandRejected, match="nothing to step back"):
            session.call(Press(seat, "BACK"))  # the previous decision was the other player's
    finally:
        session.stop()


def _play_until(session, done, limit=200):
    for _ in range(limit):
        if done(session.snapshot):
            return
        snapshot = session.snapshot
        session.call(Play(snapshot.current_player, snapshot.options[0]))
    raise AssertionError("position not reached")


def test_host_menu_changes_brightness_and_palette(session):
    session.call(Press(None, "HOST", "hold"))
    assert session.snapshot.menu == (("new game", "host code", "address", "legend", "brightness", "palette"), 0)
    for _ in range(4):
        session.call(Press(0, "NEXT"))
    session.call(Press(0, "OK"))
    assert session.snapshot.setting("brightness") == 0.25
    session.call(Press(None, "HOST"))
    session.call(Press(0, "OK"))
    assert session.snapshot.setting("palette") == "colour-blind"
    session.call(Press(0, "BACK"))
    assert session.snapshot.menu is None
    with pytest.raises(CommandRejected, match="between"):
        session.call(ChangeSettings(brightness=3))


def test_setup_is_validated():
    with pytest.raises(ValueError, match="2-2 players"):
        Setup(game="duel", seats=(Seat(), Seat(), Seat()))
    with pytest.raises(ValueError, match="unknown rules flag"):
        Setup(game="duel", flags=(("side", "monochrome"),))
    with pytest.raises(ValueError, match="seat kind"):
        Seat(kind="robot")


def test_new_game_replaces_the_game(session):
    session.call(Play(session.snapshot.current_player, session.snapshot.options[0]))
    session.call(NewGame(Setup(game="duel", seed=99)))
    assert session.snapshot.history == ()
    assert session.snapshot.state == duel.Game(seed=99).to_dict()


def test_nothing_to_undo_is_refused(session):
    with pytest.raises(CommandRejected, match="nothing to undo"):
        session.call(RequestUndo(0))


def test_a_refused_press_elsewhere_does_not_make_a_screen_stale(session):
    screen = session.snapshot
    with pytest.raises(CommandRejected):
        session.call(Press(1 - screen.current_player, "OK"))  # someone else's button, refused
    session.call(Press(screen.current_player, "NEXT"))  # a highlight move is not a new position either
    assert session.snapshot.version > screen.version
    session.call(Play(screen.current_player, screen.options[0], version=screen.version))
    assert session.snapshot.history == ((screen.current_player, screen.options[0]),)


@pytest.mark.parametrize("game, players", [("duel", 2), ("pavilion", 3)])
def test_an_option_plays_unconfirmed_exactly_when_its_seat_can_step_back_from_it(game, players):
    """The phone confirms only what cannot be taken back: ``reversible`` must match what BACK allows."""
    setup = Setup(game=game, seats=(Seat("phone"),) * players, seed=5)
    chooser = random.Random(2)
    walk = setup.new_game()
    seen = set()
    for _ in range(120):
        if walk.is_over():
            break
        session = Session(setup, game=walk.copy())
        snapshot = session.snapshot
        for index, option in enumerate(snapshot.options):
            trial = Session(setup, game=walk.copy())
            trial.apply(Play(snapshot.current_player, option))
            try:
                trial.apply(StepBack(snapshot.current_player))
                stepped = trial.snapshot.state == snapshot.state
            except CommandRejected:
                stepped = False
            assert snapshot.reversible[index] == stepped, (snapshot.pending, option)
            seen.add(stepped)
        walk.push(chooser.choice(walk.legal_moves()))
    assert seen == {True, False}
