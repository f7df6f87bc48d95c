#!/usr/bin/env python3
"""Builds the evaluation network's training set: positions from games of
Stockfish 15.1 against itself at a fixed node count, each labelled with the
game's result (1 White won, 0.5 draw, 0 Black won) and with Stockfish's
score of it in centipawns from White's side (mates as +-10000).

Every game starts with RANDOM_PLIES uniformly random legal moves from the
start position (seeded), so the games cover balanced and lopsided positions
alike. A game ends by the rules, or is adjudicated when Stockfish's score
stays beyond ADJUDICATE_CP for 6 plies (a win) or the game reaches 300 plies
(a draw). Kept are the positions from ply 10 on where the side to move is not
in check and Stockfish's chosen move is quiet, so that the static
evaluation, not a pending capture, decides their value.

Usage: tests/data/make_training_set.py GAMES SEED OUT [STOCKFISH] [--nodes N]
(N: Stockfish's nodes a move, 1500 unless given; fewer write more positions
an hour with rougher scores.)
Output: one line per position, `<fen> | <result> | <score>`.
"""

import argparse
import random
import subprocess
import sys

import chess

RANDOM_PLIES = 8
ADJUDICATE_CP = 1000


class Stockfish:
    """Stockfish over plain pipes: python-chess's engine wrapper cost a
    quarter of the generator's time. It sends what that wrapper sent
    (`position startpos moves ...`, `go nodes N`), so the data is the same."""

    def __init__(self, path, nodes):
        self.nodes = nodes
        self.process = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        text=True, bufsize=1)
        self.send("uci")
        self.wait_for("uciok")
        self.send("setoption name Threads value 1")
        self.send("setoption name Hash value 16")

    def send(self, line):
        self.process.stdin.write(line + "\n")

    def wait_for(self, token):
        for line in self.process.stdout:
            if line.startswith(token):
                return line
        raise RuntimeError("Stockfish exited")

    def new_game(self):
        self.send("ucinewgame")
        self.send("isready")
        self.wait_for("readyok")

    def play(self, board):
        """Stockfish's move and its score in centipawns from White's side (mates as +-100000)."""
        moves = " ".join(move.uci() for move in board.move_stack)
        self.send(f"position startpos moves {moves}" if moves else "position startpos")
        self.send(f"go nodes {self.nodes}")
        score = 0
        for line in self.process.stdout:
            if line.startswith("bestmove"):
                move = chess.Move.from_uci(line.split()[1])
                return move, score if board.turn == chess.WHITE else -score
            words = line.split()
            if words[:1] == ["info"] and "score" in words:
                kind, value = words[words.index("score") + 1:][:2]
                value = int(value)
                if kind == "cp":
                    score = value
                else:
                    score = 100_000 - value if value > 0 else -100_000 - value
        raise RuntimeError("Stockfish exited")

    def quit(self):
        self.send("quit")
        self.process.wait()


def play(rng, engine):
    board = chess.Board()
    for _ in range(RANDOM_PLIES):
        moves = list(board.legal_moves)
        if not moves:
            return []
        board.push(rng.choice(moves))
    positions, lopsided, result = [], 0, None
    seen = {}
    while result is None:
        # Threefold repetition by counting keys: python-chess's claim check replays the game.
        key = board._transposition_key()
        seen[key] = seen.get(key, 0) + 1
        outcome = board.outcome()
        if outcome is not None or seen[key] >= 3 or board.halfmove_clock >= 100:
            winner = outcome.winner if outcome is not None else None
            result = {chess.WHITE: 1.0, chess.BLACK: 0.0, None: 0.5}[winner]
            break
        if board.ply() >= 300:
            result = 0.5
            break
        move, score = engine.play(board)
        lopsided = lopsided + 1 if abs(score) > ADJUDICATE_CP else 0
        if lopsided >= 6:
            result = 1.0 if score > 0 else 0.0
            break
        if (board.ply() >= 10 and not board.is_check()
                and not board.is_capture(move) and move.promotion is None):
            positions.append((board.fen(), max(-10_000, min(10_000, score))))
        board.push(move)
    return [(fen, result, score) for fen, score in positions]


def main():
    parser = argparse.ArgumentParser(description="Writes labelled positions for catena train.")
    parser.add_argument("games", type=int)
    parser.add_argument("seed", type=int)
    parser.add_argument("out")
    parser.add_argument("stockfish", nargs="?", default="/usr/games/stockfish")
    parser.add_argument("--nodes", type=int, default=1500)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    engine = Stockfish(args.stockfish, args.nodes)
    with open(args.out, "w") as file:
        for game in range(args.games):
            engine.new_game()
            for fen, result, score in play(rng, engine):
                file.write(f"{fen} | {result} | {score}\n")
            file.flush()
            if game % 100 == 0:
                print(f"game {game}", file=sys.stderr, flush=True)
    engine.quit()


if __name__ == "__main__":
    main()
