"""Distinct looks: a new player starts on a colour and symbol pair nobody at the table has, no two people
share both, and the computers' grey cross is theirs alone, whatever is created or changed in any order."""
import tempfile

import pytest
from hypothesis import settings, strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

from firmware_py.journal import Journal
from firmware_py.profiles import COLOURS, COMPUTER_LOOK, SYMBOLS, ProfileError
from tests.journal.test_players import journal  # noqa: F401 (a fixture)

PAIRS = len(COLOURS) * len(SYMBOLS) - 1  # every pair but the computers'


def names(count):
    """``count`` names no two of which look alike."""
    return [f"Player {chr(0x61 + index // 26)}{chr(0x61 + index % 26)}" for index in range(count)]


def looks_of_people(journal):
    return [(p.colour, p.symbol) for p in journal.players.all(kind="person")]


def test_the_first_seven_people_each_get_a_colour_and_a_symbol_nobody_else_has(journal):
    made = [journal.players.create(name) for name in names(7)]
    colours = [p.colour for p in made]
    symbols = [p.symbol for p in made]
    assert len(set(colours)) == len(set(symbols)) == 7
    assert "grey" not in colours and "cross" not in symbols  # the computers' colour and symbol


def test_every_pair_is_given_once_before_any_is_given_twice_and_never_the_computers(journal):
    for name in names(PAIRS):
        assert journal.players.next_look() not in looks_of_people(journal)
        made = journal.players.create(name)
        assert (made.colour, made.symbol) != COMPUTER_LOOK
    assert len(set(looks_of_people(journal))) == PAIRS
    extra = journal.players.create("One more")  # all 63 pairs are someone's: the least used one
    assert (extra.colour, extra.symbol) != COMPUTER_LOOK
    assert looks_of_people(journal).count((extra.colour, extra.symbol)) == 2


def test_the_list_offers_the_pair_the_next_player_gets(journal):
    for name in names(10):
        offered = journal.players.next_look()
        made = journal.players.create(name)
        assert (made.colour, made.symbol) == offered


def test_a_pair_someone_has_is_refused_naming_them_and_the_grey_cross_is_the_computers(journal):
    ana = journal.players.create("Ana", colour="blue", symbol="star")
    with pytest.raises(ProfileError) as refused:
        journal.players.create("Bea", colour="blue", symbol="star")
    assert (refused.value.key, refused.value.fields, refused.value.status) == ("players.look_taken", {"name": "Ana"}, 409)
    with pytest.raises(ProfileError) as refused:
        journal.players.create("Bea", colour="grey", symbol="cross")
    assert refused.value.key == "players.computer_look_taken"
    bea = journal.players.create("Bea", colour="blue")  # the colour chosen: the first symbol free with it
    assert (bea.colour, bea.symbol) != ("blue", "star") and bea.colour == "blue"
    for change in ({"colour": "blue", "symbol": "star"}, {"symbol": "star"}):
        with pytest.raises(ProfileError) as refused:
            journal.players.update(bea.id, **change)
        assert refused.value.key == "players.look_taken"
    with pytest.raises(ProfileError) as refused:
        journal.players.update(ana.id, colour="grey", symbol="cross")
    assert refused.value.key == "players.computer_look_taken"
    assert (journal.players.get(ana.id).colour, journal.players.get(bea.id).symbol) == ("blue", bea.symbol)
    assert journal.players.update(ana.id, colour="grey").colour == "grey"  # grey with a star is free


def test_a_choice_with_no_free_pair_left_is_refused(journal):
    for index, symbol in enumerate(SYMBOLS):
        journal.players.create(names(8)[index], colour="orange", symbol=symbol)
    with pytest.raises(ProfileError) as refused:
        journal.players.create("Ana", colour="orange")
    assert refused.value.key == "players.look_taken_all"
    assert journal.players.create("Ana", symbol="circle").colour != "orange"


def test_a_look_two_people_already_shared_does_not_stop_a_rename(journal):
    """A journal from before looks were kept apart may hold two people with one look: they keep it."""
    ana = journal.players.create("Ana", colour="blue", symbol="star")
    bea = journal.players.create("Bea")
    with journal.writing("an older table's second blue star") as db:
        db.execute("UPDATE players SET colour = 'blue', symbol = 'star' WHERE id = ?", (bea.id,))
    assert journal.players.update(bea.id, name="Beatriz").name == "Beatriz"
    assert journal.players.update(ana.id, languages=["it"]).languages == ("it",)


class PeopleAndTheirLooks(RuleBasedStateMachine):
    """People created and recoloured in any order, with or without choices: after every step no two people
    share a pair, nobody has the computers', and a refused change changed nothing."""

    def __init__(self):
        super().__init__()
        self.folder = tempfile.TemporaryDirectory()
        self.journal = Journal(self.folder.name)
        self.made = 0

    def teardown(self):
        self.journal.close()
        self.folder.cleanup()

    def rows(self):
        with self.journal.reading() as db:
            return db.execute("SELECT * FROM players ORDER BY id").fetchall()

    @rule(colour=st.none() | st.sampled_from(COLOURS), symbol=st.none() | st.sampled_from(SYMBOLS))
    def create(self, colour, symbol):
        before = self.rows()
        try:
            made = self.journal.players.create(names(200)[self.made], colour=colour, symbol=symbol)
        except ProfileError as refused:
            assert refused.key in ("players.look_taken", "players.computer_look_taken", "players.look_taken_all")
            assert self.rows() == before
        else:
            self.made += 1
            assert (colour or made.colour, symbol or made.symbol) == (made.colour, made.symbol)

    @rule(index=st.integers(0, 199), colour=st.none() | st.sampled_from(COLOURS),
          symbol=st.none() | st.sampled_from(SYMBOLS))
    def recolour(self, index, colour, symbol):
        people = self.journal.players.all(kind="person")
        if not people:
            return
        before = self.rows()
        try:
            self.journal.players.update(people[index % len(people)].id, colour=colour, symbol=symbol)
        except ProfileError as refused:
            assert refused.key in ("players.look_taken", "players.computer_look_taken")
            assert self.rows() == before

    @invariant()
    def no_two_people_look_alike(self):
        looks = looks_of_people(self.journal)
        assert len(looks) == len(set(looks)) and COMPUTER_LOOK not in looks


TestPeopleAndTheirLooks = PeopleAndTheirLooks.TestCase
TestPeopleAndTheirLooks.settings = settings(max_examples=40, stateful_step_count=25, deadline=None)
