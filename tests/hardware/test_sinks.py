"""Simulator sinks: memory read-back, the frame stream, PNG snapshots and the ANSI view."""
import io
import os
import threading
from pathlib import Path

import pytest
from PIL import Image

from hardware import FrameBuffer, FrameStream, MemorySink, SinkGroup, render_png
from hardware.patterns import orientation, wire_walk
from hardware.sinks import DARK_LED, SEAM_COLOUR

GOLDEN = Path(__file__).with_name("golden")


def test_memory_sink_reads_back_per_panel_and_in_wire_order(layout):
    sink = MemorySink(layout)
    leds = FrameBuffer(layout, sink)
    leds["seat3", 0, 0] = (255, 0, 0)
    leds.show()
    assert sink.panels().pixel("seat3", 0, 0) == (128, 0, 0)
    assert sink.panels().pixel("seat3", 0, 0, display=True) == (199, 0, 0)
    assert sink.panels().rows("seat3")[0][:2] == [(128, 0, 0), (0, 0, 0)]
    assert sink.wire(1)[3 * 256 : 3 * 256 + 3] == bytes((0, 128, 0))  # seat3 heads channel 1's second half, GRB
    assert not any(sink.wire(0))


def test_memory_sink_keeps_the_last_frames(layout):
    sink = MemorySink(layout, keep=2)
    leds = FrameBuffer(layout, sink)
    frames = [leds.show() for _ in range(3)]
    assert list(sink.frames) == frames[1:]
    assert sink.panels(0).seq == frames[1].seq


def test_empty_memory_sink_says_so(layout):
    with pytest.raises(LookupError, match="no frame"):
        MemorySink(layout).panels()


def test_stream_subscriber_gets_the_latest_frame_and_skips_older_ones(layout):
    stream = FrameStream(layout)
    leds = FrameBuffer(layout, stream)
    subscription = stream.subscribe()
    assert subscription.next(timeout=0) is None
    leds.show()
    leds["centre", 1, 1] = (255, 255, 255)
    last = leds.show()
    received = subscription.next(timeout=0)
    assert received.seq == last.seq
    assert received.pixel("centre", 1, 1) == (128, 128, 128)
    assert subscription.next(timeout=0) is None  # nothing newer yet


def test_stream_wakes_a_waiting_subscriber_from_another_thread(layout):
    stream = FrameStream(layout)
    leds = FrameBuffer(layout, stream)
    subscription = stream.subscribe()
    received = []
    reader = threading.Thread(target=lambda: received.append(subscription.next(timeout=5)))
    reader.start()
    frame = leds.show()
    reader.join(5)
    assert received and received[0].seq == frame.seq


def test_a_subscriber_that_never_reads_does_not_hold_the_writer(layout):
    stream = FrameStream(layout)
    leds = FrameBuffer(layout, stream)
    stream.subscribe()
    for _ in range(50):
        leds.show()
    assert stream.latest.seq == 50


def test_closing_the_stream_ends_subscriptions(layout):
    stream = FrameStream(layout)
    FrameBuffer(layout, stream).show()
    subscription = stream.subscribe()
    stream.close()
    assert subscription.next(timeout=5) is None
    assert list(subscription) == []


def test_sink_group_feeds_every_sink(layout):
    first, second = MemorySink(layout), MemorySink(layout)
    frame = FrameBuffer(layout, SinkGroup([first, second])).show()
    assert first.last == second.last == frame


def orientation_png(layout):
    sink = MemorySink(layout)
    leds = FrameBuffer(layout, sink)
    orientation(leds)
    leds.show()
    return render_png(layout, sink.panels().display)


def pixels(png):
    with Image.open(io.BytesIO(png)) as image:
        return image.size, image.convert("RGB").tobytes()


def test_png_snapshot_of_the_orientation_pattern(layout):
    png = orientation_png(layout)
    golden = GOLDEN / "orientation.png"
    if os.environ.get("UPDATE_GOLDEN"):
        golden.write_bytes(png)
    assert pixels(png) == pixels(golden.read_bytes()), "set UPDATE_GOLDEN=1 to accept a deliberate change"


def test_png_draws_round_dots_and_seams(layout):
    with Image.open(io.BytesIO(orientation_png(layout))) as png:
        image = png.convert("RGB")
    led, margin = 12, 12

    def led_centre(tx, ty):
        return margin + tx * led + led // 2, margin + ty * led + led // 2

    # centre (0, 0) is red at table (16, 16): the dot's middle is red, its cell corner is board, not dot.
    assert image.getpixel(led_centre(16, 16))[0] > 150
    corner = (margin + 16 * led + 1, margin + 16 * led + 2)
    assert image.getpixel(corner) != image.getpixel(led_centre(16, 16))
    assert image.getpixel(led_centre(20, 20)) == DARK_LED
    # The seam between the centre's two modules (table x = 32) is outlined.
    assert image.getpixel((margin + 32 * led, margin + 20 * led + 5)) == SEAM_COLOUR


def test_png_sink_writes_the_file(layout, tmp_path):
    from hardware import PngSink

    path = tmp_path / "table.png"
    sink = PngSink(layout, path)
    FrameBuffer(layout, sink).show()
    assert path.read_bytes() == sink.last_png
    with Image.open(path) as image:
        assert image.size == (64 * 12 + 24, 48 * 12 + 24)


def test_wire_walk_lights_leds_in_data_order(layout):
    sink = MemorySink(layout)
    leds = FrameBuffer(layout, sink)
    wire_walk(leds, step=300, trail=3)
    leds.show()
    lit = [index // 3 for index, value in enumerate(sink.wire(0)) if value and index % 3 == 0]
    assert lit == [298, 299, 300]
    lit_on_channel_1 = [index // 3 for index, value in enumerate(sink.wire(1)) if value and index % 3 == 0]
    assert lit_on_channel_1 == [298, 299, 300]
