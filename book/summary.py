#!/usr/bin/env python3
"""What a book written by `catena book` settles, position by position
(docs/solver.md, "The books"): each FEN's shortest proven win, or the
largest bound within which it has none, else unsettled.

    python3 book/summary.py book/openings-balanced.epd [D]

With D, a position counts as settled at D when it has a win within D or
none within a bound of at least D.
"""

import re
import sys


def summary(path, depth=None):
    positions = {}
    with open(path) as file:
        for line in file:
            if line.startswith("#") or " result " not in line:
                continue
            fen, rest = line.split(" result ", 1)
            fen = " ".join(fen.split()[:4])
            fields = dict(re.findall(r"(\w[\w-]*) ([^;]+);", "result " + rest))
            known = positions.setdefault(fen, {"win": None, "none": 0})
            bound = int(fields["bound"])
            if fields["result"] == "win":
                plies = int(fields["dm"])
                known["win"] = plies if known["win"] is None else min(known["win"], plies)
            elif fields["result"] == "none":
                known["none"] = max(known["none"], bound)
    wins = [known["win"] for known in positions.values() if known["win"] is not None]
    nones = [known["none"] for known in positions.values() if known["win"] is None and known["none"]]
    print(f"{path}: {len(positions)} positions")
    print(f"  win: {len(wins)} (shortest, plies: " +
          ", ".join(f"{plies}: {wins.count(plies)}" for plies in sorted(set(wins))) + ")")
    print(f"  none within: " + ", ".join(f"{bound}: {nones.count(bound)}" for bound in sorted(set(nones))))
    if depth is not None:
        settled = sum(1 for known in positions.values()
                      if (known["win"] is not None and known["win"] <= depth) or known["none"] >= depth)
        print(f"  settled at D = {depth}: {settled} of {len(positions)}")


if __name__ == "__main__":
    summary(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else None)
