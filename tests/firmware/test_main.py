"""The azul-table program: starts on the simulator, and SIGTERM or SIGHUP stops it cleanly with the LEDs off."""
import io
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from PIL import Image

import hardware
from tests.patience import patient

AZUL_TABLE = Path(sys.executable).with_name("azul-table")


@pytest.mark.parametrize("stop_signal", [signal.SIGTERM, signal.SIGHUP])
def test_a_stop_signal_stops_the_table_and_darkens_the_leds(tmp_path, stop_signal):
    png = tmp_path / "table.png"
    process = subprocess.Popen(
        [str(AZUL_TABLE), "--no-terminal", "--host", "127.0.0.1", "--port", "0", "--png", str(png), "--data", str(tmp_path / "data"),
         "--game", "pavilion", "--seats", "3", "--seed", "5"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        deadline = time.monotonic() + patient(30)
        while not png.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert png.exists(), "no frame was drawn"
        lit = Image.open(png).convert("L").getextrema()[1]
        process.send_signal(stop_signal)
        _, err = process.communicate(timeout=patient(30))
    finally:
        process.kill()
    assert process.returncode == 0, err
    assert "Azul: Summer Pavilion, 3 seats, LEDs on simulator" in err
    assert "phones join at http://127.0.0.1:" in err
    assert "stopped, LEDs off" in err
    layout = hardware.Layout(hardware.load_rig())
    all_off = hardware.render_png(layout, {p.name: bytes(3 * p.width * p.height) for p in layout.rig.panels})
    assert lit > 150
    assert Image.open(png).convert("RGB").tobytes() == Image.open(io.BytesIO(all_off)).convert("RGB").tobytes()


def test_bad_arguments_are_clear_errors(tmp_path):
    result = subprocess.run(
        [str(AZUL_TABLE), "--no-terminal", "--no-web", "--data", str(tmp_path), "--game", "duel",
         "--seats", "3"],
        capture_output=True, text=True, timeout=patient(60),
    )
    assert result.returncode == 2
    assert "Azul Duel is for 2-2 players, not 3" in result.stderr
