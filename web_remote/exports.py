"""The pages' lists as files to keep or open in a spreadsheet: CSV and JSON downloads.

Only what the pages show is exported: summaries of games, never a record of
an unfinished game, a token or a code. A spreadsheet runs a cell that starts
with ``=``, ``+``, ``-`` or ``@`` (or a tab or carriage return before one) as
a formula, so such a text cell gets a leading apostrophe: a player named
``=HYPERLINK(...)`` stays a name. Numbers are written as numbers.
"""
import csv
import io
import json
import re
import unicodedata

from flask import Response

MAX_GAMES = 10_000
"""Rows of games an export holds at most (the newest): far more than a table plays in years."""
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
_SAFE_NAME = re.compile(r"[a-z0-9][a-z0-9-]*\.(csv|json)\Z")


def cell(value):
    """A value as a CSV cell: text that a spreadsheet would run as a formula is made plain text, judged after
    NFKC as a spreadsheet may read it ("＝" and "﹦" are "=")."""
    if isinstance(value, str) and unicodedata.normalize("NFKC", value).startswith(FORMULA_STARTS):
        return "'" + value
    return "" if value is None else value


def _download(body: str, mimetype: str, name: str) -> Response:
    if not _SAFE_NAME.match(name):
        raise ValueError(f"an export's file name is made of lowercase letters, digits and dashes, not {name!r}")
    response = Response(body, mimetype=mimetype)
    response.headers["Content-Disposition"] = f'attachment; filename="{name}"'
    response.headers["X-Content-Type-Options"] = "nosniff"
    return response


def csv_file(name: str, header, rows) -> Response:
    """``rows`` under ``header`` as the CSV download ``name``.csv (UTF-8 with a byte order mark, which
    spreadsheets need to read names in other scripts)."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow([cell(title) for title in header])
    writer.writerows([cell(value) for value in row] for row in rows)
    return _download("\ufeff" + out.getvalue(), "text/csv", f"{name}.csv")


def json_file(name: str, data) -> Response:
    """``data`` as the JSON download ``name``.json."""
    return _download(json.dumps(data, ensure_ascii=False, indent=1), "application/json", f"{name}.json")


def bounded(rows: list) -> tuple:
    """(the first MAX_GAMES rows, how many were left out)."""
    return rows[:MAX_GAMES], max(0, len(rows) - MAX_GAMES)
