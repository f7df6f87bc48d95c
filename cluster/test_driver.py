"""Tests of cluster/driver.py on a local Ray: the pairs it plays are the
pairs `catena match` plays, the distributed solve answers as `catena solve`
does, a run resumes from its state file, the SPRT stops on its own, and
bad input gets a clear error.

    CATENA=target/release/catena python3 -m unittest cluster/test_driver.py
"""

import json
import os
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import driver  # noqa: E402

CATENA = os.path.abspath(os.environ.get("CATENA", os.path.join(driver.REPOSITORY, "target", "release", "catena")))
OPENINGS = os.path.join(driver.REPOSITORY, "openings", "sscc-balanced.epd")


def engine_list(directory):
    """Two deterministic engines: Catena at 300 and at 1500 nodes a move."""
    engines = [{"name": name, "command": CATENA, "protocol": "uci", "workingDirectory": directory,
                "options": [{"name": "Hash", "value": 16}], "nodes": nodes}
               for name, nodes in (("Fast", 300), ("Deep", 1500))]
    path = os.path.join(directory, "engines.json")
    with open(path, "w") as file:
        json.dump(engines, file)
    return path


def run_driver(*args):
    done = subprocess.run([sys.executable, os.path.join(driver.REPOSITORY, "cluster", "driver.py"), *args],
                          capture_output=True, text=True)
    return done.returncode, done.stdout, done.stderr


class Statistics(unittest.TestCase):
    def test_pairs_are_counted_by_points(self):
        pairs = driver.Pentanomial()
        for first, second in [(0, 0), (0, 0.5), (1, 0), (0.5, 0.5), (1, 0.5), (1, 1)]:
            pairs.add(first, second)
        self.assertEqual(pairs.counts, [1, 1, 2, 1, 1])

    def test_the_sprt_is_the_one_catena_match_runs(self):
        # docs/match.md: N (s1 - s0) (2s - s0 - s1) / (2 var) over pairs.
        sprt = driver.Sprt(0, 10)
        pairs = driver.Pentanomial([2, 5, 30, 8, 5])
        score, variance = pairs.score_and_variance()
        s0, s1 = 0.5, driver.score_of_elo(10)
        self.assertAlmostEqual(sprt.llr(pairs), 50 * (s1 - s0) * (2 * score - s0 - s1) / (2 * variance))
        self.assertEqual(sprt.verdict(driver.Pentanomial([0, 0, 3, 0, 0])), None)


@unittest.skipUnless(os.path.isfile(CATENA), f"no catena binary at {CATENA}")
class Withdrawal(unittest.TestCase):
    def test_a_withdrawn_catena_is_stopped(self):
        # A solve 30 plies deep from the start does not end by itself.
        asked = []
        out = driver.run_catena(CATENA, ["solve", "--plies", "30", "--json", "--no-book"],
                                lambda: asked.append(True) or len(asked) == 2)
        self.assertIsNone(out)
        self.assertEqual(len(asked), 2, "asked once a second until withdrawn")


