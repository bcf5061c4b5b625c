"""What the host said about counting each game for the ratings, read back for the past-games list."""
from firmware_py.journal import Journal
from tests.web.test_story_charts import finished_record


def test_every_game_reads_back_as_the_host_last_set_it(tmp_path):
    journal = Journal(tmp_path)
    try:
        first = journal.import_record(finished_record("duel", ("Ana", "Bea"), 1))
        second = journal.import_record(finished_record("duel", ("Ana", "Bea"), 2))
        assert journal.ratings.choices() == {first: "auto", second: "auto"}
        journal.ratings.set_counted(second, "yes")
        journal.ratings.set_counted(first, "no")
        assert journal.ratings.choices() == {first: "no", second: "yes"}
        journal.ratings.set_counted(first, "auto")
        assert journal.ratings.choices() == {first: "auto", second: "yes"}
    finally:
        journal.close()


def test_a_journal_without_games_has_no_choices(tmp_path):
    journal = Journal(tmp_path)
    try:
        assert journal.ratings.choices() == {}
    finally:
        journal.close()
