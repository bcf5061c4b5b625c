"""The players' pages: the list of everyone with each game's ratings, each player's results, rating over
time, results against the others, biggest mistakes and last games, the past games chosen by player and
game, and all of it as CSV and JSON; checked against figures worked out here from the journal's records,
with the host's changes refused to anyone else, and the pages fitting phones in every language."""
import csv
import html
import io
import json
import random
import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser

import pytest

from core_ext.ai.baselines import heuristic_move
from firmware_py.journal import Journal
from firmware_py.ratings import Rating
from firmware_py.session import AI_LEVELS, Play, Seat, Session, Setup
from tests.web.conftest import host_code
from tests.web.test_story_charts import finished_record
from web_remote import create_app, exports, i18n, runner
from web_remote.service import RemoteService

SVG = "{http://www.w3.org/2000/svg}"
EVIL = '=HYPERLINK("x.example")'  # a name a spreadsheet would run as a formula
PEOPLE = ("Ana", "Bea", "Cy", EVIL)


def played_at_the_table(journal, game, seats, seed, moves=None):
    """A game played at the table by the heuristic reference player, to its end (or ``moves`` decisions):
    its id in the journal."""
    session = Session(Setup(game=game, seats=seats, seed=seed), journal=journal)
    chooser = random.Random(seed)
    while not session.game.is_over() and (moves is None or len(session.snapshot.history) < moves):
        session.apply(Play(session.snapshot.current_player, str(heuristic_move(session.game.copy(), chooser))))
    return journal.current_game


def reviewed(journal, game_id, losses, complete=True):
    """Give a game's decisions a review: ``losses`` is seat -> the losses of that seat's decisions in order
    (decisions beyond the list lose nothing); the computer 'prefers' the option played next."""
    rows = journal.review_rows(game_id)
    counted = {}
    for index, (decision, _, seat, notation, _, _) in enumerate(rows):
        order = counted.setdefault(seat, 0)
        counted[seat] += 1
        seat_losses = losses.get(seat, [])
        loss = seat_losses[order] if order < len(seat_losses) else 0.0
        journal.keep_review(decision, rows[(index + 1) % len(rows)][3], loss)
    if complete:
        journal.finish_review(game_id)


def build_journal(path):
    """Four people and the computer players, nine table games (one with the computer, one left
    unfinished), two imported games (one counted for the ratings), some of them reviewed."""
    journal = Journal(path)
    ana, bea, cy, evil = (journal.players.create(name, colour=colour, symbol="circle")
                          for name, colour in zip(PEOPLE, ("blue", "vermilion", "green", "purple")))
    rig = {profile.id: Seat("rig", profile.name, player=profile.id) for profile in (ana, bea, cy, evil)}
    easy = Seat("ai", level="easy")
    games = {
        "duel": played_at_the_table(journal, "duel", (rig[ana.id], rig[bea.id]), 1),
        "computer": played_at_the_table(journal, "duel", (easy, rig[ana.id]), 2),
        "three": played_at_the_table(journal, "pavilion", (rig[ana.id], rig[bea.id], rig[cy.id]), 3),
        "four": played_at_the_table(journal, "pavilion", (rig[cy.id], rig[ana.id], Seat("rig", "Dee"),
                                                          rig[evil.id]), 4),
        "evil": played_at_the_table(journal, "duel", (rig[evil.id], rig[bea.id]), 5),
        "again": played_at_the_table(journal, "duel", (rig[bea.id], rig[ana.id]), 6),
        "half": played_at_the_table(journal, "duel", (rig[ana.id], rig[cy.id]), 7, moves=12),
        "unreviewed": played_at_the_table(journal, "duel", (rig[ana.id], rig[cy.id]), 8),
        "late": played_at_the_table(journal, "duel", (rig[cy.id], rig[ana.id]), 12),
    }
    games["imported"] = journal.import_record(finished_record("duel", ("Ana", "Cy"), 9))
    games["counted"] = journal.import_record(finished_record("pavilion", ("Cy", "Bea", "Ana"), 10))
    for profile in (ana, cy, bea):
        journal.players.attach(profile.name, profile.id)
    journal.ratings.set_counted(games["counted"], "yes")
    reviewed(journal, games["duel"], {0: [0.2, 3.5, 0.0, 1.25], 1: [9.0]})
    reviewed(journal, games["three"], {0: [0.0, 0.0, 6.0, 0.4], 2: [12.0]})
    reviewed(journal, games["again"], {1: [2.0, 0.5]})
    reviewed(journal, games["four"], {1: [0.3, 0.49]})
    reviewed(journal, games["unreviewed"], {0: [30.0]}, complete=False)  # not complete: no verdict yet
    zoe = journal.players.create("Zoe", languages=["sv"])  # no game yet
    return journal, {profile.name: profile.id for profile in (ana, bea, cy, evil, zoe)}, games


