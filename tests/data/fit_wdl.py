#!/usr/bin/env python3
"""Fits the win-draw-loss model behind `UCI_ShowWDL` (src/wdl.rs) to games.

    python3 tests/data/fit_wdl.py --variant chess|sscc [--engine target/release/catena]
                                  [--depth 6] [--skip 8] [--flat] [--samples FILE] GAMES.pgn...

Every position of every game from ply `--skip` on is searched by the engine
to `--depth` (in the game's variant, with its switches and rules, so a run in
progress counts), and its score taken from the side to move's view, beside
the material on the board (pawn 1, knight and bishop 3, rook 5, queen 9; 78
at the start) and the result of the game for the player to move (in SSCC the
player who controls the colour to move, docs/rules.md, section 3). Mate scores are left
out. The model, as Stockfish's but with the constants fitted to Catena:

    win  = 1 / (1 + exp((a - s) / b)),  loss = 1 / (1 + exp((a + s) / b)),
    draw = 1 - win - loss,  with a = a0 + a1 * m / 78 and b = b0 + b1 * m / 78

fitted by maximum likelihood (scipy), with a >= 0 and b >= 1 at every
material (a negative `a` would make the draw odds negative; SSCC, where
draws are rare, fits `a` at 0). Prints the four constants, then the
observed and predicted rates by score band. `--flat` fits `a` and `b` alone
(a1 = b1 = 0), for games that end before the material comes off, as SSCC
games do. `--samples FILE` keeps the searched positions' rows in FILE (and
reads them from there when it exists), so that a refit skips the searches.
"""

import argparse
import math
import subprocess
import sys

import chess
import chess.pgn
import numpy as np
from scipy.optimize import minimize

VALUES = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9}


def material(board):
    return sum(VALUES.get(piece.piece_type, 0) for piece in board.piece_map().values())


class Engine:
    def __init__(self, path, variant, rules):
        self.process = subprocess.Popen(
            [path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, text=True)
        self.send("uci")
        self.send(f"setoption name UCI_Variant value {variant}")
        for name, value in rules.items():
            self.send(f"setoption name {name} value {value}")
        self.send("isready")
        self.wait("readyok")

    def send(self, line):
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def wait(self, word):
        while True:
            line = self.process.stdout.readline()
            if not line:
                sys.exit("the engine exited")
            if line.split()[:1] == [word]:
                return line

    def score(self, position, depth):
        self.send(position)
        self.send(f"go depth {depth}")
        score = None
        while True:
            words = self.process.stdout.readline().split()
            if not words:
                sys.exit("the engine exited")
            if words[0] == "bestmove":
                return score
            if "score" in words and "multipv" in words and "lowerbound" not in words \
                    and "upperbound" not in words:
                kind, value = words[words.index("score") + 1:words.index("score") + 3]
                score = int(value) if kind == "cp" else None

    def quit(self):
        self.send("quit")
        self.process.wait()


def rules_of(game):
    """The SSCC rules of a game's `SSCC` tag (`SwitchRule=chain;MinEnclosed=2`)."""
    tag = game.headers.get("SSCC", "")
    fields = dict(part.split("=", 1) for part in tag.split(";") if "=" in part)
    return {name: fields[name] for name in ("SwitchRule", "MinEnclosed") if name in fields}


def samples(path, args):
    """(score, material, outcome) for the player to move, outcome 1, 0.5 or 0."""
    engines = {}
    with open(path) as pgn:
        while (game := chess.pgn.read_game(pgn)) is not None:
            result = game.headers.get("Result")
            if result not in ("1-0", "0-1", "1/2-1/2"):
                continue
            rules = rules_of(game) if args.variant == "sscc" else {}
            key = tuple(sorted(rules.items()))
            if key not in engines:
                engines[key] = Engine(args.engine, args.variant, rules)
            engine = engines[key]
            engine.send("ucinewgame")
            start = game.board()
            fen = start.fen()
            # Which starting colour's player controls White, flipped at each switch.
            white_is_first = True
            tokens = []
            rows = []
            node = game
            ply = 0
            while node.variations:
                board = node.board()
                if ply >= args.skip and board.legal_moves:
                    moves = " moves " + " ".join(tokens) if tokens else ""
                    score = engine.score(f"position fen {fen}{moves}", args.depth)
                    if score is not None:
                        mover_started_white = white_is_first == (board.turn == chess.WHITE)
                        rows.append((score, material(board), mover_started_white))
                child = node.variations[0]
                tokens.append(child.move.uci())
                if args.variant == "sscc" and "switch" in child.comment:
                    tokens.append("switch")
                    white_is_first = not white_is_first
                node = child
                ply += 1
            # The result by colour at the end, for each starting colour's player.
            white_points = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}[result]
            first_points = white_points if white_is_first else 1.0 - white_points
            for score, men, mover_started_white in rows:
                yield score, men, first_points if mover_started_white else 1.0 - first_points
    for engine in engines.values():
        engine.quit()


