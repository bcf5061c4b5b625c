"""What the phone is told besides the game itself: what an undo would do, the rounds, the restart notice."""
import pytest

from firmware_py.journal import Journal
from firmware_py.session import Play, RequestUndo, Seat, Session, Setup
from web_remote import i18n, payload

AGAINST_THE_COMPUTER = Setup(game="duel", seats=(Seat(name="Ana"), Seat(kind="ai")), seed=3)


def play_until(session, wanted, limit=400):
    """Play first options (the computer's too) until ``wanted(snapshot)``."""
    for _ in range(limit):
        if wanted(session.snapshot):
            return session.snapshot
        session.apply(Play(session.snapshot.current_player, session.snapshot.options[0]))
    raise AssertionError("the position looked for was not reached")


@pytest.mark.parametrize("game, rounds", [("duel", 5), ("pavilion", 6)])
def test_the_number_of_rounds_is_the_games_and_every_language_says_it(game, rounds):
    session = Session(Setup(game=game, seed=1))
    while not session.snapshot.over:
        session.apply(Play(session.snapshot.current_player, session.snapshot.options[0]))
    view = payload.build(session.snapshot, "en")
    assert view["rounds"] == rounds and view["round"] == rounds, "the last round is the game's number of rounds"
    for language in i18n.LANGUAGES:
        words = i18n.translate(language, "live.round", round=3, rounds=rounds)
        assert "3" in words and str(rounds) in words, (language, words)


def test_the_undo_entry_of_each_seat_says_what_it_would_take_back():
    session = Session(AGAINST_THE_COMPUTER)
    start = payload.build(session.snapshot, "en")["undo"]
    assert start[1] is None, "the computer's seat has no undo button"
    assert start[0] == {"possible": False, "words": "There is nothing to undo.", "agree": None}
    snapshot = play_until(session, lambda s: s.undo_plans[0].possible and len(s.undo_plans[0].decisions) == 3)
    offer = payload.build(snapshot, "en")["undo"][0]
    own = snapshot.undo_plans[0].decisions[0][1]
    label = i18n.option_label("en", "duel", own)
    assert offer == {"possible": True, "words": f"Take back the computer's 2 decisions and your last one ({label}).",
                     "agree": None}
    session.apply(RequestUndo(0))
    assert session.snapshot.history == snapshot.history[:-3]


def test_the_undo_words_name_who_must_agree_in_the_phones_language():
    session = Session(Setup(game="pavilion", seats=(Seat(name="Ana"), Seat(kind="ai"), Seat(name="Ben")), seed=5))
    snapshot = play_until(session, lambda s: s.undo_plans[0].possible and s.undo_plans[0].any_one)
    english = payload.build(snapshot, "en")["undo"][0]
    assert english["words"].startswith("Take back the computer's") and english["agree"] == "Ben must agree."
    for language in set(i18n.LANGUAGES) - {"en"}:
        offer = payload.build(snapshot, language)["undo"][0]
        assert "Ben" in offer["agree"] and offer["agree"] != english["agree"], (language, offer)
        assert offer["words"] != english["words"], (language, offer)


def test_an_undo_behind_a_reveal_says_so_on_the_button():
    session = Session(AGAINST_THE_COMPUTER)
    snapshot = play_until(session, lambda s: not s.undo_plans[0].possible and "behind" in s.undo_plans[0].refusal)
    offer = payload.build(snapshot, "en")["undo"][0]
    assert offer["possible"] is False and "lies behind one that revealed" in offer["words"]


def test_the_restart_notice_ends_with_the_first_decision_after_the_restart(tmp_path):
    journal = Journal(tmp_path)
    first = Session(Setup(game="duel", seed=4), journal=journal)
    first.apply(Play(first.snapshot.current_player, first.snapshot.options[0]))
    journal.close()
    again = Journal(tmp_path)
    resumed = again.resume()
    session = Session(resumed.setup, game=resumed.game, journal=again)
    assert payload.build(session.snapshot, "en")["restarted"] is True
    session.apply(Play(session.snapshot.current_player, session.snapshot.options[0]))
    assert payload.build(session.snapshot, "en")["restarted"] is False
    again.close()
