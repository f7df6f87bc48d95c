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

from mutants_record import KINDS, read_record, read_report


def unplaced(name):
    return re.sub(r"^([^:]+):\d+:\d+:", r"\1:", name.strip())


in_reports = collections.Counter()
in_records = collections.Counter()
for source in sys.argv[1:]:
    if os.path.isfile(source):
        in_records |= collections.Counter(unplaced(name) for name in read_record(source))
    else:
        names = {name for _, name in read_report(source, KINDS + ["previously_caught"])}
        in_reports.update(unplaced(name) for name in names)
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
