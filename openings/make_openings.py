#!/usr/bin/env python3
"""Builds openings/balanced.epd: start positions for matches, so that games
do not repeat. Each is a seeded walk of 8 plies from the start position, every
ply chosen at random among Stockfish's moves within 60 centipawns of its best
(MultiPV 5, depth 8), kept when Stockfish 15.1 at depth 12 scores it within
50 centipawns of equal. Balanced by chess standards; in SSCC each is played
twice with colours reversed, which evens out any chain chances.

Usage: openings/make_openings.py [STOCKFISH] (needs `pip install chess`).
"""

import random
import sys
from pathlib import Path

import chess
import chess.engine

WANTED = 200
PLIES = 8


def walk(rng, engine, plies=PLIES):
    board = chess.Board()
    for _ in range(plies):
        infos = engine.analyse(board, chess.engine.Limit(depth=8), multipv=5)
        best = infos[0]["score"].relative.score(mate_score=100_000)
        choices = [info["pv"][0] for info in infos
                   if best - info["score"].relative.score(mate_score=100_000) <= 60]
        board.push(rng.choice(choices))
    return board


def balanced(engine, board):
    """Whether Stockfish at depth 12 scores the position within 50 centipawns of equal."""
    score = engine.analyse(board, chess.engine.Limit(depth=12))["score"].white()
    return not score.is_mate() and abs(score.score()) <= 50


def main():
    stockfish = sys.argv[1] if len(sys.argv) > 1 else "/usr/games/stockfish"
    rng = random.Random(7)
    kept, seen = [], set()
    with chess.engine.SimpleEngine.popen_uci(stockfish) as engine:
        engine.configure({"Threads": 1, "Hash": 64})
        while len(kept) < WANTED:
            board = walk(rng, engine)
            if board.epd() in seen or board.is_game_over():
                continue
            seen.add(board.epd())
            if balanced(engine, board):
                kept.append(board.epd())
    path = Path(__file__).resolve().parent / "balanced.epd"
    path.write_text("\n".join(kept) + "\n")


if __name__ == "__main__":
    main()
