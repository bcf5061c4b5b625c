"""``azul-table doctor`` on this PC, and the same checks stopping the table before it drives hardware that is not ready."""
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from hardware.board import Machine
from tests.patience import patient

AZUL_TABLE = Path(sys.executable).with_name("azul-table")


def azul_table(*args, env=None, guard=60):
    return subprocess.run([str(AZUL_TABLE), *args], capture_output=True, text=True, timeout=patient(guard), env=env)


def clean_environment(**extra):
    return {key: value for key, value in os.environ.items() if key != "AZUL_LED_BACKEND"} | extra


@pytest.mark.serial  # the doctor times the hard level on this machine
@pytest.mark.skipif(Machine().is_pi(), reason="this is a Pi: the doctor checks real hardware here")
def test_the_doctor_on_this_pc(tmp_path):
    result = azul_table("doctor", "--data", str(tmp_path / "data"), "--port", "0", env=clean_environment())
    *machine, players = [line.split(":")[0] for line in result.stdout.splitlines()]
    assert machine == ["ok  rig file", "ok  board", "ok  libraries", "ok  buttons", "ok  power", "ok  data directory", "ok  web port"]
    # Whether the hard level fits its cap depends on this machine's speed (its two outcomes are tested with
    # a stepped clock in tests/firmware/test_computer_seats.py); the doctor's exit status follows that line.
    assert players in ("ok  computer players", "FIX computer players")
    assert result.returncode == (0 if players.startswith("ok") else 1), result.stdout
    assert "LED backend simulator (rig file: auto): LEDs and buttons simulated" in result.stdout
    assert f"ok  data directory: {tmp_path / 'data'} (will be created), writable" in result.stdout
    assert not (tmp_path / "data").exists()


@pytest.mark.long  # the doctor times the hard and expert levels, here beside the other tests: a longer guard
def test_the_doctor_names_a_busy_port_and_a_bad_data_directory(tmp_path):
    (tmp_path / "file").write_text("not a directory")
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        result = azul_table("doctor", "--host", "127.0.0.1", "--port", str(port), "--data", str(tmp_path / "file"),
                            env=clean_environment(), guard=240)
    assert result.returncode == 1
    assert f"FIX web port: 127.0.0.1:{port}: another program listens there (is azul-table already running?)" in result.stdout
    assert f"FIX data directory: {tmp_path / 'file'} is not a directory" in result.stdout


def test_a_bad_rig_file_is_the_doctors_first_line(tmp_path):
    rig = tmp_path / "rig.toml"
    rig.write_text("[leds]\nbackend = 'laser'\n")
    result = azul_table("doctor", "--rig", str(rig), env=clean_environment())
    assert result.returncode == 1 and result.stdout == f"FIX rig file: {rig}: leds.channel must be a non-empty list of tables ([[leds.channel]])\n"


def test_the_table_stops_with_the_doctors_words_when_the_hardware_is_not_ready(tmp_path):
    result = azul_table("--no-terminal", "--no-web", "--data", str(tmp_path), env=clean_environment(AZUL_LED_BACKEND="pi5"))
    assert result.returncode == 2
    assert "azul-table: FIX board: LED backend 'pi5' needs a Raspberry Pi 5" in result.stderr
    assert "the rig is not ready; fix the lines above (azul-table doctor checks again)" in result.stderr
    assert not list(tmp_path.iterdir())  # stopped before the journal was opened