class Tables(HTMLParser):
    """The tables of a page by id: rows of (the row's attributes, its cells' texts)."""

    def __init__(self, text):
        super().__init__()
        self.tables, self._table, self._row, self._cell = {}, None, None, None
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "table":
            self._table = self.tables.setdefault(attrs.get("id"), [])
        elif tag == "tr" and self._table is not None:
            self._row = (attrs, [])
            self._table.append(self._row)
        elif tag in ("td", "th") and self._row is not None:
            self._cell = []

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None:
            self._row[1].append(" ".join("".join(self._cell).split()))
            self._cell = None
        elif tag == "table":
            self._table = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)


class Figures(HTMLParser):
    """The items of a page's figure lists by id: (the item's attributes, its figures' texts)."""

    def __init__(self, text):
        super().__init__()
        self.lists, self._list, self._item, self._figure = {}, None, None, None
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "ul" and "figures-list" in attrs.get("class", ""):
            self._list = self.lists.setdefault(attrs.get("id"), [])
        elif tag == "li" and self._list is not None:
            self._item = (attrs, [])
            self._list.append(self._item)
        elif tag == "dd" and self._item is not None:
            self._figure = []

    def handle_endtag(self, tag):
        if tag == "dd" and self._figure is not None:
            self._item[1].append("".join(self._figure).strip())
            self._figure = None
        elif tag == "ul":
            self._list = None

    def handle_data(self, data):
        if self._figure is not None:
            self._figure.append(data)


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    """The journal of :func:`build_journal` behind a running remote, a phone Duel of Ana and Bea on it."""
    journal, ids, games = build_journal(tmp_path_factory.mktemp("journal"))
    setup = Setup(game="duel", seats=(Seat("phone", "Ana", player=ids["Ana"]), Seat("phone", "Bea")), seed=11)
    session = Session(setup, journal=journal).start()
    service = RemoteService(session)
    app = create_app(service, {"TESTING": True})
    app.ids, app.games, app.journal, app.service = ids, games, journal, service
    app.host = service.host_login(host_code(session), "test")
    yield app
    service.close()
    session.stop()
    journal.close()


def get(app, path, language="en"):
    return app.test_client().get(path, headers={"Accept-Language": language})


# -- figures worked out here from the records ----------------------------------------------


def finished_games(journal):
    """(game id, game, seats' players, final scores, winners) of every finished game, from its record."""
    found = []
    for game_id in range(1, 1000):
        if journal.status(game_id) is None:
            break
        if journal.status(game_id)[0] != "finished":
            continue
        record = journal.export(game_id)
        found.append((game_id, record.setup.game, journal.players.of_game(game_id), record.final_scores,
                      record.winners))
    return found


def expected_results(journal, player):
    """{(game, seats): (played, won, mean, best)} of a player."""
    scores = {}
    for _, game, linked, final, winners in finished_games(journal):
        for seat, held in linked.items():
            if held == player:
                scores.setdefault((game, len(final)), []).append((final[seat], seat in winners))
    return {key: (len(rows), sum(w for _, w in rows), sum(s for s, _ in rows) / len(rows), max(s for s, _ in rows))
            for key, rows in scores.items()}


def expected_rivals(journal, player):
    """{other player: (games, won by the player alone, by the other alone, by both)}."""
    met = {}
    for _, _, linked, _, winners in finished_games(journal):
        seats = {held: seat for seat, held in linked.items()}
        if player not in seats:
            continue
        for other, seat in seats.items():
            if other != player:
                mine, theirs = seats[player] in winners, seat in winners
                old = met.get(other, (0, 0, 0, 0))
                met[other] = (old[0] + 1, old[1] + (mine and not theirs), old[2] + (theirs and not mine),
                              old[3] + (mine and theirs))
    return met


def test_a_players_page_shows_their_results_per_game_and_seat_count(table):
    journal, ana = table.journal, table.ids["Ana"]
    page = get(table, f"/players/{ana}")
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    assert re.search(r'<h1 class="named" id="player-name"><svg [^>]*class="mark"[^>]*>.*?</svg><span>Ana</span>', text)
    rows = Figures(text).lists["results"]
    shown = {(attrs["data-game"], int(attrs["data-seats"])): cells for attrs, cells in rows}
    want = expected_results(journal, ana)
    assert set(shown) == set(want) == {("duel", 2), ("pavilion", 3), ("pavilion", 4)}
    for key, (played, won, mean, best) in want.items():
        assert shown[key] == [str(played), str(won), i18n.format_number("en", round(mean, 1)), str(best)], key
    assert table.journal.status(table.games["half"]) == ("stopped", "table")  # counted in no figure


