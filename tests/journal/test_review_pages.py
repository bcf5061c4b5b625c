"""GET /review: each player's biggest mistakes once a game is over; refused, never a 500, otherwise."""
import pytest

from firmware_py import games
from firmware_py.journal import Journal
from firmware_py.records import replay
from firmware_py.reviewer import Reviewer
from firmware_py.session import NewGame, Play, Seat, Session, Setup
from tests.journal.test_review import TINY
from web_remote import create_app, i18n
from web_remote.review import MIN_LOSS, MISTAKES_SHOWN
from web_remote.service import RemoteService

ADA_AND_BO = Setup(game="duel", seats=(Seat(name="Ada"), Seat(kind="phone", name="Bo")), seed=3)


def finish(session):
    while not session.snapshot.over:
        session.apply(Play(session.snapshot.current_player, session.snapshot.options[-1]))


@pytest.fixture
def table(tmp_path):
    """(client, session, journal) with a finished Duel between Ada and Bo, not reviewed yet; the session runs."""
    journal = Journal(tmp_path)
    session = Session(ADA_AND_BO, journal=journal)
    finish(session)
    service = RemoteService(session.start())
    yield create_app(service, {"TESTING": True}).test_client(), session, journal
    service.close()
    session.stop()
    journal.close()


def test_a_running_game_is_refused_with_a_clear_error_and_nothing_of_its_review(tmp_path):
    journal = Journal(tmp_path)
    session = Session(ADA_AND_BO, journal=journal)
    session.apply(Play(session.snapshot.current_player, session.snapshot.options[0]))
    service = RemoteService(session.start())
    client = create_app(service, {"TESTING": True}).test_client()
    try:
        for path in ("/review/current", f"/review/{journal.current_game}"):
            response = client.get(path, headers={"Accept-Language": "it"})
            assert response.status_code == 409
            assert response.json == {"error": "review.unfinished",
                                     "message": i18n.translate("it", "review.unfinished", n=journal.current_game)}
    finally:
        service.close()
        session.stop()
        journal.close()


def test_a_reviewed_game_shows_each_players_biggest_mistakes_on_the_position_before_them(table):
    client, session, journal = table
    game_id = journal.current_game
    Reviewer(journal, **TINY).review_game(game_id)
    review = client.get("/review/current").json
    assert review == client.get(f"/review/{game_id}").json
    assert review["complete"] and review["reviewed"] == review["decisions"] == len(session.snapshot.history)
    positions = replay(journal.export(game_id))
    losses = {row[1]: row[5] for row in journal.review_rows(game_id)}
    assert [player["name"] for player in review["players"]] == ["Ada", "Bo"]
    for player in review["players"]:
        mistakes = player["mistakes"]
        worst = sorted((loss for ply, loss in losses.items() if positions[ply - 1].current_player == player["seat"]
                        and loss >= MIN_LOSS), reverse=True)[:MISTAKES_SHOWN]
        assert [item["loss"] for item in mistakes] == [round(loss, 1) for loss in worst]
        for item in mistakes:
            before = positions[item["ply"] - 1]
            assert before.current_player == player["seat"]
            assert item["played"]["notation"] == session.snapshot.history[item["ply"] - 1][1]
            assert item["preferred"]["notation"] != item["played"]["notation"]
            assert item["preferred"]["notation"] in {str(move) for move in before.legal_moves()}
            assert item["board"]["state"] == games.spec("duel").public(before.to_dict())
            assert item["played"]["label"] == i18n.option_label("en", "duel", item["played"]["notation"])
    assert any(player["mistakes"] for player in review["players"])  # playing the last option is rarely best


def test_a_review_in_progress_says_how_far_it_got(table):
    client, _, journal = table
    game_id = journal.current_game
    rows = journal.review_rows(game_id)
    for decision_id, *_ in rows[:4]:
        journal.keep_review(decision_id, "P1", 0.0)
    review = client.get("/review/current").json
    assert not review["complete"] and review["reviewed"] == 4 and review["decisions"] == len(rows)
    assert all(not player["mistakes"] for player in review["players"])


def test_a_past_game_stays_reviewable_while_the_next_one_is_played(table):
    client, session, journal = table
    first = journal.current_game
    Reviewer(journal, **TINY).review_game(first)
    session.call(NewGame(ADA_AND_BO))
    assert client.get("/review/current").status_code == 409
    response = client.get(f"/review/{first}")
    assert response.status_code == 200 and response.json["game_id"] == first and response.json["complete"]


@pytest.mark.parametrize("path", ["/review/99", "/review/99999999999999999999", "/review/-1", "/review/x",
                                  "/review/1.5", "/review/"])
def test_bad_ids_are_not_found_not_errors(table, path):
    response = table[0].get(path)
    assert response.status_code == 404 and response.json["error"] in ("history.no_game", "error.not_found")


def test_an_imported_game_is_not_reviewed_and_says_so(table):
    client, _, journal = table
    imported = journal.import_record(journal.export(journal.current_game))
    response = client.get(f"/review/{imported}")
    assert response.status_code == 409 and response.json["error"] == "review.imported"
    assert imported not in journal.games_to_review()


def test_a_table_without_a_journal_has_no_review():
    session = Session(ADA_AND_BO).start()
    service = RemoteService(session)
    try:
        response = create_app(service, {"TESTING": True}).test_client().get("/review/current")
        assert response.status_code == 404 and response.json["error"] == "history.no_journal"
    finally:
        service.close()
        session.stop()
