#!/usr/bin/env python3
"""Builds openings/sscc-human.epd: SSCC match openings that no engine chose
(issue 55). They are the named openings of human chess play, as the lichess
opening list (github.com/lichess-org/chess-openings, CC0) names them, of 1
to PLIES plies: every line of its a.tsv to e.tsv with at most PLIES moves,
played from the start position, each position once (the first name it
has). No engine scores or filters them, so a match on them judges an engine
on positions its own search did not pick (openings/sscc-balanced.epd is
filtered by Catena's SSCC search).

Usage: openings/make_human_openings.py CHESS_OPENINGS_DIR [--plies P] [--out FILE]
(needs `pip install chess`). CHESS_OPENINGS_DIR is a checkout of the list:
    git clone https://github.com/lichess-org/chess-openings
Each line is the position's four FEN fields and `c0` with the ECO code, the
name and the moves.
"""

import argparse
import csv
import os
import subprocess
import sys

import chess


def lines_of(directory):
    for volume in "abcde":
        with open(os.path.join(directory, f"{volume}.tsv"), newline="") as file:
            yield from csv.DictReader(file, delimiter="\t")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("directory")
    parser.add_argument("--plies", type=int, default=3)
    parser.add_argument("--out", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "sscc-human.epd"))
    args = parser.parse_args()
    try:
        commit = subprocess.run(["git", "-C", args.directory, "rev-parse", "--short", "HEAD"],
                                capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        commit = "unknown commit"
    seen = set()
    kept = []
    for line in lines_of(args.directory):
        board = chess.Board()
        moves = [token for token in line["pgn"].split() if not token.endswith(".")]
        if len(moves) > args.plies:
            continue
        for move in moves:
            board.push_san(move)
        epd = board.epd()
        if epd in seen:
            continue
        seen.add(epd)
        kept.append(f'{epd} c0 "{line["eco"]} {line["name"]}: {line["pgn"]}";')
    with open(args.out, "w") as file:
        file.write(f"# The named openings of 1 to {args.plies} plies of lichess-org/chess-openings "
                   f"({commit}, CC0), each position once, in the list's order; no engine chose them.\n")
        file.write(f"# openings/make_human_openings.py CHESS_OPENINGS_DIR --plies {args.plies}\n")
        file.writelines(line + "\n" for line in kept)
    print(f"{len(kept)} openings written to {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