def test_head_to_head_counts_each_other_player_met_with_shared_wins(table):
    journal, ana = table.journal, table.ids["Ana"]
    rows = Figures(get(table, f"/players/{ana}").get_data(as_text=True)).lists["rivals"]
    shown = {int(attrs["data-player"]): [int(cell) for cell in cells] for attrs, cells in rows}
    want = expected_rivals(journal, ana)
    assert shown == {other: list(counted) for other, counted in want.items()}
    assert journal.players.computer("easy").id in shown and table.ids[EVIL] in shown


def test_the_rating_chart_draws_the_ratings_history_of_each_game(table):
    journal, ana = table.journal, table.ids["Ana"]
    text = get(table, f"/players/{ana}").get_data(as_text=True)
    svg = ET.fromstring(re.search(r'<figure class="chart-figure" id="chart-rating">.*?(<svg [^>]*role="img".*?</svg>)',
                                  text, re.S).group(1))
    history = {game: journal.ratings.history(ana, game) for game in ("duel", "pavilion")}
    rated = {row.game_id for rows in history.values() for row in rows}
    assert table.games["counted"] in rated and table.games["imported"] not in rated and len(history["duel"]) > 2
    description = svg.find(f"{SVG}desc").text
    assert description == "; ".join(
        f"{name}: " + ", ".join(i18n.rating_text("en", row.after) for row in history[game])
        for game, name in (("duel", "Azul Duel"), ("pavilion", "Azul: Summer Pavilion")))
    # Each point's marker (Ana's circle) sits where the rated game's number and its rating put it.
    centres = [(float(c.get("cx")), float(c.get("cy"))) for c in svg.iter(f"{SVG}circle")]
    points = [(number, row.after.mu) for game in ("duel", "pavilion") for number, row in enumerate(history[game], 1)]
    assert len(centres) == len(points)
    (x0, y0), (x1, y1) = centres[0], centres[1]
    (n0, mu0), (n1, mu1) = points[0], points[1]
    x_scale, y_scale = (x1 - x0) / (n1 - n0), (y1 - y0) / (mu1 - mu0)
    for (x, y), (number, mu) in zip(centres, points):
        assert x == pytest.approx(x0 + (number - n0) * x_scale, abs=0.15)
        assert y == pytest.approx(y0 + (mu - mu0) * y_scale, abs=0.15)
    assert y_scale < 0  # higher ratings higher up


def test_the_biggest_mistakes_come_from_complete_reviews_of_the_players_own_seat(table):
    journal, ana, games = table.journal, table.ids["Ana"], table.games
    text = get(table, f"/players/{ana}").get_data(as_text=True)
    shown = [(int(game), int(ply)) for game, ply in re.findall(r'<li data-game="(\d+)" data-ply="(\d+)">', text)]
    wanted = []
    for name, seat in (("duel", 0), ("three", 0), ("again", 1), ("four", 1)):
        for _, ply, row_seat, _, _, loss in journal.review_rows(games[name]):
            if row_seat == seat and loss >= 0.5:
                wanted.append((loss, games[name], ply))
    wanted.sort(key=lambda row: -row[0])
    assert shown == [(game, ply) for _, game, ply in wanted[:3]]
    assert [loss for loss, _, _ in wanted[:3]] == [6.0, 3.5, 2.0]
    assert f'href="/history/{games["three"]}?ply={shown[0][1]}"' in text
    assert "about 6 points lost" in text
    bea = get(table, f"/players/{table.ids['Bea']}").get_data(as_text=True)
    first_of_bea = next(ply for _, ply, seat, _, _, _ in journal.review_rows(games["duel"]) if seat == 1)
    assert re.findall(r'<li data-game="(\d+)" data-ply="(\d+)">', bea) == [(str(games["duel"]), str(first_of_bea))]
    cy = get(table, f"/players/{table.ids['Cy']}", "sv").get_data(as_text=True)
    assert 'id="mistakes"' in cy and "12 poäng" in cy  # Cy's 12-point loss in the 3-player game


