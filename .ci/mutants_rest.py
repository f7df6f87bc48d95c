#!/usr/bin/env python3
"""The mutants of a listing not yet tried in earlier reports, as a regex.

Reads `cargo mutants --list` on standard input; the arguments are
cargo-mutants output directories (missing ones are skipped). A mutant counts
as tried when its name, less its line and column (which move as the file is
edited), is in a report's caught, missed, timeout, unviable or
previously_caught list, as often as it occurs there. Prints an anchored
regex of the untried names for `--re`, or nothing when none is left.
"""
import collections
import re
import sys


def unplaced(name):
    return re.sub(r"^([^:]+):\d+:\d+:", r"\1:", name.strip())


tried = collections.Counter()
for directory in sys.argv[1:]:
    for kind in ["caught", "missed", "timeout", "unviable", "previously_caught"]:
        try:
            with open(f"{directory}/mutants.out/{kind}.txt") as report:
                names = {line.strip() for line in report if line.strip()}
        except FileNotFoundError:
            continue
        tried.update(unplaced(name) for name in names)

left = []
for name in sys.stdin.read().splitlines():
    key = unplaced(name)
    if tried[key] > 0:
        tried[key] -= 1
    elif name.strip():
        left.append(name.strip())
print(f"{len(left)} mutants not tried yet", file=sys.stderr)
if left:
    print("^(" + "|".join(re.escape(name) for name in left) + ")$")
