#!/usr/bin/env python3
"""The mutants of a listing not yet tried in earlier reports, as a regex.

Reads `cargo mutants --list` on standard input; the arguments are
cargo-mutants output directories and records written by
`mutants_record.py` (missing ones are skipped). A mutant counts as tried
when its name, less its line and column (which move as the file is edited),
is in a report's caught, missed, timeout, unviable or previously_caught
list, or in a record, as often as it occurs there: summed over the
reports, whose runs tried different mutants, and the larger of that and the
record's count, since the record already merges earlier reports. Prints an anchored
regex of the untried names for `--re`, or nothing when none is left.
"""
import collections
import os
import re
import sys


def unplaced(name):
    return re.sub(r"^([^:]+):\d+:\d+:", r"\1:", name.strip())


def report_names(directory):
    names = set()
    for kind in ["caught", "missed", "timeout", "unviable", "previously_caught"]:
        try:
            with open(f"{directory}/mutants.out/{kind}.txt") as report:
                names |= {line.strip() for line in report if line.strip()}
        except FileNotFoundError:
            continue
    return names


def record_names(path):
    with open(path) as record:
        return {line.rstrip("\n").split("\t", 1)[1] for line in record if line.strip() and not line.startswith("#")}


in_reports = collections.Counter()
in_records = collections.Counter()
for source in sys.argv[1:]:
    if os.path.isfile(source):
        in_records |= collections.Counter(unplaced(name) for name in record_names(source))
    else:
        in_reports.update(unplaced(name) for name in report_names(source))
tried = in_reports | in_records

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
