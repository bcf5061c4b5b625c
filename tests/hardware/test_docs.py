"""The builder's documentation follows the rig file: pin table, pictures and the rig tools."""
import io
import re
from pathlib import Path

from PIL import Image

from hardware.__main__ import main
from hardware.wiring import HEADER_PINS, pin_table, wiring_png

DOCS = Path(__file__).parents[2] / "docs"


def test_pin_table_in_the_docs_matches_the_reference_rig(rig):
    text = (DOCS / "rig.md").read_text()
    shown = re.search(r"<!-- pin-table:start -->\n(.*)<!-- pin-table:end -->", text, re.S).group(1)
    assert shown == pin_table(rig), "regenerate with: python -m hardware docs"


def test_pin_table_lists_every_pin_once(rig):
    table = pin_table(rig)
    for pin in list(rig.led_pins) + list(rig.button_pins().values()):
        assert table.count(f"| GPIO{pin} |") == 1
        assert f"| GPIO{pin} | {HEADER_PINS[pin]} |" in table


def test_docs_pictures_exist():
    for name in ("rig_wiring.png", "rig_orientation.png"):
        with Image.open(DOCS / "img" / name) as image:
            assert image.size[0] > 600


def test_wiring_diagram_draws_each_chain_in_its_colour(rig):
    from hardware.wiring import CHAIN_COLOURS

    with Image.open(io.BytesIO(wiring_png(rig))) as image:
        colours = {colour for _, colour in image.convert("RGB").getcolors(1 << 20)}
    assert CHAIN_COLOURS[0] in colours and CHAIN_COLOURS[1] in colours


def test_docs_command_writes_pictures_and_prints_the_table(tmp_path, capsys, rig):
    assert main(["docs", str(tmp_path)]) == 0
    assert capsys.readouterr().out == pin_table(rig)
    assert (tmp_path / "rig_wiring.png").stat().st_size > 0
    assert (tmp_path / "rig_orientation.png").stat().st_size > 0



def test_pattern_and_walk_commands_run_in_the_simulator(tmp_path, capsys, monkeypatch, small_rig_text):
    rig_file = tmp_path / "small.toml"
    rig_file.write_text(small_rig_text("[[panel.module]]\nsize = [4, 2]\n", size=(4, 2)))
    monkeypatch.setenv("AZUL_LED_BACKEND", "simulator")
    monkeypatch.setattr("builtins.input", lambda prompt: "")
    assert main(["pattern", "--rig", str(rig_file)]) == 0
    pattern_output = capsys.readouterr().out
    assert "\x1b[38;2;255;0;0m▀" in pattern_output  # the red top-left corner
    assert main(["walk", "--rig", str(rig_file), "--fps", "10000"]) == 0
    # One frame per LED of the chain, then the final dark frame.
    assert capsys.readouterr().out.count("\x1b[H") == 8 + 1
