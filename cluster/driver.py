#!/usr/bin/env python3
"""Catena's work spread over a Ray cluster (issue 53, point 4): SSCC
SPRTs played a pair of games per task, as fishtest and OpenBench spread
chess tests, and deep proofs split into subproblems. Ray (`pip install
ray`) is the scheduler; this file only says what each task runs and how
the results add up.

    python3 cluster/driver.py solve [FEN] --plies D --split K
        [--rule R] [--min-enclosed N] [--variant sscc|chess] [--state FILE]
        [--address ADDRESS] [--workers N] [--catena PATH]

`solve` asks `catena solve --split K` for the nodes K plies below the
root, solves them (`catena solve --after PATH --plies D-K`) as Ray tasks,
and combines the answers as the game tree does: at a node where the root's
player is to move the shortest win of any child, at the opponent's the
longest of all children, or no win as soon as one child has none; the
subproblems below a node whose value is known are not solved (or are
stopped), and each opponent's node has its first reply solved before any
second one. The verdict and the plies are those of one `catena solve FEN
--plies D` (the subproblems keep the path's positions for repetitions);
the line is the root's shortest win against the longest defence. `--state
FILE` keeps every solved subproblem, so a rerun solves only the rest.

    python3 cluster/driver.py sprt A B --openings FILE [--engines FILE]
        [--each KEY=VALUE ...] [--tc TC] [--variant sscc|chess]
        [--sprt elo0=0 elo1=10 [alpha=0.05 beta=0.05]] [--pairs N]
        [--state FILE] [--address ADDRESS] [--workers N] [--catena PATH]

Each task plays the pair of games of one opening (`catena match A B
--openings FILE --openings-start I --games 2`, the opening once with either
colour) and returns the first engine's points in each game, read from the
PGN (the player holding the winning colour at the end, `WhiteAtEnd` and
`BlackAtEnd` in SSCC). The driver adds the pairs into pentanomial counts
and tests them with the generalised SPRT on logistic Elo over pairs, the
test `catena match --sprt` runs (docs/match.md): it stops at the first
crossing of a bound, withdrawing the tasks still running, as a match stops
starting games. Openings are taken in file order from `--start`, wrapping
round at the end.

`--state FILE` keeps every finished pair (a JSON line each): a rerun with
the same file skips those openings and goes on, so an interrupted run
loses nothing. A task whose process fails (an engine that cannot start, a
worker that dies) is retried by Ray (`--retries`, default 3).

Without `--address` the driver starts a local Ray with `--workers` CPUs
(`ray.init`); `--address auto` joins a cluster started with `ray start
--head` on this machine, and `--address HOST:PORT` any other
(docs/cluster.md says how to run one). Prints the pentanomial counts, the
Elo and the LLR after every pair on stderr, and one line of JSON with the
result on stdout.
"""

import argparse
import json
import math
import os
import re
import subprocess
import sys
import tempfile
import time

REPOSITORY = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class Failure(Exception):
    """Why the run cannot go on, and its exit status: 2 for bad input, 1 at run time."""

    def __init__(self, message, status=2):
        super().__init__(message)
        self.status = status


# ---------------------------------------------------------------------------
# The statistics, as src/arena/stats.rs computes them.

def score_of_elo(elo):
    return 1 / (1 + 10 ** (-elo / 400))


def elo_of_score(score):
    return -400 * math.log10(1 / score - 1) if 0 < score < 1 else math.nan


class Pentanomial:
    """Pairs counted by the first engine's points over the pair: 0, ½, 1, 1½, 2."""

    def __init__(self, counts=None):
        self.counts = list(counts or [0, 0, 0, 0, 0])

    def add(self, first, second):
        self.counts[round(2 * (first + second))] += 1

    def pairs(self):
        return sum(self.counts)

    def score_and_variance(self):
        pairs = self.pairs()
        if pairs == 0:
            return None
        shares = [index / 4 for index in range(5)]
        score = sum(share * count for share, count in zip(shares, self.counts)) / pairs
        variance = sum(count * (share - score) ** 2 for share, count in zip(shares, self.counts)) / pairs
        return score, variance

    def elo(self):
        found = self.score_and_variance()
        return elo_of_score(found[0]) if found else math.nan