def test_a_player_without_mistakes_or_games_and_a_computer_player_get_sentences(table):
    evil = get(table, f"/players/{table.ids[EVIL]}", "it").get_data(as_text=True)
    assert 'id="no-mistakes"' in evil and 'id="mistakes"' not in evil  # reviewed in one game, none to show
    assert i18n.translate("it", "player.no_mistakes", n=1) in html.unescape(evil)
    zoe = html.unescape(get(table, f"/players/{table.ids['Zoe']}", "it").get_data(as_text=True))
    for key in ("player.not_reviewed", "player.no_results", "player.no_rating", "player.no_rivals", "player.no_games"):
        assert i18n.translate("it", key) in zoe, key
    computer = table.journal.players.computer("easy")
    page = get(table, f"/players/{computer.id}", "pt").get_data(as_text=True)
    assert i18n.translate("pt", "profile.computer", level=i18n.translate("pt", "level.easy")) in html.unescape(page)
    assert 'id="edit-player"' not in page and 'id="merge"' not in page and 'id="mistakes"' not in page
    rows = Figures(page).lists["results"]
    assert [cells[0] for _, cells in rows] == ["1"]


def test_the_last_games_link_to_their_replays_and_to_the_players_past_games(table):
    ana, games = table.ids["Ana"], table.games
    text = get(table, f"/players/{ana}").get_data(as_text=True)
    listed = [int(game) for game in re.findall(r'<tr id="game-(\d+)">', text)]
    mine = [summary.id for summary in table.journal.games() if ana in summary.profiles]
    assert listed == mine[:10] and len(mine) > 10 and table.games["half"] in mine
    for game_id in listed:
        assert f'href="/history/{game_id}"' in text
    assert f'href="/history/?player={ana}"' in text


def test_the_players_list_shows_everyone_and_each_games_ratings(table):
    journal = table.journal
    text = get(table, "/players/", "it").get_data(as_text=True)
    tables = Tables(text).tables
    people = [int(attrs["id"].split("-")[1]) for attrs, _ in tables["people"][1:]]
    assert people == [profile.id for profile in journal.players.all(kind="person")]
    assert len(tables["computers"]) == 1 + len(AI_LEVELS)  # the heading row, then one per level
    finished = finished_games(journal)
    for attrs, cells in tables["people"][1:] + tables["computers"][1:]:
        player = int(attrs["id"].split("-")[1])
        played = [winners for _, _, linked, _, winners in finished if player in linked.values()]
        won = sum(seat in winners for _, _, linked, _, winners in finished for seat, held in linked.items()
                  if held == player)
        assert cells[1:] == [str(len(played)), str(won)], cells
    for game in ("duel", "pavilion"):
        rows = tables[f"ratings-{game}"][1:]
        standings = journal.ratings.standings(game)
        assert [int(attrs["data-player"]) for attrs, _ in rows] == [player for player, _, _ in standings]
        assert [cells[2] for _, cells in rows] == [f"{i18n.rating_text('it', rating)} {i18n.uncertainty_text('it', rating)}"
                                                 for _, rating, _ in standings]
        assert all("," in cells[2] for _, cells in rows)  # the phone's number format: 25,3 in Italian
        assert [cells[0] for _, cells in rows] == [str(rank) for rank in range(1, len(rows) + 1)]


# -- the past games, chosen ------------------------------------------------------------------


def listed_games(text):
    return [int(game) for game in re.findall(r'<tr id="game-(\d+)">', text)]


def test_the_past_games_are_chosen_by_player_and_game(table):
    journal, ana, cy = table.journal, table.ids["Ana"], table.ids["Cy"]
    everything = [summary.id for summary in journal.games()]
    assert listed_games(get(table, "/history/").get_data(as_text=True)) == everything
    with_ana = [g for g in everything if ana in journal.players.of_game(g).values()]
    assert listed_games(get(table, f"/history/?player={ana}").get_data(as_text=True)) == with_ana
    pavilion = [g for g in everything if journal.export(g).setup.game == "pavilion"]
    assert listed_games(get(table, "/history/?game=pavilion&player=").get_data(as_text=True)) == pavilion
    both = [g for g in pavilion if cy in journal.players.of_game(g).values()]
    text = get(table, f"/history/?player={cy}&game=pavilion").get_data(as_text=True)
    assert listed_games(text) == both and both
    assert f'<option value="{cy}" selected>Cy</option>' in text and '<option value="pavilion" selected>' in text
    assert f'href="/history/games.csv?player={cy}&amp;game=pavilion"' in text


@pytest.mark.parametrize("query, status", [("player=ana", 400), ("player=-1", 400), ("player=1e3", 400),
                                           ("player=99999999999999", 400), ("game=chess", 400),
                                           ("player=999", 404), ("game=duel&player=%E2%91%A0", 400)])
def test_bad_choices_are_a_page_in_the_phones_language(table, query, status):
    answer = get(table, f"/history/?{query}", "sv")
    assert answer.status_code == status and answer.mimetype == "text/html"
    key = "history.bad_filter" if status == 400 else "players.unknown"
    assert html.escape(i18n.translate("sv", key, n=999), quote=False) in answer.get_data(as_text=True)
    assert get(table, f"/history/games.csv?{query}", "sv").status_code == status


