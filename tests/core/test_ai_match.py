"""The match script: reproducible matches, the summary it prints, and clear errors for bad options."""
import os
import random
import shutil
import subprocess

import pytest

from core_ext import ai
from core_ext.ai import allocation, frozen, match


def _in_a_git_checkout():
    """Whether git is installed and the project is a git checkout (a copied tree, such as the
    arm64 root's, has neither)."""
    return shutil.which("git") is not None and subprocess.run(
        ["git", "rev-parse", "--verify", "--quiet", "HEAD"], cwd=frozen.ROOT, capture_output=True).returncode == 0


needs_git = pytest.mark.skipif(not _in_a_git_checkout(),
                               reason="frozen players are rebuilt from git: needs git and a git checkout of the project")


@pytest.fixture(scope="module", autouse=True)
def frozen_builds_in_a_scratch_cache(tmp_path_factory):
    """Earlier revisions are built once for this run, in a cache of its own (shared by the run's
    pytest-xdist workers, whose temporary folders lie side by side in the run's)."""
    with pytest.MonkeyPatch.context() as patch:
        if os.environ.get("PYTEST_XDIST_WORKER"):
            cache = tmp_path_factory.getbasetemp().parent / "frozen-ai-cache"
            cache.mkdir(exist_ok=True)
        else:
            cache = tmp_path_factory.mktemp("cache")
        patch.setenv("XDG_CACHE_HOME", str(cache))
        yield cache


def test_a_match_with_fixed_iterations_is_reproducible_and_counts_every_game():
    first = match.run_match("duel", "20", "random", games=4, seed=3)
    second = match.run_match("duel", "20", "random", games=4, seed=3)
    assert first.games == 4 and first.wins + first.shared + first.losses == 4
    assert (first.wins, first.margins) == (second.wins, second.margins)
    assert first.opponent_seats == 4


def test_games_played_side_by_side_are_the_games_played_one_after_another():
    """Each game has its own stream, so two processes play exactly the games one process plays."""
    alone = match.run_match("pavilion", "20", "heuristic", games=4, seats=3, seed=8)
    side_by_side = match.run_match("pavilion", "20", "heuristic", games=4, seats=3, seed=8, jobs=2)
    assert alone.margins == side_by_side.margins and alone.wins == side_by_side.wins
    assert alone.tested_sources == side_by_side.tested_sources


