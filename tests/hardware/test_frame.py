"""The frame buffer: addressing, gamma and brightness cap, and the current limiter."""
import pytest

from hardware import FrameBuffer, Layout, MemorySink, parse_rig
from hardware.frame import estimate_milliamps, level_table
from hardware.rig import REFERENCE_RIG

WHITE = (255, 255, 255)


def buffer(rig, **options):
    layout = Layout(rig)
    sink = MemorySink(layout)
    return FrameBuffer(layout, sink, **options), sink


def reference_with(old, new):
    text = REFERENCE_RIG.read_text()
    assert old in text
    return parse_rig(text.replace(old, new))


def test_gamma_table_follows_the_adafruit_curve():
    table = level_table(2.8, 1.0)
    assert [table[v] for v in (0, 64, 127, 192, 255)] == [0, 5, 36, 115, 255]


def test_cap_scales_after_gamma():
    table = level_table(2.8, 0.5)
    assert table[255] == 128
    assert table[127] == 18


def test_brightness_setting_scales_within_the_rig_cap(rig):
    leds, sink = buffer(rig)
    leds["centre", 0, 0] = (255, 127, 0)
    leds.show()
    assert sink.panels().pixel("centre", 0, 0) == (128, 18, 0)
    leds.brightness = 0.5
    leds.show()
    assert sink.panels().pixel("centre", 0, 0) == (64, 9, 0)


def test_full_white_on_the_reference_rig_is_limited_under_budget(rig):
    leds, sink = buffer(rig)
    leds.fill(WHITE)
    frame = leds.show()
    assert frame.limiter_scale < 1.0
    assert frame.estimated_milliamps <= rig.budget_amps * 1000
    assert frame.estimated_milliamps > 0.97 * rig.budget_amps * 1000  # limited, not blacked out
    assert estimate_milliamps(rig, b"".join(sink.last.channels)) == pytest.approx(frame.estimated_milliamps)
    level = sink.panels().pixel("seat3", 5, 5)[0]
    assert level == sink.panels().pixel("centre", 31, 0)[0]  # scaled evenly
    assert 0 < level < 128


def test_unlimited_full_white_would_exceed_the_budget(rig):
    # 1,536 LEDs at the 0.5 cap: 1536 * (3 * 20 mA * 128/255 + 1 mA) = 47.8 A, far over 10 A.
    assert estimate_milliamps(rig, bytes([128]) * 3 * 1536) > 40_000


def test_frame_under_budget_is_untouched(rig):
    leds, sink = buffer(rig)
    leds.fill(WHITE, "seat0")
    frame = leds.show()
    assert frame.limiter_scale == 1.0
    assert sink.panels().pixel("seat0", 0, 0) == (128, 128, 128)
    # 256 LEDs at level 128 per channel plus 1,536 idle LEDs.
    assert frame.estimated_milliamps == pytest.approx(256 * 3 * 20 * 128 / 255 + 1536)


def test_limiter_follows_a_smaller_budget():
    rig = reference_with("budget_amps = 10.0", "budget_amps = 3.0")
    leds, _ = buffer(rig)
    leds.fill((255, 0, 0))
    frame = leds.show()
    assert frame.estimated_milliamps <= 3000
    assert frame.limiter_scale < 0.3


def test_dark_frame_draws_idle_current_only(rig):
    leds, _ = buffer(rig)
    assert leds.show().estimated_milliamps == pytest.approx(1536 * 1.0)


def test_addressing_by_panel_and_by_table(rig):
    leds, _ = buffer(rig)
    leds["seat1", 2, 3] = (1, 2, 3)
    assert leds.get("seat1", 2, 3) == (1, 2, 3)
    # seat1 is turned 180 degrees at (24, 0): its (2, 3) sits at table (24 + 13, 0 + 12).
    assert leds.get_table(37, 12) == (1, 2, 3)
    leds.set_table(16, 16, (9, 9, 9))
    assert leds["centre", 0, 0] == (9, 9, 9)


def test_set_and_get_whole_panels(rig):
    leds, _ = buffer(rig)
    image = bytes(range(256)) * 3
    leds.set_panel("seat2", image)
    assert leds.get_panel("seat2") == image
    assert leds["seat2", 1, 0] == (3, 4, 5)


@pytest.mark.parametrize(
    "action, message",
    [
        (lambda leds: leds.set("centre", 32, 0, WHITE), r"\(32, 0\) is outside panel 'centre' \(32x16\)"),
        (lambda leds: leds.set("centre", -1, 0, WHITE), "outside panel"),
        (lambda leds: leds.set("floor", 0, 0, WHITE), "no panel named 'floor'"),
        (lambda leds: leds.set("centre", 0, 0, (255, 0)), r"a colour must be \(r, g, b\)"),
        (lambda leds: leds.set("centre", 0, 0, (256, 0, 0)), "each from 0 to 255"),
        (lambda leds: leds.fill((0, -1, 0)), "each from 0 to 255"),
        (lambda leds: leds.set_table(0, 0, WHITE), r"table position \(0, 0\) has no LED"),
        (lambda leds: leds.set_panel("seat0", b"\0" * 10), "needs 768 bytes"),
        (lambda leds: setattr(leds, "brightness", 1.5), "brightness must be a number from 0 to 1"),
    ],
)
def test_bad_input_is_refused_and_changes_nothing(rig, action, message):
    leds, _ = buffer(rig)
    leds.fill((7, 7, 7))
    before = leds.render().channels
    with pytest.raises(ValueError, match=message):
        action(leds)
    assert leds.render().channels == before
    assert leds.brightness == 1.0


def test_show_sends_to_the_sink_with_increasing_sequence(rig):
    leds, sink = buffer(rig)
    first, second = leds.show(), leds.show()
    assert list(sink.frames) == [first, second]
    assert second.seq == first.seq + 1
