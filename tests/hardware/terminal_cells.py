"""Reading the terminal view back: which colour each LED cell of a drawn line shows, as a terminal would."""
import re

TOKEN = re.compile(r"\x1b\[([0-9;?]*)([A-Za-z])|(.)", re.S)
ESCAPE = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def plain(line: str) -> str:
    """``line`` without its escape sequences: the text a terminal shows."""
    return ESCAPE.sub("", line)


def cells(line: str) -> list:
    """Per column of ``line``: (upper, lower) colours of its two LEDs (None where none is drawn), or the
    plain character where the column holds text."""
    foreground = background = None
    columns = []
    for parameters, command, char in TOKEN.findall(line):
        if command == "m":
            codes = [int(code) for code in parameters.split(";") if code]
            if codes in ([], [0]):
                foreground = background = None
            elif codes == [49]:
                background = None
            elif codes[:2] == [38, 2]:
                foreground = tuple(codes[2:5])
            elif codes[:2] == [48, 2]:
                background = tuple(codes[2:5])
        elif command:
            continue  # cursor and clearing sequences take no column
        elif char == "▀":
            columns.append((foreground, background))
        elif char == "▄":
            columns.append((background, foreground))
        elif char == " " and foreground is None and background is None:
            columns.append((None, None))
        else:
            columns.append(char)
    return columns


def led_colours(lines: list, left: int, width: int, height: int) -> dict:
    """The LED colours of a ``width`` x ``height`` area drawn from column ``left`` of ``lines``, by (x, y)."""
    found = {}
    for index, line in enumerate(lines[: (height + 1) // 2]):
        row = cells(line)[left : left + width]
        for x, cell in enumerate(row):
            upper, lower = cell if isinstance(cell, tuple) else (None, None)
            found[x, 2 * index] = upper
            if 2 * index + 1 < height:
                found[x, 2 * index + 1] = lower
    return found
