"""The host's actions on players (renames, merges, attaches, counts or not) with games ending and phones joining,
in any order and two at once: no profile disappears without its games going to another, and the ratings always
equal a recomputation from the journal."""
import itertools
import json
import random
import shutil
import tempfile
import threading

import pytest
from hypothesis import settings, strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from firmware_py.journal import Journal
from firmware_py.profiles import ProfileError
from firmware_py.session import CommandRejected, Join, Seat, Session, Setup

NAMES = ("Ana", "Bea", "Cai", "Dag", "Eva", "Sam")


@pytest.fixture
def journal(tmp_path):
    kept = Journal(tmp_path)
    yield kept
    kept.close()


def finished_game(journal, seats, scores, game="pavilion", when=None) -> int:
    """A game that ends as the table ends one: its row marked finished and rated in one transaction.
    ``seats``: a profile id, a plain name (a seat linked to no profile) or ("ai", level) each."""
    rows = [{"kind": "ai", "name": "", "level": seat[1]} if isinstance(seat, tuple)
            else {"kind": "rig", "name": seat if isinstance(seat, str) else "", "level": "normal"} for seat in seats]
    with journal.writing("end a game") as db:
        when = when or journal.now()
        game_id = db.execute(
            "INSERT INTO games(game, seats, flags, start_state, status, origin, started_at) VALUES"
            " (?, ?, '{}', '{}', 'running', 'table', ?)", (game, json.dumps(rows), when)).lastrowid
        for index, seat in enumerate(seats):
            if isinstance(seat, tuple):
                journal.players.link_in(db, game_id, index, journal.players.computer_in(db, seat[1]), computer=True)
            elif isinstance(seat, int):
                journal.players.link_in(db, game_id, index, seat)
        best = max(scores)
        db.execute("UPDATE games SET status = 'finished', finished_at = ?, scores = ?, winners = ? WHERE id = ?",
                   (when, json.dumps(scores), json.dumps([s for s, score in enumerate(scores) if score == best]),
                    game_id))
        journal.ratings.game_finished_in(db, game_id)
    return game_id


def links(journal) -> dict:
    with journal.reading() as db:
        return {(game, seat): player for game, seat, player in db.execute("SELECT * FROM seat_players")}


def test_a_merge_moves_the_rated_games_of_the_merged_profile_and_works_the_ratings_out_again(journal):
    dag, dagny, eva = (journal.players.create(name) for name in ("Dag", "Dagny", "Eva"))
    computer = journal.players.computer("easy").id
    games = [finished_game(journal, [dag.id, eva.id], [30, 20]), finished_game(journal, [eva.id, dagny.id], [5, 9]),
             finished_game(journal, [dag.id, ("ai", "easy")], [12, 40], game="duel")]
    journal.players.merge(dagny.id, dag.id)
    assert links(journal) == {(games[0], 0): dagny.id, (games[0], 1): eva.id, (games[1], 0): eva.id,
                              (games[1], 1): dagny.id, (games[2], 0): dagny.id, (games[2], 1): computer}
    assert journal.ratings.stored() == journal.ratings.worked_out()
    assert journal.ratings.current(dagny.id, "pavilion")[1] == 2 and journal.ratings.current(dagny.id, "duel")[1] == 1
    with pytest.raises(ProfileError) as gone:
        journal.players.get(dag.id)
    assert gone.value.status == 404


