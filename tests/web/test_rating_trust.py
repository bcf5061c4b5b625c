"""Ratings a family believes: each rating is shown with its uncertainty, a rating from few games is marked new,
and the tables are ordered by the cautious estimate (mu - 3 sigma), which the page says."""
import re

import pytest

from firmware_py.journal import Journal
from firmware_py.ratings import SETTLED_SIGMA
from firmware_py.session import Seat, Session, Setup
from tests.web.test_story_charts import finished_record
from web_remote import create_app, i18n
from web_remote.service import RemoteService


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    """Ana and Bea met in seven counted Duels; Cy beat Dee in one."""
    journal = Journal(tmp_path_factory.mktemp("journal"))
    for seed in range(7):
        journal.ratings.set_counted(journal.import_record(finished_record("duel", ("Ana", "Bea"), seed)), "yes")
    record = finished_record("duel", ("Cy", "Dee"), 11)
    journal.ratings.set_counted(journal.import_record(record), "yes")
    ids = {}
    for name in ("Ana", "Bea", "Cy", "Dee"):
        ids[name] = journal.players.create(name).id
        journal.players.attach(name, ids[name])
    session = Session(Setup(game="duel", seats=(Seat(name="X"), Seat(name="Y")), seed=1), journal=journal)
    service = RemoteService(session.start())
    yield create_app(service, {"TESTING": True}).test_client(), journal, ids, ("Cy", "Dee")[record.winners[0]]
    service.close()
    session.stop()
    journal.close()


@pytest.mark.parametrize("language", ["en", "it"])
def test_the_ratings_table_shows_uncertainty_marks_new_ratings_and_orders_by_the_cautious_estimate(table, language):
    client, journal, ids, lucky = table
    page = client.get("/players/", headers={"Accept-Language": language}).get_data(as_text=True)
    body = page.split('id="ratings-duel"')[1].split("</table>")[0]
    rows = re.findall(r'<tr data-player="(\d+)"( class="new-rating")?>(.*?)</tr>', body, re.S)
    current = {name: journal.ratings.current(player, "duel")[0] for name, player in ids.items()}
    by_id = {player: name for name, player in ids.items()}
    shown = [by_id[int(player)] for player, _, _ in rows]
    assert shown == sorted(current, key=lambda name: -(current[name].mu - 3 * current[name].sigma))
    by_mu = sorted(current, key=lambda name: -current[name].mu)
    assert by_mu.index(lucky) < shown.index(lucky)  # one lucky game no longer ranks above seven games' worth
    for player, marked, cells in rows:
        rating = current[by_id[int(player)]]
        assert i18n.uncertainty_text(language, rating) in cells
        assert bool(marked) == (rating.sigma >= SETTLED_SIGMA)
        assert (i18n.translate(language, "ratings.new") in cells) == bool(marked)
    assert [bool(marked) for _, marked, _ in rows].count(True) == 2  # Cy and Dee, one game each
    assert i18n.translate(language, "ratings.order", settled=i18n.format_number(language, SETTLED_SIGMA)) in \
        page.replace("&#39;", "'")


def test_the_players_page_holds_the_tables_records(table):
    client, journal, ids, _ = table
    page = client.get("/players/", headers={"Accept-Language": "en"}).get_data(as_text=True)
    found = re.findall(r'<li( data-game="(\w+)" data-seats="(\d)"| data-streak) data-value="(\d+)" data-player="(\d+)">',
                       page.split('id="records"')[1].split("</ul>")[0])
    by_id = {player: name for name, player in ids.items()}
    finished = sorted((summary for summary in journal.games() if summary.status == "finished"),
                      key=lambda summary: (summary.finished, summary.id))
    best = max((summary.scores[seat], -summary.id, by_id[player]) for summary in finished
               for seat, player in enumerate(summary.profiles) if player in by_id)
    runs, longest = {}, {}
    for summary in finished:
        for seat, player in enumerate(summary.profiles):
            runs[player] = runs.get(player, 0) + 1 if seat in summary.winners else 0
            longest[player] = max(longest.get(player, 0), runs[player])
    assert [(game, seats, int(value)) for _, game, seats, value, _ in found[:-1]] == [("duel", "2", best[0])]
    assert found[-1][0] == " data-streak" and int(found[-1][3]) == max(longest.values())
    assert longest[int(found[-1][4])] == max(longest.values())
    assert i18n.translate("en", "records.streak", n=max(longest.values()), count=str(max(longest.values()))) in page
