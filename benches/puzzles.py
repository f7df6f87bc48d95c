#!/usr/bin/env python3
"""The engine against perft/puzzles.epd, beside the solver on the same puzzles.

    python3 benches/puzzles.py [--catena target/release/catena] [--movetime 1000]
                               [--max-plies 7] [--file perft/puzzles.epd]

For each puzzle line (docs/rules.md, section 8):
- the solver: `catena solve FEN --plies D --rule R --min-enclosed M --json`,
  its nodes and milliseconds to the verdict;
- the engine, in sscc mode with the puzzle's rules: `go movetime MS` from a
  fresh `ucinewgame`; whether its `bestmove` (with ` switch`) is the puzzle's
  only winning first action, and the time from which every `info ... pv`
  began with that action (the time to play it, had the clock stopped then).

Prints one line a puzzle, a table by D and by rule, the misses, and the
solver's nodes per second over the file. Run it on a quiet machine.
"""

import argparse
import json
import subprocess
import sys
import time
from collections import defaultdict


def parse(line):
    words = line.split()
    counters = 0
    for word in words[4:6]:
        if word.isdigit():
            counters += 1
        else:
            break
    fen = " ".join(words[: 4 + counters])
    fields = {}
    for field in " ".join(words[4 + counters:]).split(";"):
        field = field.strip()
        if field:
            opcode, _, operand = field.partition(" ")
            fields[opcode] = operand.strip().strip('"')
    return fen, fields


class Engine:
    def __init__(self, command):
        self.process = subprocess.Popen(
            [command], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.send("uci")
        self.wait("uciok")

    def send(self, text):
        self.process.stdin.write(text + "\n")
        self.process.stdin.flush()

    def wait(self, word):
        while True:
            line = self.process.stdout.readline()
            if not line:
                sys.exit("the engine quit")
            if line.split()[:1] == [word]:
                return line

    def play(self, fen, fields, movetime):
        self.send("setoption name UCI_Variant value sscc")
        self.send(f"setoption name SwitchRule value {fields['rule']}")
        self.send(f"setoption name MinEnclosed value {fields['min-enclosed']}")
        self.send("ucinewgame")
        self.send(f"position fen {fen}")
        self.send("isready")
        self.wait("readyok")
        started = time.monotonic()
        self.send(f"go movetime {movetime}")
        solution = fields["bm"].split()
        settled = None
        while True:
            line = self.process.stdout.readline()
            if not line:
                sys.exit("the engine quit")
            words = line.split()
            elapsed = (time.monotonic() - started) * 1000
            if words[:1] == ["bestmove"]:
                best = words[1:3] if words[2:3] == ["switch"] else words[1:2]
                return best == solution, " ".join(best), settled
            if "pv" in words:
                pv = words[words.index("pv") + 1:]
                first = pv[:2] if pv[1:2] == ["switch"] else pv[:1]
                if first == solution:
                    settled = settled if settled is not None else elapsed
                else:
                    settled = None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--catena", default="target/release/catena")
    parser.add_argument("--movetime", type=int, default=1000)
    parser.add_argument("--max-plies", type=int, default=7)
    parser.add_argument("--file", default="perft/puzzles.epd")
    args = parser.parse_args()

    engine = Engine(args.catena)
    rows = []
    for line in open(args.file):
        if not line.strip() or line.startswith("#"):
            continue
        fen, fields = parse(line)
        plies = int(fields["dm"])
        if plies > args.max_plies:
            continue
        solve = subprocess.run(
            [args.catena, "solve", fen, "--plies", str(plies), "--rule", fields["rule"],
             "--min-enclosed", fields["min-enclosed"], "--json"],
            capture_output=True, text=True, check=True)
        report = json.loads(solve.stdout)
        found, played, settled = engine.play(fen, fields, args.movetime)
        rows.append((fields["rule"], plies, found, report, played, settled, fen, fields["bm"]))
        print(f"{fields['id']:24} D{plies} {fields['rule']:9} solver {report['result']} "
              f"{report['nodes']:>9} nodes {report['time']:>6} ms | engine "
              f"{'found' if found else 'MISSED'} {played:14} "
              f"{'-' if settled is None else f'{settled:.0f} ms'}", flush=True)
    engine.send("quit")

    print("\n| D | rule | puzzles | engine found | found within | solver median ms | engine median ms to settle |")
    print("|---|---|---|---|---|---|---|")
    groups = defaultdict(list)
    for row in rows:
        groups[(row[1], row[0])].append(row)
        groups[(row[1], "all")].append(row)
    for (plies, rule), group in sorted(groups.items()):
        found = sum(1 for row in group if row[2])
        solver_ms = sorted(row[3]["time"] for row in group)[len(group) // 2]
        settled = sorted(row[5] for row in group if row[2] and row[5] is not None)
        engine_ms = f"{settled[len(settled) // 2]:.0f}" if settled else "-"
        print(f"| {plies} | {rule} | {len(group)} | {found} ({100 * found / len(group):.1f}%) | "
              f"{args.movetime} ms | {solver_ms} | {engine_ms} |")
    for limit in (2, 5, 7):
        subset = [row for row in rows if row[1] <= limit]
        if subset:
            found = sum(1 for row in subset if row[2])
            print(f"D <= {limit}: {found} of {len(subset)} ({100 * found / len(subset):.1f}%)")
    nodes = sum(row[3]["nodes"] for row in rows)
    millis = sum(row[3]["time"] for row in rows)
    print(f"solver: {nodes} nodes in {millis} ms, {1000 * nodes / max(millis, 1):.0f} nodes per second")
    print("\nMisses:")
    for rule, plies, found, report, played, settled, fen, best in rows:
        if not found:
            print(f"  {fen} (D {plies}, {rule}): solution {best}, engine played {played}")


if __name__ == "__main__":
    main()