def test_a_match_split_into_runs_plays_the_same_games(capsys):
    whole = match.run_match("duel", "20", "greedy", games=3, seed=6)
    rest = match.run_match("duel", "20", "greedy", games=2, seed=6, first=2)
    assert rest.margins == whole.margins[1:] and rest.unspent == whole.unspent[1:]
    assert match.main(["--game", "duel", "--ai", "20", "--opponent", "greedy", "--games", "2", "--seed", "6",
                       "--first", "2"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("game 2: ") and out[1].startswith("game 3: ")
    assert "seed 6, games 2 to 3" in out[2]


def test_summer_pavilion_reports_where_the_points_came_from():
    result = match.run_match("pavilion", "heuristic", "greedy", games=2, seats=2, seed=1)
    assert set(result.tested_sources) == set(match.SOURCES)
    # the sources add up to the final scores (a score floored at 1 aside, which heuristic play never nears)
    assert sum(result.tested_sources.values()) == result.tested_points
    assert sum(result.opponent_sources.values()) == result.opponent_points
    assert result.sources_line("heuristic", "greedy").startswith("points from: heuristic rounds ")


def test_azul_duel_progress_says_the_chips_and_special_fields_so_far(capsys):
    assert match.main(["--game", "duel", "--ai", "greedy", "--opponent", "random", "--games", "1", "--seed", "2"]) == 0
    first_line = capsys.readouterr().out.splitlines()[0]
    assert first_line.startswith("game 1: ") and "chips unspent" in first_line and "special fields empty" in first_line


def test_azul_duel_counts_empty_special_fields_apart_where_the_objective_costs_points():
    result = match.run_match("duel", "greedy", "random", games=12, seed=1)
    deals = [match.new_game("duel", 2, random.Random(f"1/{index}").getrandbits(64)) for index in range(12)]
    flags = [counts.objective for counts in result.unspent]
    assert flags == ["special" in deal.objectives for deal in deals]
    assert 0 < sum(flags) < 12
    counted = [counts.tested.fields for counts in result.unspent if counts.objective]
    assert f"({sum(counted) / len(counted):.2f} in the {len(counted)} games with that objective)" in \
        result.unspent_line("greedy", "random")


def test_azul_duel_counts_what_both_seats_left_undone():
    """Each seat's chips, fields and payments (rounds 1-4 and round 5), counted at the end of that game and
    at its decisions, whichever seat the tested player took."""
    result = match.run_match("duel", "greedy", "heuristic", games=6, seed=9)
    players = {"greedy": match.player_from_spec("greedy"), "heuristic": match.player_from_spec("heuristic")}
    for index, counts in enumerate(result.unspent):
        rng = random.Random(f"9/{index}")
        seats = ["greedy", "heuristic"] if index % 2 == 0 else ["heuristic", "greedy"]
        game = match.new_game("duel", 2, rng.getrandbits(64))
        offered, declined = ({name: [0, 0] for name in seats} for _ in range(2))
        while not game.is_over():
            name = seats[game.current_player]
            move = players[name](game, rng)
            if game.pending == "pay":
                offered[name][game.round == 5] += 1
                declined[name][game.round == 5] += move.kind == "nopay"
            game.push(move)
        left = dict(zip(seats, ai.knowledge_of(game).unspent_at_the_end(game)))
        for name, seat in (("greedy", counts.tested), ("heuristic", counts.opponent)):
            assert seat == (*left[name], tuple(offered[name]), tuple(declined[name]))
    offered, declined = ([sum(getattr(counts.opponent, attribute)[last] for counts in result.unspent)
                          for last in (0, 1)] for attribute in ("offered", "declined"))
    assert offered[0] > 0 and offered[1] > 0
    tested, opponent = result.unspent_line("greedy", "heuristic").split("; ")
    assert tested.startswith("per game: greedy ") and opponent.startswith("heuristic ")
    chips = sum(counts.opponent.chips for counts in result.unspent) / 6
    assert f"heuristic {chips:.2f} chips unspent" in opponent
    assert opponent.endswith(f"payments declined {declined[0]} of {offered[0]} in rounds 1-4 and "
                             f"{declined[1]} of {offered[1]} in round 5")


def test_baselines_play_each_other():
    result = match.run_match("duel", "greedy", "random", games=6, seed=1)
    assert result.games == 6 and len(result.margins) == 6


def test_the_script_prints_the_win_rate(capsys):
    assert match.main(["--game", "duel", "--ai", "30", "--opponent", "random", "--games", "2", "--seed", "5"]) == 0
    out = capsys.readouterr().out
    assert "game 2: win rate" in out
    assert "30 vs random:" in out and "in 2 games: win rate" in out


@pytest.mark.parametrize("argv, message", [
    (["--ai", "genius"], "a player is one of random, greedy, heuristic, lookahead, planner, easy, normal, hard, expert"),
    pytest.param(["--ai", "frozen:no-such-commit:hard"], "no commit 'no-such-commit'", marks=needs_git),
    pytest.param(["--ai", "frozen:HEAD:master"], "has the levels easy, normal, hard", marks=needs_git),
    (["--ai", "plain:0s"], "positive number of iterations or of seconds"),
    (["--opponent", "0"], "positive number of iterations"),
    (["--game", "duel", "--players", "3"], "duel is played by 2 to 2 players, not 3"),
    (["--games", "0"], "games must be at least 1"),
    (["--jobs", "0"], "jobs must be at least 1"),
    (["--first", "0"], "the first game is number 1 or later, not 0"),
])
def test_bad_options_are_refused_with_the_reason(argv, message, capsys):
    with pytest.raises(SystemExit) as exit_info:
        match.main(argv)
    assert exit_info.value.code == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize("spec", ["12:full", "12:uniform", "plain:12", "0.05s", "plain:0.05s", "heuristic", "lookahead",
                                  "planner"])
def test_every_kind_of_player_plays_a_legal_game(spec):
    result = match.run_match("pavilion", spec, "random", games=1, seed=2)
    assert result.games == 1 and len(result.margins) == 1


def test_the_planner_is_refused_at_azul_duel_with_its_reason(capsys):
    with pytest.raises(SystemExit):
        match.main(["--game", "duel", "--ai", "greedy", "--opponent", "planner", "--games", "1"])
    assert "planner plays Summer Pavilion only, not duel" in capsys.readouterr().err


@pytest.mark.parametrize("spec", ["12:deep", "plain:12:full", "plain:", "0", "2x", "plain:0s"])
def test_malformed_players_are_refused(spec):
    with pytest.raises(ValueError, match="a player is one of"):
        match.player_from_spec(spec)


def test_a_frozen_build_is_kept_apart_for_each_version_of_the_cores_declarations(tmp_path):
    """An earlier build compiled against other C declarations of the rules cores is not reused."""
    for path in (frozen.ROOT / "core_ext").glob("*.pxd"):
        (tmp_path / path.name).write_bytes(path.read_bytes())
    assert frozen.cores_fingerprint(tmp_path) == frozen.cores_fingerprint()
    with (tmp_path / "duel.pxd").open("a") as declarations:
        declarations.write("cdef int added_later(int x)\n")
    assert frozen.cores_fingerprint(tmp_path) != frozen.cores_fingerprint()


@pytest.mark.long
@needs_git
def test_a_frozen_revision_plays_as_that_revision_did(frozen_builds_in_a_scratch_cache):
    """The computer players of HEAD, rebuilt from git, make the same moves as the ones imported now
    (the suite runs on a clean checkout of a commit)."""
    if subprocess.run(["git", "status", "--porcelain", "core_ext/ai"], cwd=frozen.ROOT, capture_output=True,
                      text=True).stdout.strip():
        pytest.skip("core_ext/ai has changes not committed: HEAD is not the code imported now")
    earlier = match.run_match("duel", "frozen:HEAD:normal", "heuristic", games=2, seed=4)
    today = match.run_match("duel", "normal", "heuristic", games=2, seed=4)
    assert earlier.margins == today.margins
    builds = frozen_builds_in_a_scratch_cache / "azul-table" / "frozen-ai"
    names = [path.name for path in builds.iterdir() if path.is_dir()]
    assert names and all(name.endswith(f"_{frozen.cores_fingerprint()}") for name in names)


def test_the_allocation_check_compares_the_extra_with_a_fixed_budget_of_equal_cost():
    summary, compared = allocation.compare("duel", "normal", 500, 800, games=1)
    assert compared == len(list(allocation.positions("duel", 2, 1))) > 10
    with_extra, fixed = summary["normal, with the extra"], summary["500 fixed, no extra"]
    # the extra spends more than the level's 400 on close decisions only; the early stop spends less elsewhere
    assert 0 < with_extra[0] <= 600 and 0 < fixed[0] <= 500
    for iterations, agreed, regret in (with_extra, fixed):
        assert 0 <= agreed <= compared and -1.0 <= regret <= 1.0


def test_the_allocation_check_prints_both_budgets_and_refuses_a_bad_level(capsys):
    assert allocation.main(["--game", "duel", "--level", "normal", "--fixed", "450", "--deep", "600",
                            "--games", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("duel, 2 players: ") and "judged by 600 iterations" in lines[0]
    assert lines[1].startswith("normal, with the extra: ") and lines[2].startswith("450 fixed, no extra: ")
    with pytest.raises(SystemExit):
        allocation.main(["--level", "easy", "--fixed", "450"])
    assert "invalid choice: 'easy'" in capsys.readouterr().err