class Sprt:
    def __init__(self, elo0, elo1, alpha=0.05, beta=0.05):
        if not elo0 < elo1 or not (0 < alpha < 0.5 and 0 < beta < 0.5):
            raise ValueError("--sprt needs elo0 < elo1, and alpha and beta between 0 and 0.5")
        self.elo0, self.elo1, self.alpha, self.beta = elo0, elo1, alpha, beta

    def bounds(self):
        return math.log(self.beta / (1 - self.alpha)), math.log((1 - self.beta) / self.alpha)

    def llr(self, pairs):
        found = pairs.score_and_variance()
        if not found or found[1] == 0:
            return 0.0
        score, variance = found
        s0, s1 = score_of_elo(self.elo0), score_of_elo(self.elo1)
        return pairs.pairs() * (s1 - s0) * (2 * score - s0 - s1) / (2 * variance)

    def verdict(self, pairs):
        llr = self.llr(pairs)
        lower, upper = self.bounds()
        return "H1" if llr >= upper else "H0" if llr <= lower else None


def parse_sprt(words):
    fields = {"alpha": 0.05, "beta": 0.05}
    for word in words:
        key, _, value = word.partition("=")
        if key not in ("elo0", "elo1", "alpha", "beta") or not value:
            raise ValueError(f"--sprt: '{word}' is not elo0=, elo1=, alpha= or beta=")
        fields[key] = float(value)
    if "elo0" not in fields or "elo1" not in fields:
        raise ValueError("--sprt needs elo0=A and elo1=B")
    return Sprt(fields["elo0"], fields["elo1"], fields["alpha"], fields["beta"])


# ---------------------------------------------------------------------------
# One task: the pair of games of one opening.

class Transient(RuntimeError):
    """A task that failed at run time (an engine crashed, a worker died):
    worth another try."""


class BadInput(RuntimeError):
    """`catena` refused its input (status 2): no try will do better."""


def game_points(pgn, engine):
    """The first engine's points in each game of a PGN, in round order."""
    points = []
    for record in re.split(r"\n(?=\[Event )", pgn):
        tags = dict(re.findall(r'^\[(\w+) "([^"]*)"\]', record, re.M))
        if "Round" not in tags:
            continue
        result = tags.get("Result")
        if result == "1/2-1/2":
            points.append(0.5)
        elif result in ("1-0", "0-1"):
            colour = "White" if result == "1-0" else "Black"
            winner = tags.get(colour + "AtEnd", tags.get(colour))
            points.append(1.0 if winner == engine else 0.0)
        else:
            raise RuntimeError(f"a game without a result ({result})")
    return points


class Withdrawals:
    """The tasks whose answer no longer matters, as a Ray actor: a running
    task asks it every second and, once withdrawn, stops its catena and
    returns None. The driver withdraws rather than `ray.cancel`s, because
    a cancel that meets the task's completion can abort the driver's Ray
    core ("Tried to complete task that was not pending", ray-project/ray
    pull request 54738 names the race)."""

    def __init__(self):
        self.keys = set()

    def withdraw(self, keys):
        self.keys.update(keys)

    def withdrawn(self, key):
        return key in self.keys


def asker(withdrawals, key):
    """A task's question whether it is withdrawn; never, without the actor."""
    if withdrawals is None:
        return lambda: False
    import ray

    return lambda: ray.get(withdrawals.withdrawn.remote(key))