def test_the_host_sees_whether_each_ended_game_counts_for_the_ratings(table):
    text = get(table, "/history/").get_data(as_text=True)
    choices = dict(re.findall(r'<select data-counts="/api/host/games/(\d+)/rated">.*?<option value="(\w+)" selected',
                              text, re.S))
    ended = {summary.id for summary in table.journal.games() if summary.status != "running"}
    assert set(map(int, choices)) == ended
    assert choices[str(table.games["counted"])] == "yes" and choices[str(table.games["imported"])] == "auto"
    assert re.search(r'<label class="counts" hidden>', text)  # history.js shows it to the host only


# -- exports --------------------------------------------------------------------------------


def parsed_csv(answer):
    assert answer.status_code == 200 and answer.mimetype == "text/csv", answer.get_data(as_text=True)[:200]
    return list(csv.DictReader(io.StringIO(answer.get_data(as_text=True).removeprefix("\ufeff"))))


def test_the_players_files_hold_the_lists_numbers_and_neutralise_formulas(table):
    text = get(table, "/players/").get_data(as_text=True)
    tables = Tables(text).tables
    page = {int(attrs["id"].split("-")[1]): cells[1:] for attrs, cells in tables["people"][1:] + tables["computers"][1:]}
    answer = get(table, "/players.csv")
    assert answer.headers["Content-Disposition"] == 'attachment; filename="azul-players.csv"'
    rows = parsed_csv(answer)
    assert {int(row["id"]): [row["games"], row["won"]] for row in rows} == page
    evil = next(row for row in rows if int(row["id"]) == table.ids[EVIL])
    assert evil["name"] == "'" + EVIL
    assert not [cell for row in rows for cell in row.values() if cell[:1] in ("=", "+", "-", "@")]
    listed = json.loads(get(table, "/players.json").get_data())["players"]
    assert {row["id"]: [str(row["games"]), str(row["won"])] for row in listed} == page
    assert next(row for row in listed if row["id"] == table.ids[EVIL])["name"] == EVIL
    for game in ("duel", "pavilion"):
        shown = [(int(attrs["data-player"]), cells[0], cells[2].split(" ±")[0], cells[3]) for attrs, cells in tables[f"ratings-{game}"][1:]]
        ranked = sorted((row for row in rows if row[f"{game}_rank"]), key=lambda row: int(row[f"{game}_rank"]))
        assert [(int(row["id"]), row[f"{game}_rank"], row[f"{game}_rating"], row[f"{game}_games"]) for row in ranked] \
            == shown and shown
        ranked = sorted((row for row in listed if row["ratings"][game]["rank"]), key=lambda row: row["ratings"][game]["rank"])
        assert [(row["id"], str(row["ratings"][game]["rank"]), f'{row["ratings"][game]["rating"]:.1f}',
                 str(row["ratings"][game]["games"])) for row in ranked] == shown


def test_a_players_files_hold_the_pages_numbers(table):
    ana = table.ids["Ana"]
    text = get(table, f"/players/{ana}").get_data(as_text=True)
    results = {(attrs["data-game"], int(attrs["data-seats"])): cells for attrs, cells in Figures(text).lists["results"]}
    answer = get(table, f"/players/{ana}.csv")
    assert answer.headers["Content-Disposition"] == f'attachment; filename="azul-player-{ana}.csv"'
    rows = parsed_csv(answer)
    counted = {}
    for row in rows:
        if row["status"] == "finished":
            counted.setdefault((row["game"], int(row["seats"])), []).append((int(row["score"]), row["won"] == "1"))
    assert {key: [str(len(v)), str(sum(w for _, w in v)), i18n.format_number("en", round(sum(s for s, _ in v) / len(v), 1)),
                  str(max(s for s, _ in v))] for key, v in counted.items()} == results
    against = [row for row in parsed_csv(get(table, f"/players/{table.ids['Bea']}.csv"))
               if int(row["game_id"]) == table.games["evil"]]
    assert [row["opponents"] for row in against] == ["'" + EVIL]
    data = json.loads(get(table, f"/players/{ana}.json").get_data())
    assert {(row["game"], row["seats"]): [row["played"], row["won"], row["best"]] for row in data["results"]} == \
        {key: [int(v[0]), int(v[1]), int(v[3])] for key, v in results.items()}
    for game in ("duel", "pavilion"):
        history = table.journal.ratings.history(ana, game)
        assert [(row["game_id"], row["after"]) for row in data["ratings"][game]] == \
            [(row.game_id, round(row.after.mu, 3)) for row in history]
    rivals = {int(attrs["data-player"]): [int(cell) for cell in cells] for attrs, cells in Figures(text).lists["rivals"]}
    assert {row["player"]: [row["games"], row["won"], row["lost"], row["shared"]] for row in data["head_to_head"]} == rivals
    assert [(row["game_id"], row["ply"]) for row in data["mistakes"]] == \
        [(int(g), int(p)) for g, p in re.findall(r'<li data-game="(\d+)" data-ply="(\d+)">', text)]
    assert "token" not in json.dumps(data) and "join_code" not in json.dumps(data)


