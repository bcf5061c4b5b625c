"""The rig file: the reference rig loads, and every kind of mistake is refused with a message naming it."""
import pytest

from hardware import RigError, load_rig, parse_rig


def test_reference_rig(rig):
    assert [p.name for p in rig.panels] == ["centre", "seat0", "seat1", "seat2", "seat3"]
    assert rig.panel("centre").size == (32, 16)
    assert len(rig.panel("centre").modules) == 2
    assert rig.led_count == 1536
    assert rig.table_size == (64, 48)
    assert rig.led_pins == (18, 13)
    assert rig.channel_led_counts() == (1024, 512)
    assert rig.budget_amps == 10.0
    assert rig.backend == "auto"
    assert len(rig.seats) == 4
    assert rig.seats[2].pins == {"PREV": 24, "NEXT": 25, "OK": 26, "BACK": 27}
    assert rig.button_pins()[None, "HOST"] == 4
    assert rig.long_press == {"OK", "BACK", "HOST"}
    assert (rig.debounce_s, rig.hold_s) == (0.03, 1.0)


def test_rig_errors_are_value_errors():
    assert issubclass(RigError, ValueError)


def test_unknown_panel_name(rig):
    with pytest.raises(ValueError, match="no panel named 'middle'.*centre"):
        rig.panel("middle")


def refused(text, *fragments):
    with pytest.raises(RigError) as caught:
        parse_rig(text, source="test.toml")
    message = str(caught.value)
    assert message.startswith("test.toml: ")
    for fragment in fragments:
        assert fragment in message, message
    return message


def test_overlapping_panels(reference_text):
    text = reference_text.replace('name = "seat0"\nsize = [16, 16]\nposition = [24, 32]', 'name = "seat0"\nsize = [16, 16]\nposition = [24, 30]')
    refused(text, "panels 'centre'", "'seat0'", "overlap on the table")


def test_turned_panel_footprint_counts_for_overlap(reference_text):
    # seat2 made 16 wide and 32 high: unturned it would fit the west edge, but facing 90 it lies 32 wide.
    tall = reference_text.replace(
        'name = "seat2"\nsize = [16, 16]',
        'name = "seat2"\nsize = [16, 32]',
    ).replace(
        "channel = 1\nchain = 0\n",
        "channel = 1\nchain = 0\n\n[[panel.module]]\noffset = [0, 16]\nsize = [16, 16]\nchannel = 1\nchain = 2\n",
    )
    refused(tall, "panels 'centre'", "'seat2'", "overlap on the table")
    assert parse_rig(tall.replace("facing = 90", "facing = 0")).panel("seat2").footprint == (16, 32)


def test_pin_used_twice(reference_text):
    refused(reference_text.replace("PREV = 24", "PREV = 5"), "GPIO5 is used twice", "seat 0 button PREV", "seat 2 button PREV")


def test_led_pins_used_twice(reference_text):
    refused(reference_text.replace("pin = 13", "pin = 18"), "GPIO18 is used twice")


def test_button_on_an_led_data_pin(reference_text):
    refused(reference_text.replace("OK = 22", "OK = 18"), "seat 1 button OK is on GPIO18, an LED data pin")


def test_button_on_a_pin_kept_for_led_data(reference_text):
    refused(reference_text.replace("host = 4", "host = 12"), "the HOST button is on GPIO12", "kept free for LED data")


def test_button_on_the_spi_bus_when_leds_use_spi(reference_text):
    text = reference_text.replace("pin = 13", "pin = 10")
    refused(text, "seat 3 button PREV is on GPIO7", "SPI")


def test_pin_outside_the_header(reference_text):
    refused(reference_text.replace("host = 4", "host = 1"), "GPIO1", "not a usable header pin")
    refused(reference_text.replace("host = 4", "host = 40"), "buttons.host", "0 to 27")