@unittest.skipUnless(os.path.isfile(CATENA), f"no catena binary at {CATENA}")
class OnLocalRay(unittest.TestCase):
    def setUp(self):
        self.scratch = tempfile.TemporaryDirectory()
        self.engines = engine_list(self.scratch.name)

    def tearDown(self):
        self.scratch.cleanup()

    def driver_args(self, *more):
        return ("sprt", "Fast", "Deep", "--openings", OPENINGS, "--engines", self.engines,
                "--tc", "60+1", "--catena", CATENA, "--workers", "2", *more)

    def test_the_pairs_are_those_catena_match_plays(self):
        pgn = os.path.join(self.scratch.name, "match.pgn")
        subprocess.run([CATENA, "match", "Fast", "Deep", "--engines", self.engines, "--openings", OPENINGS,
                        "--games", "12", "--tc", "60+1", "--pgn", pgn, "--output", "fastchess"],
                       check=True, capture_output=True)
        with open(pgn) as file:
            points = driver.game_points(file.read(), "Fast")
        expected = driver.Pentanomial()
        for index in range(0, 12, 2):
            expected.add(points[index], points[index + 1])
        status, out, err = run_driver(*self.driver_args("--pairs", "6"))
        self.assertEqual(status, 0, err)
        self.assertEqual(json.loads(out)["pentanomial"], expected.counts)

    def test_a_run_resumes_from_its_state(self):
        state = os.path.join(self.scratch.name, "state.jsonl")
        status, first, err = run_driver(*self.driver_args("--pairs", "3", "--state", state))
        self.assertEqual(status, 0, err)
        status, second, err = run_driver(*self.driver_args("--pairs", "5", "--state", state))
        self.assertEqual(status, 0, err)
        with open(state) as file:
            records = [json.loads(line) for line in file]
        self.assertEqual(sorted(record["opening"] for record in records), [1, 2, 3, 4, 5])
        self.assertEqual(json.loads(second)["pairs"], 5)
        self.assertEqual(err.count("pair "), 2, "only the two new pairs are played")

    def test_the_sprt_stops_on_its_own(self):
        status, out, err = run_driver(*self.driver_args("--sprt", "elo0=0", "elo1=50", "--pairs", "200"))
        self.assertEqual(status, 0, err)
        result = json.loads(out)
        self.assertIn(result["verdict"], ("H0", "H1"))
        self.assertLess(result["pairs"], 200)

    def test_an_unreachable_cluster_is_said_clearly(self):
        status, _, err = run_driver(*self.driver_args("--pairs", "1", "--address", "127.0.0.1:9"))
        self.assertEqual(status, 2)
        self.assertIn("cannot reach the Ray cluster at '127.0.0.1:9'", err)

    def test_bad_input_is_not_retried(self):
        status, _, err = run_driver("sprt", "Fast", "Nobody", "--openings", OPENINGS, "--engines", self.engines,
                                    "--pairs", "1", "--catena", CATENA, "--workers", "1")
        self.assertEqual(status, 2)
        self.assertIn("no engine 'Nobody'", err)


# Positions the distributed solve is checked on (docs/cluster.md): wins and
# non-wins, bounds at and above the shortest win, and the three rules.
SOLVES = [
    # The start position: no win within 4 plies.
    (None, 4, 1, []),
    # perft/puzzles.epd chain-1-2-7: a win in 5 plies, each a switch.
    ("rnbqk2r/p3ppbp/1p1p1np1/8/2Pp4/1P2P2P/P2K1PP1/RNBQ1BNR b kq - 1 4", 5, 2, []),
    # chain-1-16-25: a win in 4 plies, asked within 5; the defender moves in between.
    ("2k5/1bprb1pp/2p1Qp2/p1P1P3/3B4/6P1/PP2PP1P/R3K1NR b KQ - 6 13", 5, 2, []),
    # 1.e4 e5 2.Bc4 Nc6: no win within 3 plies, though many of Black's
    # replies to 3.Qf3 or 3.Qh5 lose at once: the defender's nodes must take
    # the worst of their children.
    ("r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/8/PPPP1PPP/RNBQK1NR w KQkq - 2 3", 3, 2, []),
    # 1.e4 e5 2.Bc4 Nc6 3.Qh5 Nf6: 4.Qxf7 mates at once, and other moves
    # win later: the root takes the shortest.
    ("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4", 3, 2, []),
    # chain-1-75-6 within 3 plies: no win (it needs 4).
    ("rn1q2nr/pp1k1pbp/2pp2p1/3Pp3/2P3b1/4PP1P/PP1N2P1/R1BQKBNR w KQ - 0 4", 3, 2, []),
    # moves-1-4-25 under rule moves, and the same position under rule unlimited.
    ("r3kb1r/pp2p2p/2p5/5np1/3PN1P1/4B1P1/PPPQB2P/3R1RK1 b - - 1 13", 4, 2, ["--rule", "moves"]),
    ("r3kb1r/pp2p2p/2p5/5np1/3PN1P1/4B1P1/PPPQB2P/3R1RK1 b - - 1 13", 4, 1, ["--rule", "unlimited"]),
]


def solve_with_catena(fen, plies, rules):
    args = [CATENA, "solve", *([fen] if fen else []), "--plies", str(plies), "--json", "--no-book", *rules]
    return json.loads(subprocess.run(args, check=True, capture_output=True, text=True).stdout)


