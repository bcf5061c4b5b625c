"""Button latency of the table: a press on a gpiozero mock pin until its frame is written to the LEDs."""
import statistics
import time

import hardware
from firmware_py.session import Session, Setup
from firmware_py.table import Table

PRESSES = 300


def run():
    hw = hardware.simulate()  # real clock and the buttons' own ticking thread, as at the table
    session = Session(Setup(game="duel", seed=1))
    table = Table(hw, session).start()
    seat = session.snapshot.current_player
    latencies = []
    try:
        for _ in range(PRESSES):
            version = session.snapshot.version
            start = time.perf_counter()
            hw.press(seat, "NEXT")
            snapshot = session.wait_for_change(version, 2.0)
            table.display.wait_drawn(snapshot.version, 2.0)
            latencies.append((time.perf_counter() - start) * 1000)
            hw.release(seat, "NEXT")
            time.sleep(2 * hw.rig.debounce_s)
    finally:
        table.close()
    latencies.sort()
    yield "table.press_to_frame_ms", statistics.median(latencies), "ms"
    yield "table.press_to_frame_p95_ms", latencies[int(0.95 * len(latencies))], "ms"