def run_catena(catena, args, withdrawn=lambda: False):
    """Runs catena; its stdout, None if `withdrawn()` came true first, or
    BadInput (status 2) or Transient (any other failure)."""
    with subprocess.Popen([catena, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          cwd=REPOSITORY) as process:
        while True:
            try:
                out, err = process.communicate(timeout=1)
                break
            except subprocess.TimeoutExpired:
                if withdrawn():
                    # catena match's engines end with their input.
                    process.terminate()
                    process.communicate()
                    return None
    if process.returncode != 0:
        failed = BadInput if process.returncode == 2 else Transient
        raise failed(f"catena {args[0]} exited {process.returncode}: {err.strip()[-500:]}")
    return out


def play_pair(catena, match_args, first, opening, withdrawals=None):
    """Runs `catena match` on one opening, both colours; the first engine's points."""
    with tempfile.TemporaryDirectory() as scratch:
        pgn = os.path.join(scratch, "pair.pgn")
        out = run_catena(catena, ["match", *match_args, "--openings-start", str(opening), "--games", "2",
                                  "--pgn", pgn, "--pgn-overwrite", "--output", "fastchess"],
                         asker(withdrawals, opening))
        if out is None:
            return None
        with open(pgn) as file:
            points = game_points(file.read(), first)
    if len(points) != 2:
        raise RuntimeError(f"opening {opening}: {len(points)} games instead of 2")
    return {"opening": opening, "points": points}


# ---------------------------------------------------------------------------
# The distributed solve: subproblems and their AND/OR merge.

def solve_subproblem(catena, solve_args, after, plies, withdrawals=None):
    """One subproblem: whether the root's player wins within `plies` after `after`."""
    out = run_catena(catena, ["solve", *solve_args, "--after", after, "--plies", str(plies),
                              "--json", "--no-book"], asker(withdrawals, after))
    if out is None:
        return None
    answer = json.loads(out.strip().splitlines()[-1])
    return {"after": after, "result": answer["result"], "plies": answer["plies"],
            "line": answer["line"], "nodes": answer["nodes"]}


def actions_of(after):
    """`e2e4 c2c3 switch` -> ["e2e4", "c2c3 switch"]."""
    actions = []
    for token in after.split():
        if token == "switch":
            actions[-1] += " switch"
        else:
            actions.append(token)
    return actions


UNKNOWN = object()  # a node's value before enough of its subproblems are solved


class Tree:
    """The game tree above the subproblems, rebuilt from their paths. A
    node's value is the plies to the root player's win from it, `None` for
    no win within the bound, or UNKNOWN. It is known as soon as it can be:
    at the opponent's node when one child has no win (that reply refutes
    everything below), otherwise once every child is known; so that the
    subproblems under a known node need not be solved."""

    def __init__(self, parent=None, attacker=True, action=None):
        self.parent, self.attacker, self.action = parent, attacker, action
        self.children = []  # in the engine's order
        self.value = UNKNOWN
        self.line = []

    def add(self, actions):
        """The leaf at the end of `actions`, made with the nodes above it."""
        node = self
        for action in actions:
            if not node.children or node.children[-1].action != action:
                # A switch keeps the move with the same player.
                mover_stays = action.endswith(" switch")
                attacker = node.attacker if mover_stays else not node.attacker
                node.children.append(Tree(node, attacker, action))
            node = node.children[-1]
        return node

    def settle(self, value, line):
        """Gives a leaf its value, and each node above it the value that follows."""
        self.value, self.line = value, line
        node = self.parent
        while node is not None and node.value is UNKNOWN:
            node.value, node.line = node.combined()
            node = node.parent

    def combined(self):
        """This node's value and line from its children's: the first shortest
        win at the root player's node, the first longest defence at the
        opponent's."""
        values = [child.value for child in self.children]
        if not self.attacker and any(value is None for value in values):
            return None, []
        if any(value is UNKNOWN for value in values):
            return UNKNOWN, []
        best = None
        for child in self.children:
            if child.value is None:
                continue
            if best is None or (child.value < best.value if self.attacker else child.value > best.value):
                best = child
        if best is None:
            return None, []
        return best.value + 1, [best.action, *best.line]

    def needed(self):
        """Whether this node's value still matters: no node above it is known."""
        node = self
        while node is not None:
            if node.value is not UNKNOWN:
                return False
            node = node.parent
        return True

    def urgency(self):
        """The order subproblems are given out in: the first reply of every
        opponent's node before any second reply, since one reply without a
        win settles the node; then the engine's order."""
        rank, node = 0, self
        while node.parent is not None:
            if not node.parent.attacker:
                rank += node.parent.children.index(node)
            node = node.parent
        return rank


def read_solved(path, subproblems):
    """The subproblems a state file holds, by path; lines of another root or
    bound are refused."""
    solved = {}
    if path and os.path.exists(path):
        with open(path) as file:
            for number, line in enumerate(file, 1):
                if not line.strip():
                    continue
                try:
                    record = json.loads(line)
                    after = record["after"]
                    if after not in subproblems or record["plies_left"] != subproblems[after]["plies"]:
                        raise KeyError(after)
                    solved[after] = record
                except (ValueError, KeyError, TypeError):
                    raise Failure(f"{path}:{number}: not a subproblem of this solve; "
                                  f"remove the line or the file") from None
    return solved


def run_solve(args):
    if not os.path.isfile(args.catena):
        raise Failure(f"no catena binary at {args.catena} (cargo build --release, or --catena PATH)")
    solve_args = ([args.fen] if args.fen else []) + ["--variant", args.variant]
    if args.rule:
        solve_args += ["--rule", args.rule]
    if args.min_enclosed:
        solve_args += ["--min-enclosed", str(args.min_enclosed)]
    try:
        split = run_catena(args.catena, ["solve", *solve_args, "--plies", str(args.plies),
                                         "--split", str(args.split)])
    except (BadInput, Transient) as error:
        raise Failure(str(error), 2 if isinstance(error, BadInput) else 1) from None
    leaves = [json.loads(line) for line in split.splitlines() if line.strip()]
    subproblems = {leaf["after"]: leaf for leaf in leaves}
    solved = read_solved(args.state, subproblems)
    tree = Tree()
    nodes = {}
    for leaf in leaves:
        nodes[leaf["after"]] = tree.add(actions_of(leaf["after"]))
    for leaf in leaves:
        node = nodes[leaf["after"]]
        if leaf["settled"] is not None:
            node.settle(0 if leaf["settled"] == "win" else None, [])
        elif leaf["after"] in solved:
            record = solved[leaf["after"]]
            node.settle(record["plies"] if record["result"] == "win" else None, record["line"])
    todo = sorted((leaf for leaf in leaves if nodes[leaf["after"]].value is UNKNOWN),
                  key=lambda leaf: nodes[leaf["after"]].urgency())
    print(f"{len(leaves)} nodes {args.split} plies below the root: {len(todo)} open, "
          f"{len(solved)} solved before, {len(leaves) - len(todo) - len(solved)} settled by the split",
          file=sys.stderr)

    spent = sum(record["nodes"] for record in solved.values())
    started = time.monotonic()
    if tree.value is UNKNOWN:
        ray = connect(args.address, args.workers)
        # The time counts the solving, from when the cluster is up.
        started = time.monotonic()
        task = ray.remote(max_retries=args.retries, retry_exceptions=[Transient])(solve_subproblem)
        slots = max(1, int(ray.cluster_resources().get("CPU", args.workers)))
        withdrawals = ray.remote(Withdrawals).remote()
        running = {}
        state = open(args.state, "a") if args.state else None
        try:
            while tree.value is UNKNOWN:
                todo = [leaf for leaf in todo if nodes[leaf["after"]].needed()]
                while todo and len(running) < slots:
                    leaf = todo.pop(0)
                    running[task.remote(args.catena, solve_args, leaf["after"], leaf["plies"], withdrawals)] = leaf
                finished, _ = ray.wait(list(running), num_returns=1)
                for reference in finished:
                    leaf = running.pop(reference)
                    try:
                        record = ray.get(reference)
                    except Exception as error:  # bad input, or a failure after its retries
                        bad_input = isinstance(getattr(error, "cause", None), BadInput)
                        raise Failure(f"a subproblem failed: {str(error).splitlines()[-1]}",
                                      2 if bad_input else 1) from None
                    record["plies_left"] = leaf["plies"]
                    solved[leaf["after"]] = record
                    spent += record["nodes"]
                    if state:
                        state.write(json.dumps(record) + "\n")
                        state.flush()
                    win = record["result"] == "win"
                    nodes[leaf["after"]].settle(record["plies"] if win else None, record["line"])
                    print(f"subproblem {len(solved)}: {record['after']}: {record['result']} "
                          f"plies {record['plies']} nodes {record['nodes']}", file=sys.stderr)
                # The subproblems whose answer no longer matters stop.
                unneeded = [reference for reference, leaf in running.items() if not nodes[leaf["after"]].needed()]
                withdraw(ray, withdrawals, {reference: running.pop(reference)["after"] for reference in unneeded})
        finally:
            if state:
                state.close()
            withdraw(ray, withdrawals, {reference: leaf["after"] for reference, leaf in running.items()}, wait=True)
            ray.shutdown()

    plies, line = tree.value, tree.line
    result = {"result": "win" if plies is not None else "none",
              "first": line[0] if line else "0000",
              "line": line,
              "plies": plies if plies is not None else args.plies,
              "nodes": spent,
              "subproblems": len(solved),
              "time": round(1000 * (time.monotonic() - started))}
    print(json.dumps(result), file=RESULTS, flush=True)
    return 0


# ---------------------------------------------------------------------------
# The run.

def count_openings(path):
    with open(path) as file:
        return sum(1 for line in file if line.strip() and not line.lstrip().startswith("#"))


def read_state(path):
    done = {}
    if path and os.path.exists(path):
        with open(path) as file:
            for number, line in enumerate(file, 1):
                if line.strip():
                    try:
                        record = json.loads(line)
                        done[record["opening"]] = record["points"]
                    except (ValueError, KeyError):
                        raise Failure(f"{path}:{number}: not a pair record; remove the line or the file")
    return done


def reachable(address, seconds=5):
    """Whether something answers at HOST:PORT (Ray itself waits minutes)."""
    import socket

    host, _, port = address.rpartition(":")
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=seconds):
            return True
    except (OSError, ValueError):
        return False