@unittest.skipUnless(os.path.isfile(CATENA), f"no catena binary at {CATENA}")
class DistributedSolve(unittest.TestCase):
    def setUp(self):
        self.scratch = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.scratch.cleanup()

    def solve(self, fen, plies, split, rules, *more):
        status, out, err = run_driver("solve", *([fen] if fen else []), "--plies", str(plies), "--split",
                                      str(split), "--catena", CATENA, "--workers", "2", *rules, *more)
        self.assertEqual(status, 0, err)
        return json.loads(out), err

    def test_it_answers_as_catena_solve_does(self):
        wins = 0
        for fen, plies, split, rules in SOLVES:
            with self.subTest(fen=fen, plies=plies, rules=rules):
                expected = solve_with_catena(fen, plies, rules)
                found, _ = self.solve(fen, plies, split, rules)
                self.assertEqual((found["result"], found["plies"]), (expected["result"], expected["plies"]))
                if found["result"] == "win":
                    wins += 1
                    # The line is legal, as long as the plies, and ends in the defender's mate.
                    self.assertEqual(len(found["line"]), found["plies"])
                    end = solve_with_catena(fen, 1, [*rules, "--after", " ".join(found["line"])])
                    self.assertEqual((end["result"], end["plies"]), ("win", 0), found["line"])
        self.assertEqual(wins, 5)

    def test_a_solve_resumes_from_its_state(self):
        state = os.path.join(self.scratch.name, "solve.jsonl")
        fen, plies, split, rules = SOLVES[2]
        first, _ = self.solve(fen, plies, split, rules, "--state", state)
        with open(state) as file:
            solved = [json.loads(line) for line in file]
        # Drop the last half, as a run stopped halfway would have.
        with open(state, "w") as file:
            file.writelines(json.dumps(record) + "\n" for record in solved[: len(solved) // 2])
        again, err = self.solve(fen, plies, split, rules, "--state", state)
        self.assertIn(f"{len(solved) // 2} solved before", err)
        self.assertEqual((again["result"], again["plies"]), (first["result"], first["plies"]))
        with open(state) as file:
            afters = [json.loads(line)["after"] for line in file]
        # Nothing solved twice, and the kept half not again.
        self.assertEqual(len(afters), len(set(afters)))
        self.assertEqual(err.count("subproblem "), len(afters) - len(solved) // 2)

    def test_a_state_of_another_solve_is_refused(self):
        state = os.path.join(self.scratch.name, "solve.jsonl")
        with open(state, "w") as file:
            file.write(json.dumps({"after": "a2a3 a7a6", "plies_left": 9}) + "\n")
        status, _, err = run_driver("solve", "--plies", "4", "--split", "2", "--state", state,
                                    "--catena", CATENA, "--workers", "1")
        self.assertEqual(status, 2)
        self.assertIn("solve.jsonl:1: not a subproblem of this solve", err)

    def test_a_subproblem_whose_process_dies_is_solved_again(self):
        # A catena that kills itself the first time it is given a subproblem.
        marker = os.path.join(self.scratch.name, "died")
        flaky = os.path.join(self.scratch.name, "flaky-catena")
        with open(flaky, "w") as file:
            file.write(f"""#!/bin/sh
case "$*" in *--after*) [ -e {marker} ] || {{ touch {marker}; kill -9 $$; }} ;; esac
exec {CATENA} "$@"
""")
        os.chmod(flaky, 0o755)
        fen, plies, split, rules = SOLVES[2]
        status, out, err = run_driver("solve", fen, "--plies", str(plies), "--split", str(split),
                                      "--catena", flaky, "--workers", "1", *rules)
        self.assertEqual(status, 0, err)
        self.assertTrue(os.path.exists(marker), "the flaky catena never died")
        expected = solve_with_catena(fen, plies, rules)
        found = json.loads(out)
        self.assertEqual((found["result"], found["plies"]), (expected["result"], expected["plies"]))

    def test_a_bad_position_is_said_clearly(self):
        status, _, err = run_driver("solve", "not a fen", "--plies", "4", "--split", "1", "--catena", CATENA)
        self.assertEqual(status, 2)
        self.assertIn("bad FEN", err)


if __name__ == "__main__":
    unittest.main()