def test_the_past_games_files_follow_the_choice_and_are_bounded(table, monkeypatch):
    cy = table.ids["Cy"]
    text = get(table, f"/history/?player={cy}").get_data(as_text=True)
    answer = get(table, f"/history/games.csv?player={cy}")
    assert answer.headers["Content-Disposition"] == f'attachment; filename="azul-games-player-{cy}.csv"'
    rows = parsed_csv(answer)
    assert [int(row["id"]) for row in rows] == listed_games(text)
    data = json.loads(get(table, f"/history/games.json?player={cy}&game=duel").get_data())
    assert [row["id"] for row in data["games"]] == listed_games(get(table, f"/history/?player={cy}&game=duel")
                                                                .get_data(as_text=True))
    assert all(cy in [seat["player"] for seat in row["seats"]] for row in data["games"])
    assert data["left_out"] == 0 and data["limit"] == exports.MAX_GAMES
    assert not {"state", "start", "moves", "credentials", "seed"} & {key for row in data["games"] for key in row}
    monkeypatch.setattr(exports, "MAX_GAMES", 3)
    everything = json.loads(get(table, "/history/games.json").get_data())
    assert len(everything["games"]) == 3 and everything["left_out"] == len(table.journal.games()) - 3
    assert len(parsed_csv(get(table, "/history/games.csv"))) == 3


def test_a_formula_cell_gets_an_apostrophe_and_numbers_stay_numbers():
    assert [exports.cell(value) for value in ("=1+1", "+1", "-1", "@SUM(A1)", "\t=1", "\r=1", "Ana", -3, 2.5, None)] \
        == ["'=1+1", "'+1", "'-1", "'@SUM(A1)", "'\t=1", "'\r=1", "Ana", -3, 2.5, ""]


# -- refusals ---------------------------------------------------------------------------------


def rows_of(journal):
    with journal.reading() as db:
        return tuple(tuple(db.execute(f"SELECT * FROM {name} ORDER BY 1, 2").fetchall())
                     for name in ("players", "seat_players", "ratings", "games"))


@pytest.mark.parametrize("path", ["/players/99999", "/players/2147483648", "/players/99999999999999999999999"])
def test_an_unknown_player_is_a_404_page_in_the_phones_language(table, path):
    answer = get(table, path, "zh")
    assert answer.status_code == 404 and answer.mimetype == "text/html"
    number = path.rsplit("/", 1)[1]
    assert html.unescape(answer.get_data(as_text=True)).count(i18n.translate("zh", "players.unknown", n=int(number))) == 1
    for suffix in (".csv", ".json"):
        exported = get(table, path + suffix, "zh")
        assert exported.status_code == 404 and exported.json["message"] == i18n.translate(
            "zh", "players.unknown", n=int(number))


def test_host_changes_are_refused_without_the_host_token_and_a_seated_phone_renames_no_one(table):
    client, service, ana, bea = table.test_client(), table.service, table.ids["Ana"], table.ids["Bea"]
    seat = service.join(service.join_code, 1, "test")
    before = rows_of(table.journal)
    for path, body in ((f"/api/host/players/{ana}", {"name": "Mallory"}), ("/api/host/players", {"name": "Eve"}),
                       ("/api/host/players/merge", {"keep": ana, "merge": bea}),
                       ("/api/host/players/attach", {"name": "Dee", "player": ana}),
                       (f"/api/host/games/{table.games['imported']}/rated", {"counts": "yes"})):
        for headers, status in (({}, 401), ({"X-Seat-Token": seat}, 401), ({"X-Host-Token": seat}, 403),
                                ({"X-Host-Token": "guess"}, 403)):
            answer = client.post(path, json=body, headers={**headers, "Accept-Language": "pt"})
            assert answer.status_code == status, (path, headers, answer.json)
            assert answer.json["message"] and answer.json["message"] != answer.json["error"]
    assert client.get("/api/host/players/unlinked", headers={"X-Seat-Token": seat}).status_code == 401
    assert rows_of(table.journal) == before


