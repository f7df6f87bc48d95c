"""Tests of cluster/driver.py on a local Ray: the pairs it plays are the
pairs `catena match` plays, a run resumes from its state file, the SPRT
stops on its own, and bad input gets a clear error.

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


if __name__ == "__main__":
    unittest.main()
