#!/usr/bin/env python3
"""Whose clock a move's thinking comes off, counted over SSCC games.

Clocks belong to colours (docs/rules.md, section 3), and each switch hands
the mover's colour, with its clock, to the other player. The clock a move
is thought on passes to the opponent when the mover's run (its switches and
the stay that ends it) and the opponent's reply run together switch an odd
number of times. This counts, over the moves the games actually played,
how often that happens for switches and for stays.

Usage (docs/strength.md, C93):
    python3 docs/clock_owner.py docs/games/C91.pgn.xz
"""

import re
import sys
from collections import Counter

from pairs import records

# SAN moves, castling included, once comments and results are gone.
MOVE = re.compile(r"^(?:O-O(?:-O)?|[NBRQK]?[a-h]?[1-8]?x?[a-h][1-8](?:=[NBRQ])?)[+#]?$")


def actions(movetext):
    """The game's actions in order: True for a switch, False for a stay."""
    movetext = re.sub(r"\{(?!switch\})[^}]*\}", " ", movetext)
    played = []
    for token in re.findall(r"\{switch\}|\S+", movetext):
        if token == "{switch}":
            if played:
                played[-1] = True
        elif MOVE.match(token):
            played.append(False)
    return played


def hands_over(line):
    """Whether the clock the first action of `line` is thought on ends with
    the opponent, once the mover's run and the reply run are played."""
    switches = stays = 0
    for switch in line:
        if switch:
            switches += 1
        else:
            stays += 1
            if stays == 2:
                break
    return switches % 2 == 1


def movetexts(path):
    for record in records(path):
        headers, _, movetext = record.partition("\n\n")
        if headers.strip():
            yield movetext


def main(paths):
    if not paths:
        sys.exit("usage: clock_owner.py GAMES.pgn[.xz]...")
    counts = Counter()
    for path in paths:
        for movetext in movetexts(path):
            line = actions(movetext)
            for index, switch in enumerate(line):
                counts[switch, hands_over(line[index:])] += 1
    for switch, name in ((True, "switches"), (False, "stays")):
        total = counts[switch, True] + counts[switch, False]
        print(f"{name}: {total}, of which {counts[switch, True]} hand the clock over "
              f"and {counts[switch, False]} keep it")


if __name__ == "__main__":
    main(sys.argv[1:])