@pytest.mark.parametrize(
    "old, new, fragments",
    [
        ("[power]\n", "[power]\nvolts = 5\n", ["unknown key power.volts"]),
        ("[leds]\n", "[leds]\nbrightnes = 0.3\n", ["unknown key leds.brightnes"]),
        ("name = \"centre\"\n", "name = \"centre\"\ncolour = 1\n", ["unknown key panel[0].colour"]),
        ("rotation = 180\n", "rotation = 180\nflip = true\n", ["unknown key panel[0].module[0].flip"]),
        ("BACK = 11\n", "BACK = 11\nSTART = 3\n", ["unknown key seat[3].START"]),
        ("[power]\n", "[sound]\nvolume = 3\n[power]\n", ["unknown key sound"]),
    ],
)
def test_unknown_keys(reference_text, old, new, fragments):
    refused(reference_text.replace(old, new, 1), *fragments)


@pytest.mark.parametrize(
    "old, new, fragments",
    [
        ("rotation = 180", "rotation = 45", ["panel[0].module[0].rotation must be one of 0, 90, 180, 270", "45"]),
        ('wiring = "serpentine"', 'wiring = "zigzag"', ["panel[0].module[0].wiring", "'zigzag'"]),
        ('backend = "auto"', 'backend = "ws2812"', ["leds.backend", "'rpi_ws281x'"]),
        ('colour_order = "GRB"', 'colour_order = "GRR"', ["leds.colour_order"]),
        ("gamma = 2.8", "gamma = 9", ["leds.gamma must be a number from 1 to 4"]),
        ("max_brightness = 0.5", "max_brightness = 1.5", ["leds.max_brightness"]),
        ("budget_amps = 10.0", 'budget_amps = "ten"', ["power.budget_amps", "'ten'"]),
        ("facing = 180", "facing = true", ["panel[2].facing"]),
        ("size = [32, 16]", "size = [32]", ["panel[0].size must be two whole numbers"]),
        ("hold_ms = 1000", "hold_ms = 20", ["buttons.hold_ms"]),
        ('long_press = ["OK", "BACK", "HOST"]', 'long_press = ["UNDO"]', ["buttons.long_press"]),
        ('panel = "seat3"', 'panel = "seat9"', ["seat[3].panel names 'seat9'"]),
        ('panel = "seat3"', 'panel = "seat0"', ["seat[3] uses panel 'seat0'"]),
        ("BACK = 11\n", "\n", ["missing key seat[3].BACK"]),
        ("budget_amps = 10.0", "budget_amps = 1.5", ["1536 LEDs draw 1.536 A even when dark"]),
    ],
)
def test_bad_values(reference_text, old, new, fragments):
    assert old in reference_text
    refused(reference_text.replace(old, new, 1), *fragments)


def test_modules_must_cover_their_panel_exactly(reference_text):
    refused(reference_text.replace("offset = [16, 0]", "offset = [8, 0]"), "overlap at (8, 0)")
    gap = reference_text.replace("offset = [16, 0]\nsize = [16, 16]", "offset = [16, 0]\nsize = [15, 16]")
    refused(gap, "no module covers (31, 0) of panel 'centre'")
    refused(reference_text.replace("offset = [16, 0]", "offset = [17, 0]"), "sticks out of the 32x16 panel 'centre'")


def test_chain_positions_must_be_gapless(reference_text):
    refused(reference_text.replace("chain = 3", "chain = 4"), "LED channel 0", "chain positions 0 to 3", "[0, 1, 2, 4]")


def test_module_on_a_missing_channel(reference_text):
    refused(reference_text.replace("channel = 1\nchain = 1", "channel = 2\nchain = 1"), "panel[4].module[0].channel", "0 to 1")


def test_too_many_seats(reference_text):
    extra = '\n[[seat]]\npanel = "centre"\nPREV = 2\nNEXT = 3\nOK = 14\nBACK = 15\n'
    refused(reference_text + extra, "at most 4 seats")


def test_not_toml():
    refused("[leds\nbackend = 1", "not valid TOML")


def test_missing_file(tmp_path):
    with pytest.raises(RigError, match="cannot read rig file .*nowhere.toml"):
        load_rig(tmp_path / "nowhere.toml")


def test_load_from_a_path(tmp_path, reference_text):
    path = tmp_path / "table.toml"
    path.write_text(reference_text.replace("budget_amps = 10.0", "budget_amps = 6.0"))
    rig = load_rig(path)
    assert rig.budget_amps == 6.0
    assert rig.source == str(path)
