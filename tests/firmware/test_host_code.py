"""The host code: made at the rig on request, shown on the centre panel and the terminal only then, short-lived."""
import io

import pytest

import hardware
from firmware_py import main as table_program
from firmware_py.credentials import digest
from firmware_py.session import HOST_CODE_S, HostLogin, Press, Seat, Session, Setup, WrongCode
from firmware_py.table import Table
from tests.firmware.test_undo import Clock, read_text


def open_host_code(tap):
    """Hold HOST, walk to the HOST item, choose it."""
    tap(None, "HOST", hold=True)
    tap(None, "HOST")
    tap(0, "OK")


def test_the_host_code_is_on_the_leds_only_after_asking_at_the_rig(table_driver):
    driver = table_driver(Setup(game="duel", seed=3))
    assert driver.table.display.wait_drawn(driver.snapshot.version)
    assert read_text(driver, "centre", 0, 1, 4) != "HOST"
    open_host_code(driver.tap)
    code = driver.snapshot.host_code
    assert len(code) == 8 and code.isdigit()
    assert read_text(driver, "centre", 0, 1, 4) == "HOST" and read_text(driver, "centre", 0, 9, 8) == code
    driver.tap(0, "NEXT")
    assert driver.snapshot.host_code is None and read_text(driver, "centre", 0, 9, 8) != code


def test_a_host_code_works_once_for_ten_minutes_and_a_join_code_never_does():
    clock = Clock()
    session = Session(Setup(game="duel", seats=(Seat(kind="phone"), Seat(kind="phone")), seed=3), clock=clock)

    def ask():
        """A new host code from the rig; the menu is closed again after."""
        open_host_code(lambda seat, button, hold=False: session.apply(Press(seat, button, "hold" if hold else "press")))
        code = session.snapshot.host_code
        session.apply(Press(None, "HOST", "hold"))
        return code

    with pytest.raises(WrongCode):
        session.apply(HostLogin(session.snapshot.credentials.join_code, digest("a")))
    code = ask()
    clock.now += HOST_CODE_S - 1
    session.apply(HostLogin(code, digest("a")))
    assert session.snapshot.credentials.is_host(digest("a"))
    with pytest.raises(WrongCode):  # used up
        session.apply(HostLogin(code, digest("b")))
    code = ask()
    clock.now += HOST_CODE_S
    with pytest.raises(WrongCode):  # expired
        session.apply(HostLogin(code, digest("b")))
    assert not session.snapshot.credentials.is_host(digest("b"))


def test_the_terminal_prints_a_host_code_only_when_it_is_asked_for(capsys):
    session = Session(Setup(game="duel", seed=3))
    table_program.print_host_codes(session)
    assert "host code" not in capsys.readouterr().err
    open_host_code(lambda seat, button, hold=False: session.apply(Press(seat, button, "hold" if hold else "press")))
    assert f"host code {session.snapshot.host_code}" in capsys.readouterr().err


def test_a_host_code_stays_under_the_terminals_drawing_only_while_the_rig_shows_it():
    terminal = io.StringIO()
    hw = hardware.simulate(clock=hardware.ManualClock(), terminal=terminal)
    try:
        session = Session(Setup(game="duel", seed=3))
        table_program.print_host_codes(session, Table(hw, session).tell)

        def press(seat, button, hold=False):
            session.apply(Press(seat, button, "hold" if hold else "press"))

        open_host_code(press)
        assert [note for note in hw.terminal.notes() if note.startswith("host code")] == [
            f"host code {session.snapshot.host_code} (for the phone's host page; works once, within 10 minutes)"]
        press(0, "NEXT")
        assert not any(note.startswith("host code") for note in hw.terminal.notes())
    finally:
        hw.close()
