#!/usr/bin/env python3
"""How much of its clock an engine leaves unused: one chess game between two
UCI engines under a sudden-death clock with increment, refereed by
python-chess, printing each side's clock every ten plies and at the end.

Usage:
    python3 docs/clock_left.py WHITE BLACK "FEN" [--tc 10+0.1]

WHITE and BLACK are engine commands; an engine whose command holds
`stockfish` plays as `Stockfish-2600` of engines.json (Hash 32, one thread,
`UCI_Elo` 2600), any other with Hash 32. Time is taken as the wall clock
around each `go`, as `catena match` takes it. Docs/strength.md (C82) ran it
on openings 5 and 9 of openings/balanced.epd, two games at once.
"""

import argparse
import time

import chess
import chess.engine


def open_engine(command):
    engine = chess.engine.SimpleEngine.popen_uci(command)
    options = {"Hash": 32}
    if "stockfish" in command:
        options.update({"Threads": 1, "UCI_LimitStrength": True, "UCI_Elo": 2600})
    engine.configure(options)
    return engine


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("white")
    parser.add_argument("black")
    parser.add_argument("fen")
    parser.add_argument("--tc", default="10+0.1")
    args = parser.parse_args()
    base, increment = (float(part) for part in args.tc.split("+"))
    engines = {chess.WHITE: open_engine(args.white), chess.BLACK: open_engine(args.black)}
    clock = {chess.WHITE: base, chess.BLACK: base}
    board = chess.Board(args.fen)
    try:
        while not board.is_game_over(claim_draw=True):
            side = board.turn
            limit = chess.engine.Limit(
                white_clock=clock[chess.WHITE],
                black_clock=clock[chess.BLACK],
                white_inc=increment,
                black_inc=increment,
            )
            start = time.monotonic()
            move = engines[side].play(board, limit).move
            clock[side] -= time.monotonic() - start
            if clock[side] < 0:
                print(f"{'White' if side else 'Black'} lost on time")
                break
            clock[side] += increment
            if board.ply() % 10 == 0:
                print(f"ply {board.ply()}: White {clock[chess.WHITE]:.2f} s, "
                      f"Black {clock[chess.BLACK]:.2f} s")
            board.push(move)
        print(f"{board.result(claim_draw=True)} after {board.ply()} plies: "
              f"White {clock[chess.WHITE]:.2f} s left, Black {clock[chess.BLACK]:.2f} s")
    finally:
        for engine in engines.values():
            engine.quit()


if __name__ == "__main__":
    main()
