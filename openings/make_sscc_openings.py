#!/usr/bin/env python3
"""Builds openings/sscc-balanced.epd: start positions for SSCC matches in which
neither player is already winning.

Most of openings/balanced.epd are decided in SSCC before the first move: the
player to move closes a chain at once and starts a run that wins, whoever
plays (docs/sscc-search.md, "Decided openings"). Such a pair is split 1-1
between any two engines that find the run, and tells nothing about them.
Here each candidate is made as in openings/make_openings.py (a seeded walk of
PLIES plies among Stockfish's near-best moves, kept when Stockfish scores it
within 50 centipawns of equal at depth 12), then searched by Catena in SSCC
(`UCI_Variant sscc`, one thread, Hash 64, `go nodes NODES`, so the choice
does not depend on the machine), and kept when Catena finds no mate and
scores it within LIMIT centipawns of equal. JOBS walks run at once, with
seeds SEED, SEED + 1, ..., each keeping its share of the COUNT.

Usage: openings/make_sscc_openings.py CATENA [--count N] [--plies P] [--nodes N]
       [--limit CP] [--seed S] [--jobs J] [--stockfish PATH] [--out FILE]
       openings/make_sscc_openings.py CATENA --score EPD [--nodes N]
       openings/make_sscc_openings.py CATENA --first-moves EPD [--first-count N]
(needs `pip install chess`). Prints each kept position with its score to
stderr as it goes, and how many candidates were tried. With --score, writes
nothing but prints Catena's verdict on each position of EPD (its line number,
then `cp N` or `mate N`), as docs/pairs.py --scores reads it. With
--first-moves, the nodes and time Catena spends on the first move of a game
at 10+0.1 from each of the first N openings of EPD.
"""

import argparse
import multiprocessing
import random
import statistics
import subprocess
import sys
from pathlib import Path

import chess
import chess.engine

from make_openings import balanced, walk


class Catena:
    """Catena in SSCC mode over plain UCI (python-chess would set UCI_Variant
    to its board's variant, chess)."""

    def __init__(self, path):
        self.process = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        text=True, bufsize=1)
        for command in ["uci", "setoption name UCI_Variant value sscc",
                        "setoption name Hash value 64", "isready"]:
            self.send(command)
        self.wait_for("readyok")

    def send(self, command):
        self.process.stdin.write(command + "\n")
        self.process.stdin.flush()

    def wait_for(self, prefix):
        """The lines read up to and including the first that starts with `prefix`."""
        lines = []
        while not lines or not lines[-1].startswith(prefix):
            line = self.process.stdout.readline()
            if not line:
                raise RuntimeError("Catena exited")
            lines.append(line.strip())
        return lines

    def search(self, board, go):
        """The words of the last `info` line with a score, after `go` from `board`
        in a new game."""
        self.send("ucinewgame")
        self.send(f"position fen {board.fen()}")
        self.send(f"go {go}")
        infos = [line.split() for line in self.wait_for("bestmove") if " score " in line]
        return infos[-1]

    def verdict(self, board, nodes):
        """The SSCC score for the side to move: ("cp", centipawns) or ("mate", moves)."""
        words = self.search(board, f"nodes {nodes}")
        kind, value = words[words.index("score") + 1: words.index("score") + 3]
        return kind, int(value)

    def quit(self):
        self.send("quit")
        self.process.wait()


def generate(args, seed, count):
    """`count` openings from the walks of seed `seed`, and the candidates tried."""
    rng = random.Random(seed)
    kept, seen, tried = [], set(), 0
    catena = Catena(args.catena)
    with chess.engine.SimpleEngine.popen_uci(args.stockfish) as stockfish:
        stockfish.configure({"Threads": 1, "Hash": 64})
        while len(kept) < count:
            board = walk(rng, stockfish, args.plies)
            if board.epd() in seen or board.is_game_over():
                continue
            seen.add(board.epd())
            tried += 1
            if not balanced(stockfish, board):
                continue
            kind, score = catena.verdict(board, args.nodes)
            if kind == "cp" and abs(score) <= args.limit:
                kept.append(board.epd())
                print(f"seed {seed}: {len(kept)}/{tried} {board.epd()} sscc {score:+d}",
                      file=sys.stderr, flush=True)
    catena.quit()
    return kept, tried


def read_openings(path):
    """The boards of an EPD file, as `catena match` numbers them (from 1, blank
    lines and `#` comments not counted)."""
    lines = Path(path).read_text().splitlines()
    return [chess.Board(" ".join(line.split()[:4]) + " 0 1")
            for line in lines if line.strip() and not line.startswith("#")]


def score_file(args):
    """Prints Catena's SSCC verdict on every opening of an EPD file: its number
    and `mate N` or `cp N` for the side to move."""
    catena = Catena(args.catena)
    for number, board in enumerate(read_openings(args.score), 1):
        print(number, *catena.verdict(board, args.nodes), flush=True)
    catena.quit()


def first_moves(args):
    """What a clock of 10+0.1 buys the first move of a game from each of the
    first N openings of an EPD file: the median of Catena's nodes and time,
    and the least and most nodes (docs/strength.md, C89)."""
    catena = Catena(args.catena)
    nodes, times = [], []
    for board in read_openings(args.first_moves)[:args.first_count]:
        words = catena.search(board, "wtime 10000 btime 10000 winc 100 binc 100")
        nodes.append(int(words[words.index("nodes") + 1]))
        times.append(int(words[words.index("time") + 1]))
    catena.quit()
    print("first moves", len(nodes), "median nodes", statistics.median(nodes),
          "median ms", statistics.median(times), "min/max nodes", min(nodes), max(nodes))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("catena")
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--plies", type=int, default=8)
    parser.add_argument("--nodes", type=int, default=1_000_000)
    parser.add_argument("--limit", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--stockfish", default="/usr/games/stockfish")
    parser.add_argument("--out", default=str(Path(__file__).resolve().parent / "sscc-balanced.epd"))
    parser.add_argument("--score", metavar="EPD",
                        help="only print Catena's verdict on each line of EPD")
    parser.add_argument("--first-moves", metavar="EPD",
                        help="only print what 10+0.1 buys the first move from EPD's openings")
    parser.add_argument("--first-count", type=int, default=20,
                        help="how many of EPD's openings --first-moves plays")
    args = parser.parse_args()
    if args.score:
        score_file(args)
        return
    if args.first_moves:
        first_moves(args)
        return

    # Job j walks with seed + j and keeps its share; the shares are joined in job order.
    shares = [args.count // args.jobs + (j < args.count % args.jobs) for j in range(args.jobs)]
    with multiprocessing.Pool(args.jobs) as pool:
        results = pool.starmap(generate, [(args, args.seed + j, n) for j, n in enumerate(shares)])
    kept = [epd for share, _ in results for epd in share]
    Path(args.out).write_text("\n".join(kept) + "\n")
    print(f"kept {len(kept)} of {sum(tried for _, tried in results)} candidates", file=sys.stderr)


if __name__ == "__main__":
    main()
