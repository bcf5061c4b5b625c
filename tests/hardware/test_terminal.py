"""The simulator's terminal view: half-block drawings, notes kept under them, a screen that never scrolls."""
import io
import os

from hardware import FrameBuffer, MemorySink, render_ansi
from hardware.terminal import TerminalSink, display_width, screen
from tests.hardware.terminal_cells import cells, plain

RED = (199, 0, 0)  # full red as the simulator shows it (inverse gamma of the capped level)


def test_ansi_view_colours_the_right_cell(layout):
    sink = MemorySink(layout)
    leds = FrameBuffer(layout, sink)
    leds.set_table(16, 17, (255, 0, 0))
    leds.show()
    lines = render_ansi(layout, sink.panels().display)
    assert len(lines) == 24
    # Table row 17 is the lower half (background colour) of text line 8, in the 17th cell.
    row = cells(lines[8])
    assert row[16][1] == RED
    assert RED not in [colour for cell in row[:16] + row[17:] for colour in cell]
    assert sum(cell != (None, None) for cell in cells(lines[0])) == 16  # rows 0-1: only the north seat's 16 LEDs


class Screen:
    """A terminal of a given size that TerminalSink writes to, resizable."""

    def __init__(self, columns, lines):
        self.out = io.StringIO()
        self.size = os.terminal_size((columns, lines))

    def draw(self, layout):
        """A TerminalSink on this terminal, and the LEDs that feed it."""
        sink = TerminalSink(layout, self.out, size=lambda: self.size)
        return sink, FrameBuffer(layout, sink)

    def last(self):
        """The lines of the last drawing (after the last cursor home)."""
        return self.out.getvalue().rsplit("\x1b[H", 1)[1].split("\n")


def test_the_screen_is_redrawn_in_place_and_never_ends_in_a_newline(layout):
    terminal = Screen(64, 24)
    sink, leds = terminal.draw(layout)
    leds.show()
    leds.show()
    text = terminal.out.getvalue()
    assert text.startswith("\x1b[?25l\x1b[2J\x1b[H")  # cleared once, cursor hidden
    assert text.count("\x1b[H") == 2
    drawn = terminal.last()
    # 24 lines exactly, so a 24-line terminal keeps the table's top row: no newline after the last
    assert len(drawn) == 24 and not drawn[-1].endswith("\n") and drawn[-1].endswith("\x1b[K\x1b[J")
    sink.close()
    assert terminal.out.getvalue().endswith("\x1b[?25h\n")


def test_notes_stay_under_the_drawing_until_replaced_or_removed(layout):
    terminal = Screen(80, 40)
    sink, leds = terminal.draw(layout)
    sink.note("code", "join code 111111")  # nothing is drawn before the first frame
    assert terminal.out.getvalue() == ""
    leds.show()
    sink.note("address", "phones join at http://192.0.2.1:8080/join")
    assert [plain(line) for line in terminal.last()[24:]] == ["join code 111111", "phones join at http://192.0.2.1:8080/join"]
    sink.note("code", "join code 222222")
    assert "join code 222222" in terminal.last()[24] and len(terminal.last()) == 26
    sink.note("address", None)
    assert len(terminal.last()) == 25
    assert sink.notes() == ["join code 222222"]


def test_a_resized_terminal_is_drawn_again_in_the_form_that_fits(layout):
    terminal = Screen(120, 40)
    sink, leds = terminal.draw(layout)
    leds.show()
    sink.refit()
    assert terminal.out.getvalue().count("\x1b[H") == 1  # same size: not drawn again
    assert len(terminal.last()) == 24
    terminal.size = os.terminal_size((80, 20))
    sink.refit()
    assert terminal.out.getvalue().count("\x1b[H") == 2
    assert terminal.last()[0].startswith("centre")  # the compact form: labelled panels
    assert len(terminal.last()) <= 20 and all(display_width(line) <= 80 for line in terminal.last())


def test_long_notes_are_cut_to_the_width_and_pictures_shown_only_where_there_is_room(layout):
    sink = MemorySink(layout)
    FrameBuffer(layout, sink).show()
    panels = sink.panels().display
    picture = "\n".join(["#" * 20] * 10)
    wide = screen(layout, panels, ["x" * 200, picture], 120, 30)
    assert wide[0].endswith(" " * 2 + "#" * 20)  # beside the table's drawing
    assert display_width(wide[24]) == 120 and wide[24].endswith("…")
    compact = screen(layout, panels, ["x" * 200, picture], 80, 24)
    assert compact[1].endswith(" " * 2 + "#" * 20)  # beside the compact drawing, narrowed for it
    assert len(compact) <= 24 and all(display_width(line) <= 80 for line in compact)
    short = screen(layout, panels, ["x" * 200, picture], 60, 24)
    assert not any("#" in line for line in short)
    assert len(short) <= 24 and all(display_width(line) <= 60 for line in short)
    tiny = screen(layout, panels, ["join code 1"], 20, 5)
    assert tiny[0].startswith("(the terminal is") and display_width(tiny[0]) == 20
    assert tiny[1:] == ["join code 1"]