def connect(address, workers):
    if address and address != "auto" and not reachable(address):
        raise Failure(f"cannot reach the Ray cluster at '{address}': nothing answers there")
    import ray

    try:
        if address:
            ray.init(address=address, log_to_driver=False)
        else:
            ray.init(num_cpus=workers, log_to_driver=False, include_dashboard=False)
    except (ConnectionError, RuntimeError, ValueError) as error:
        raise Failure(f"cannot reach the Ray cluster at '{address}': {error}") from None
    return ray


def withdraw(ray, withdrawals, keys, wait=False):
    """Withdraws the tasks `keys` names (reference -> key); with `wait`,
    gives them a few seconds to stop their catena before Ray shuts down."""
    if not keys:
        return
    ray.get(withdrawals.withdraw.remote(list(keys.values())))
    if wait:
        ray.wait(list(keys), num_returns=len(keys), timeout=5)


def run_sprt(args):
    try:
        sprt = parse_sprt(args.sprt) if args.sprt else None
    except ValueError as error:
        raise Failure(str(error)) from None
    if not os.path.isfile(args.catena):
        raise Failure(f"no catena binary at {args.catena} (cargo build --release, or --catena PATH)")
    try:
        openings = count_openings(args.openings)
    except OSError as error:
        raise Failure(f"cannot read the openings {args.openings}: {error}") from None
    if openings == 0:
        raise Failure(f"{args.openings} has no opening")
    if args.pairs is None and sprt is None:
        raise Failure("give --pairs N, or --sprt to stop on its own")
    match_args = [args.first, args.second, "--openings", os.path.abspath(args.openings),
                  "--tc", args.tc, "--variant", args.variant]
    if args.engines:
        match_args += ["--engines", os.path.abspath(args.engines)]
    for word in args.each:
        match_args += ["--each", word]

    done = read_state(args.state)
    pairs = Pentanomial()
    for points in done.values():
        pairs.add(*points)
    wanted = args.pairs if args.pairs is not None else 500_000
    schedule = [(args.start - 1 + k) % openings + 1 for k in range(wanted)]
    todo = [opening for opening in schedule if opening not in done]

    ray = connect(args.address, args.workers)
    task = ray.remote(max_retries=args.retries, retry_exceptions=[Transient])(play_pair)
    slots = max(1, int(ray.cluster_resources().get("CPU", args.workers)))
    withdrawals = ray.remote(Withdrawals).remote()
    running = {}
    verdict = sprt.verdict(pairs) if sprt else None
    state = open(args.state, "a") if args.state else None
    try:
        while verdict is None and (todo or running):
            while todo and len(running) < slots:
                opening = todo.pop(0)
                running[task.remote(args.catena, match_args, args.first, opening, withdrawals)] = opening
            finished, _ = ray.wait(list(running), num_returns=1)
            for reference in finished:
                del running[reference]
                try:
                    record = ray.get(reference)
                except Exception as error:  # bad input, or a failure after its retries
                    # Ray hands the task's own exception over as the error's cause.
                    bad_input = isinstance(getattr(error, "cause", None), BadInput)
                    raise Failure(f"a pair failed: {str(error).splitlines()[-1]}", 2 if bad_input else 1) from None
                pairs.add(*record["points"])
                if state:
                    state.write(json.dumps(record) + "\n")
                    state.flush()
                verdict = sprt.verdict(pairs) if sprt else None
                llr = f" llr {sprt.llr(pairs):.2f} {sprt.bounds()[0]:.2f}..{sprt.bounds()[1]:.2f}" if sprt else ""
                print(f"pair {pairs.pairs()} opening {record['opening']}: Ptnml(0-2) {pairs.counts}, "
                      f"Elo {pairs.elo():+.1f}{llr}", file=sys.stderr)
    finally:
        if state:
            state.close()
        withdraw(ray, withdrawals, running, wait=True)
        ray.shutdown()
    result = {"pairs": pairs.pairs(), "pentanomial": pairs.counts, "elo": pairs.elo()}
    if sprt:
        result.update(llr=sprt.llr(pairs), verdict=verdict or "none")
    print(json.dumps(result), file=RESULTS, flush=True)
    return 0