def probabilities(params, score, men):
    """The model's odds; `params` are a and b with no material and with 78."""
    a_bare, a_full, b_bare, b_full = params
    a = a_bare + (a_full - a_bare) * men / 78
    b = b_bare + (b_full - b_bare) * men / 78
    win = 1 / (1 + np.exp(np.clip((a - score) / b, -50, 50)))
    loss = 1 / (1 + np.exp(np.clip((a + score) / b, -50, 50)))
    return win, np.clip(1 - win - loss, 1e-9, 1), loss


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pgn", nargs="+")
    parser.add_argument("--variant", choices=["chess", "sscc"], required=True)
    parser.add_argument("--engine", default="target/release/catena")
    parser.add_argument("--depth", type=int, default=6)
    parser.add_argument("--skip", type=int, default=8)
    parser.add_argument("--flat", action="store_true")
    parser.add_argument("--samples")
    args = parser.parse_args()
    try:
        with open(args.samples or "") as cached:
            rows = [tuple(float(x) for x in line.split()) for line in cached]
    except FileNotFoundError:
        rows = [row for path in args.pgn for row in samples(path, args)]
        if args.samples:
            with open(args.samples, "w") as cache:
                cache.writelines(f"{score} {men} {outcome}\n" for score, men, outcome in rows)
    score = np.array([row[0] for row in rows], dtype=float)
    men = np.array([row[1] for row in rows], dtype=float)
    outcome = np.array([row[2] for row in rows])
    won, drawn, lost = outcome == 1.0, outcome == 0.5, outcome == 0.0

    def full(params):
        # --flat: the same a and b with no material as with 78.
        return [params[0], params[0], params[1], params[1]] if args.flat else params

    def loss(params):
        win, draw, lose = probabilities(full(params), score, men)
        return -(np.log(np.clip(win[won], 1e-9, 1)).sum()
                 + np.log(draw[drawn]).sum()
                 + np.log(np.clip(lose[lost], 1e-9, 1)).sum()) / len(rows)

    start, bounds = [150.0, 100.0, 60.0, 100.0], [(0, None), (0, None), (1, None), (1, None)]
    if args.flat:
        start, bounds = [100.0, 100.0], [(0, None), (1, None)]
    fit = minimize(loss, x0=start, method="L-BFGS-B", bounds=bounds)
    a_bare, a_full, b_bare, b_full = full(list(fit.x))
    a0, a1, b0, b1 = a_bare, a_full - a_bare, b_bare, b_full - b_bare
    print(f"{len(rows)} positions ({won.sum()} won, {drawn.sum()} drawn, {lost.sum()} lost "
          f"for the player to move); log loss {fit.fun:.4f}")
    print(f"a0 = {a0:.1f}, a1 = {a1:.1f}, b0 = {b0:.1f}, b1 = {b1:.1f}")
    win, draw, lose = probabilities(full(list(fit.x)), score, men)
    print(f"{'score':>13} {'n':>6}  {'won':>5} {'drawn':>5} {'lost':>5}   "
          f"{'model':>5} {'':>5} {'':>5}")
    for low, high in [(-math.inf, -300), (-300, -150), (-150, -50), (-50, 50), (50, 150),
                      (150, 300), (300, math.inf)]:
        band = (score >= low) & (score < high)
        if band.sum() == 0:
            continue
        print(f"{low:>6}..{high:<6} {band.sum():>6}  {won[band].mean():5.2f} "
              f"{drawn[band].mean():5.2f} {lost[band].mean():5.2f}   {win[band].mean():5.2f} "
              f"{draw[band].mean():5.2f} {lose[band].mean():5.2f}")


if __name__ == "__main__":
    main()
