#!/usr/bin/env python3
"""Does the hand-over count know more than the search's score?

Reads lines of `catena datagen --probe-nodes N` (`<fen> | <result> |
<score> | <switches> <spent> | <handing> <moves>`) and groups the positions
by the share of the side to move's moves that hand the opponent a run that
mates. For each group: how many positions, the side to move's mean result,
and the mean of what the score predicts (logistic(score / 400), the
trainer's expectation). Where the two agree in every group, the count tells
the trainer nothing the score does not.

    python3 docs/probe_label.py DATA...
"""

import math
import sys

GROUPS = [
    ("none", lambda share: share == 0),
    ("under 10%", lambda share: 0 < share < 0.1),
    ("10% to 30%", lambda share: 0.1 <= share < 0.3),
    ("30% to 99%", lambda share: 0.3 <= share < 1),
    ("all", lambda share: share == 1),
]


def positions(paths):
    for path in paths:
        with open(path) as lines:
            for number, line in enumerate(lines, 1):
                fields = [field.strip() for field in line.split("|")]
                if len(fields) != 5:
                    sys.exit(f"{path}:{number}: expected five fields (catena datagen --probe-nodes)")
                result, score = float(fields[1]), float(fields[2])
                if fields[0].split()[1] == "b":
                    result, score = 1 - result, -score
                handing, moves = map(int, fields[4].split())
                yield handing / moves if moves else 0.0, result, 1 / (1 + math.exp(-score / 400))


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    sums = {name: [0, 0.0, 0.0] for name, _ in GROUPS}
    for share, result, expected in positions(sys.argv[1:]):
        name = next(name for name, test in GROUPS if test(share))
        sums[name][0] += 1
        sums[name][1] += result
        sums[name][2] += expected
    print("| Moves handing over a mating run | Positions | Mean result | Mean expectation from the score |")
    print("|---|---|---|---|")
    for name, _ in GROUPS:
        count, result, expected = sums[name]
        if count:
            print(f"| {name} | {count} | {result / count:.3f} | {expected / count:.3f} |")
        else:
            print(f"| {name} | 0 | | |")


if __name__ == "__main__":
    main()