@pytest.mark.parametrize("path, body, status, key", [
    ("/api/host/players/{ana}", {"name": "bea"}, 409, "players.name_taken"),
    ("/api/host/players/{ana}", {"name": "x" * 10_000}, 400, "players.long_name"),
    ("/api/host/players/99999", {"name": "Zed"}, 404, "players.unknown"),
    ("/api/host/players/merge", {"keep": "{ana}", "merge": "{ana}"}, 400, "players.merge_self"),
    ("/api/host/players/merge", {"keep": "{ana}", "merge": "{cy}"}, 409, "players.played_each_other"),
    ("/api/host/players", {"name": "CY"}, 409, "players.name_taken"),
])
def test_bad_changes_tell_the_servers_message_and_change_nothing(table, path, body, status, key):
    ids = {"ana": table.ids["Ana"], "cy": table.ids["Cy"]}
    body = {name: int(value.format(**ids)) if isinstance(value, str) and "{" in value else value
            for name, value in body.items()}
    before = rows_of(table.journal)
    answer = table.test_client().post(path.format(**ids), json=body,
                                      headers={"X-Host-Token": table.host, "Accept-Language": "it"})
    assert (answer.status_code, answer.json["error"]) == (status, key)
    assert answer.json["message"] and "{" not in answer.json["message"]
    assert rows_of(table.journal) == before


# -- in Chromium --------------------------------------------------------------------------------

# What a finger touches on the page, smaller than 44 x 44 CSS px: links, buttons, lists, fields, and the labels of
# radio buttons and check boxes (a label around a list or a field is not a target of its own).
SMALL_TARGETS = """() => {
  const box = "input:not([type=radio]):not([type=checkbox])";
  return [...document.querySelectorAll(`main a, main button, main select, main ${box}, main label:has(> input)`)]
    .filter((node) => node.getClientRects().length && !node.closest("[hidden]")
                      && !node.matches(`label:has(> select, > ${box})`))
    .map((node) => ({ what: `${node.tagName}#${node.id} ${node.textContent.trim().slice(0, 24)}`,
                      width: node.getBoundingClientRect().width, height: node.getBoundingClientRect().height }))
    .filter((found) => found.width < 44 || found.height < 44);
}"""


@pytest.fixture(scope="module")
def served(table):
    remote = runner.start(table.service, host="127.0.0.1", port=0)
    yield remote
    remote.close()


def phone(browser, remote, language, viewport, host=None):
    context = browser.new_context(base_url=f"http://127.0.0.1:{remote.port}", viewport=viewport, is_mobile=True,
                                  has_touch=True, locale=language)
    context.add_cookies([{"name": i18n.LANGUAGE_COOKIE, "value": language, "url": f"http://127.0.0.1:{remote.port}"}])
    if host:
        context.add_init_script(f"localStorage.setItem('azul.host', {json.dumps(host)})")
    return context


@pytest.mark.parametrize("language", list(i18n.LANGUAGES))
def test_the_players_pages_fit_phones_pass_axe_and_have_finger_sized_targets(browser, served, table, language):
    from tests.web.test_page_checks import OVERFLOW, serious_violations

    for viewport in ({"width": 390, "height": 844}, {"width": 320, "height": 568}):
        context = phone(browser, served, language, viewport, host=table.host)
        for path in ("/players/", f"/players/{table.ids['Ana']}", f"/players/{table.ids[EVIL]}",
                     f"/history/?player={table.ids['Ana']}"):
            page = context.new_page()
            page.goto(path)
            page.wait_for_load_state("networkidle")
            if path.startswith("/players/"):
                assert page.locator(".host-only").first.is_visible(), (language, path)
            layout = page.evaluate(OVERFLOW)
            assert layout["scroll"] <= layout["width"] and not layout["over"], (language, path, viewport, layout)
            if not path.startswith("/history/"):
                assert page.evaluate(SMALL_TARGETS) == [], (language, path, viewport)
            if viewport["width"] == 390 and not path.startswith("/history/"):
                assert not serious_violations(page), (language, path)
            page.close()
        context.close()


def test_without_the_host_token_the_pages_show_no_host_controls(browser, served, table):
    context = phone(browser, served, "en", {"width": 390, "height": 844})
    page = context.new_page()
    page.goto(f"/players/{table.ids['Ana']}")
    page.wait_for_load_state("networkidle")
    assert page.locator("#needs-host").is_visible()
    assert not page.locator("#edit-player").is_visible() and not page.locator("#merge").is_visible()
    page.goto("/history/")
    assert not page.locator("label.counts").first.is_visible()
    context.close()