def test_two_merges_of_one_pair_at_once_keep_one_profile_with_every_game(tmp_path):
    for attempt in range(20):
        journal = Journal(tmp_path / str(attempt))
        x, y = journal.players.create("Xia"), journal.players.create("Yan")
        z = journal.players.create("Zoe")
        for number in range(6):
            finished_game(journal, [x.id if number % 2 else y.id, z.id], [number, 3])
        before = set(links(journal))
        barrier, outcomes = threading.Barrier(2), []

        def merge(kept, merged):
            barrier.wait()
            try:
                outcomes.append(journal.players.merge(kept, merged).id)
            except ProfileError as error:
                outcomes.append(error.key)

        threads = [threading.Thread(target=merge, args=pair) for pair in ((x.id, y.id), (y.id, x.id))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        people = {p.id for p in journal.players.all(kind="person")}
        assert len(people - {z.id}) == 1 and sorted(map(str, outcomes))[-1] == "players.unknown", outcomes
        assert set(links(journal)) == before and set(links(journal).values()) <= people | {z.id}
        assert journal.ratings.stored() == journal.ratings.worked_out()
        journal.close()


def test_computer_players_never_take_a_persons_seat(journal):
    session = Session(Setup(game="pavilion", seats=(Seat("phone"), Seat("phone"), Seat("ai", level="hard"))),
                      journal=journal)
    code = session.snapshot.credentials.join_code
    before = links(journal)
    for level in ("easy", "normal", "hard", "expert"):
        with pytest.raises(CommandRejected) as refused:
            session.apply(Join(0, code, "digest", player=journal.players.computer(level).id))
        assert getattr(refused.value, "key", None) in ("players.person_needed", "players.seated_twice")
    assert links(journal) == before
    with pytest.raises(ProfileError) as refused:
        Session(Setup(game="duel", seats=(Seat(player=journal.players.computer("easy").id), Seat())), journal=journal)
    assert refused.value.key == "players.person_needed"
    with pytest.raises(ProfileError) as refused:
        journal.players.update(journal.players.computer("easy").id, colour="orange")
    assert refused.value.key == "players.computer_look"
    assert journal.players.computer("easy").colour == "grey"


class HostActions(RuleBasedStateMachine):
    """The players of one journal under every host action, each checked against a model of who played which
    seat: a merge sends the merged profile's seats to the kept one, nothing else moves a seat."""

    @initialize()
    def open(self):
        self.directory = tempfile.mkdtemp(prefix="host-actions-")
        self.journal = Journal(self.directory)
        self.model = {}  # (game, seat) -> profile id, for every linked seat of a person
        self.people = set()
        self.session = Session(Setup(game="pavilion", seats=tuple(Seat("phone") for _ in range(4))),
                               journal=self.journal)
        self.free = [0, 1, 2, 3]
        self.when = 0

    def teardown(self):
        if hasattr(self, "journal"):
            self.session.stop()
            self.journal.close()
            shutil.rmtree(self.directory, ignore_errors=True)

    def _person(self, index):
        ids = sorted(self.people)
        return ids[index % len(ids)] if ids else 10 ** 6

    @rule(name=st.sampled_from(NAMES))
    def create(self, name):
        try:
            self.people.add(self.journal.players.create(name).id)
        except ProfileError as error:
            assert error.key == "players.name_taken"

    @rule(who=st.integers(0, 20), name=st.sampled_from(NAMES + ("Dagny", "Evinha")))
    def rename(self, who, name):
        try:
            self.journal.players.update(self._person(who), name=name)
        except ProfileError as error:
            assert error.key in ("players.name_taken", "players.unknown")

    def _merged(self, kept, merged, model):
        return {key: kept if player == merged else player for key, player in model.items()}

    @rule(kept=st.integers(0, 20), merged=st.integers(0, 20))
    def merge(self, kept, merged):
        kept, merged = self._person(kept), self._person(merged)
        try:
            self.journal.players.merge(kept, merged)
        except ProfileError as error:
            assert error.key in ("players.merge_self", "players.played_each_other", "players.unknown")
            return
        self.model = self._merged(kept, merged, self.model)
        self.people.discard(merged)

    @rule(seats=st.lists(st.one_of(st.integers(0, 20), st.sampled_from(NAMES), st.sampled_from(("easy", "hard"))),
                         min_size=2, max_size=4, unique=True), seed=st.integers(0, 1000), duel=st.booleans())
    def game_ends(self, seats, seed, duel):
        people = list(dict.fromkeys(self._person(seat) for seat in seats if isinstance(seat, int)
                                    and self.people))
        names = [seat for seat in seats if isinstance(seat, str) and seat not in ("easy", "hard")]
        levels = [("ai", seat) for seat in seats if seat in ("easy", "hard")]
        played = (people + names + levels)[:2 if duel else 4]
        if len(played) < 2:
            return
        rng = random.Random(seed)
        self.when += 1
        game = finished_game(self.journal, played, [rng.randint(0, 30) for _ in played],
                             game="duel" if duel else "pavilion", when=f"2026-01-01T{self.when:05d}")
        self.model.update({(game, seat): player for seat, player in enumerate(played) if isinstance(player, int)})

    @precondition(lambda self: self.free)
    @rule(who=st.integers(0, 20), computer=st.sampled_from((None, "easy", "expert")))
    def join(self, who, computer):
        seat = self.free[0]
        player = self.journal.players.computer(computer).id if computer else self._person(who)
        code = self.session.snapshot.credentials.join_code
        try:
            self.session.apply(Join(seat, code, f"digest-{seat}", player=player))
        except CommandRejected as error:
            assert getattr(error, "key", None) in ("players.person_needed", "players.seated_twice",
                                                   "players.unknown"), error
            return
        assert computer is None
        self.free.pop(0)
        self.model[self.journal.current_game, seat] = player

    @rule(name=st.sampled_from(NAMES), who=st.integers(0, 20))
    def attach(self, name, who):
        player = self._person(who)
        before = set(links(self.journal))
        try:
            self.journal.players.attach(name, player)
        except ProfileError as error:
            assert error.key in ("players.nothing_to_attach", "players.unknown")
            return
        self.model.update({key: player for key in set(links(self.journal)) - before})

    @rule(pick=st.integers(0, 100), choice=st.sampled_from(("yes", "no", "auto")))
    def counts_or_not(self, pick, choice):
        games = [summary.id for summary in self.journal.games()]
        self.journal.ratings.set_counted(games[pick % len(games)], choice)

    @rule(pairs=st.lists(st.tuples(st.integers(0, 20), st.integers(0, 20)), min_size=2, max_size=3),
          name=st.sampled_from(NAMES))
    def at_once(self, pairs, name):
        """Merges, a rename and an attach from several hosts' phones at the same moment."""
        merges = [(self._person(a), self._person(b)) for a, b in pairs]
        barrier, done, before = threading.Barrier(len(merges) + 2), [], set(links(self.journal))

        def merge(kept, merged):
            barrier.wait()
            try:
                self.journal.players.merge(kept, merged)
                done.append((kept, merged))
            except ProfileError:
                pass

        def rename():
            barrier.wait()
            try:
                self.journal.players.update(self._person(len(pairs)), name=name)
            except ProfileError:
                pass

        def attach():
            barrier.wait()
            try:
                self.journal.players.attach(name, merges[0][0])
            except ProfileError:
                pass

        threads = [threading.Thread(target=merge, args=pair) for pair in merges]
        threads += [threading.Thread(target=rename), threading.Thread(target=attach)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        now = links(self.journal)
        attached = {key: now[key] for key in set(now) - before}
        possible = []
        for order in itertools.permutations(done):
            model = {**self.model, **attached}
            for kept, merged in order:
                model = self._merged(kept, merged, model)
            possible.append(model)
        person_links = {key: player for key, player in now.items() if player in self.people}
        assert person_links in possible, (done, person_links)
        self.model = person_links
        self.people -= {merged for _, merged in done}

    @invariant()
    def every_seat_names_a_profile_or_a_plain_name_and_the_ratings_are_recomputed(self):
        if not hasattr(self, "journal"):
            return
        existing = {profile.id for profile in self.journal.players.all()}
        assert {p.id for p in self.journal.players.all(kind="person")} == self.people
        linked = links(self.journal)
        assert set(linked.values()) <= existing
        assert {key: player for key, player in linked.items() if player in self.people} == self.model
        for summary in self.journal.games():
            for seat, profile in enumerate(summary.profiles):  # unlinked: its plain name (or "Player N")
                assert profile is None or profile in existing, (summary, seat)
        assert self.journal.ratings.stored() == self.journal.ratings.worked_out()


HostActions.TestCase.settings = settings(max_examples=25, stateful_step_count=25, deadline=None)
test_host_actions_in_any_order_and_at_once = HostActions.TestCase