# Where the result goes: stdout, which carries nothing else. Ray writes its
# own notices (a task retried, a worker lost) to the process's stdout, so
# main() points file descriptor 1 at stderr and keeps the real stdout here.
RESULTS = sys.stdout


def keep_stdout_for_results():
    global RESULTS
    sys.stdout.flush()
    RESULTS = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)


def main(argv=None):
    parser = argparse.ArgumentParser(description="Catena's work on a Ray cluster.")
    commands = parser.add_subparsers(dest="command", required=True)
    # Where the tasks run, and what they run: the same for every command.
    cluster = argparse.ArgumentParser(add_help=False)
    cluster.add_argument("--address", help="a Ray cluster: auto, or HOST:PORT (default: a local one)")
    cluster.add_argument("--workers", type=int, default=os.cpu_count() or 1,
                         help="CPUs of the local Ray (without --address)")
    cluster.add_argument("--retries", type=int, default=3)
    cluster.add_argument("--catena", default=os.path.join(REPOSITORY, "target", "release", "catena"))
    sprt = commands.add_parser("sprt", parents=[cluster], help="an SPRT played a pair of games per task")
    sprt.add_argument("first")
    sprt.add_argument("second")
    sprt.add_argument("--openings", required=True)
    sprt.add_argument("--start", type=int, default=1, help="the first opening (1 is the file's first)")
    sprt.add_argument("--pairs", type=int, help="pairs to play at most (default: until the SPRT decides)")
    sprt.add_argument("--engines", help="the engine list (default: the repository's engines.json)")
    sprt.add_argument("--each", action="append", default=[], metavar="KEY=VALUE",
                      help="as catena match --each, e.g. nodes=2000")
    sprt.add_argument("--tc", default="10+0.1")
    sprt.add_argument("--variant", default="sscc", choices=["sscc", "chess"])
    sprt.add_argument("--sprt", nargs="+", metavar="KEY=VALUE")
    sprt.add_argument("--state", help="a file of finished pairs, for resuming")
    solve = commands.add_parser("solve", parents=[cluster], help="a forced win proved by subproblems, one per task")
    solve.add_argument("fen", nargs="?", help="the position (default: the start position)")
    solve.add_argument("--plies", type=int, required=True, help="the bound on plies, as catena solve's")
    solve.add_argument("--split", type=int, default=2, help="plies below the root of the subproblems")
    solve.add_argument("--variant", default="sscc", choices=["sscc", "chess"])
    solve.add_argument("--rule", choices=["chain", "moves", "unlimited"])
    solve.add_argument("--min-enclosed", type=int)
    solve.add_argument("--state", help="a file of solved subproblems, for resuming")
    args = parser.parse_args(argv)
    if args.command == "sprt" and args.start < 1:
        parser.error("--start counts from 1")
    if args.command == "solve" and not 1 <= args.split < args.plies:
        parser.error("--split must be at least 1 and below --plies")
    keep_stdout_for_results()
    try:
        if args.command == "solve":
            return run_solve(args)
        return run_sprt(args)
    except Failure as failure:
        print(f"error: {failure}", file=sys.stderr)
        return failure.status


if __name__ == "__main__":
    sys.exit(main())