@pytest.fixture
def changing(tmp_path, browser):
    """A journal of :func:`build_journal` behind a running remote for tests that change it, and a 390 px
    phone in Italian that holds the host token: (remote, journal, ids, games, context)."""
    journal, ids, games = build_journal(tmp_path)
    session = Session(Setup(game="duel", seats=(Seat("phone", "Ana"), Seat("phone", "Bea")), seed=11),
                      journal=journal).start()
    remote = runner.start(RemoteService(session), host="127.0.0.1", port=0)
    context = phone(browser, remote, "it", {"width": 390, "height": 844},
                    host=remote.service.host_login(host_code(session), "test"))
    yield remote, journal, ids, games, context
    context.close()
    remote.close()
    session.stop()
    journal.close()


def opened(context, path):
    page = context.new_page()
    page.goto(path)
    page.wait_for_load_state("networkidle")
    return page


def test_the_hosts_refused_changes_are_told_next_to_their_control_and_change_nothing(changing):
    from playwright.sync_api import expect

    remote, journal, ids, games, context = changing
    page = opened(context, f"/players/{ids['Ana']}")
    expect(page.locator("#edit-player-fields-name")).to_have_value("Ana")
    before = rows_of(journal)
    page.locator("#edit-player-fields-name").fill("bea")
    page.locator("#edit-player-button").tap()
    refused = page.locator("#edit-player-fields-refused")
    expect(refused).to_have_text(i18n.translate("it", "players.name_taken", name="Bea"))
    page.evaluate("() => { document.getElementById('edit-player-fields-name').value = 'x'.repeat(10000); }")
    page.locator("#edit-player-button").tap()
    expect(refused).to_have_text(i18n.translate("it", "players.long_name", n=24))
    # The merge form preselects no one and offers no one who sat at a game with Ana (Cy did: refused anyway).
    expect(page.locator("#merge-player")).to_have_value("")
    offered = page.locator("#merge-player option:not([disabled])").evaluate_all("(all) => all.map((o) => Number(o.value))")
    assert ids["Cy"] not in offered and ids["Ana"] not in offered
    met = {other for summary in journal.games() if ids["Ana"] in summary.profiles for other in summary.profiles}
    assert offered and not met & set(offered)
    page.locator("#merge-button").tap()  # nothing chosen: the form is not sent
    assert not page.locator("#merge-said").is_visible()
    assert rows_of(journal) == before and page.url.endswith(f"/players/{ids['Ana']}")


def test_the_host_renames_adds_attaches_and_counts_games_from_the_pages(changing):
    from playwright.sync_api import expect

    remote, journal, ids, games, context = changing
    page = opened(context, f"/players/{ids['Zoe']}")
    page.locator("#edit-player-fields-name").fill("Zoé Lund")
    page.locator("#edit-player-fields label.mark-choice:has(input[value='star'])").tap()
    page.locator("#edit-player-fields label.mark-choice:has(input[value='it'])").tap()
    page.locator("#edit-player-button").tap()
    expect(page.locator("#player-name span")).to_have_text("Zoé Lund")
    zoe = journal.players.get(ids["Zoe"])
    assert (zoe.name, zoe.symbol, set(zoe.languages)) == ("Zoé Lund", "star", {"sv", "it"})

    page = opened(context, "/players/")
    page.locator("#add-player-fields-name").fill("Ugo")
    page.locator("#add-player-button").tap()
    expect(page.locator("#people")).to_contain_text("Ugo")
    assert [p.name for p in journal.players.all(kind="person")].count("Ugo") == 1
    dee = i18n.translate("it", "attach.seat_games", name="Dee", n=1)  # the seat of a game without a player
    expect(page.locator("#attach-name option", has_text=dee)).to_have_count(1)
    page.locator("#attach-name").select_option("Dee")
    page.locator("#attach-player").select_option(str(ids["Zoe"]))
    page.locator("#attach-button").tap()
    expect(page.locator("#attach-name option", has_text=dee)).to_have_count(0)
    expect(page.locator(f"#player-{ids['Zoe']}")).to_have_attribute("data-games", "1")  # the game attached
    assert journal.players.of_game(games["four"])[2] == ids["Zoe"]

    page = opened(context, "/history/")
    choice = page.locator(f'select[data-counts="/api/host/games/{games["imported"]}/rated"]')
    choice.select_option("yes")
    expect(page.locator(f'#game-{games["imported"]} [role=status]')).to_have_text(i18n.translate("it", "history.counted"))
    assert journal.ratings.choices()[games["imported"]] == "yes"
    assert games["imported"] in {row.game_id for row in journal.ratings.history(ids["Ana"], "duel")}
