#!/usr/bin/env python3
"""Keep what cargo-mutants found in a file that is committed.

Usage: mutants_record.py RECORD DIRECTORY...

Reads each cargo-mutants output directory's caught, missed, timeout and
unviable lists (a run still going has written what it has tried so far)
and merges them into RECORD, one `outcome<TAB>name` line a mutant, sorted
by name. A mutant tried again takes its latest outcome: names are compared
without their line and column, which move as the file is edited (a name
that occurs n times, as two equal edits in one function do, replaces the
first n of its earlier lines), and the directories are read in the order
given. Reports under mutants.out/ are not
committed, so a new machine loses them; the record keeps them.
"""
import os
import re
import sys

KINDS = ["caught", "missed", "timeout", "unviable"]


def unplaced(name):
    return re.sub(r"^([^:]+):\d+:\d+:", r"\1:", name)


record, directories = sys.argv[1], sys.argv[2:]
# unplaced name -> [(outcome, name)], one entry per occurrence
outcomes = {}
if os.path.exists(record):
    with open(record) as lines:
        for line in lines:
            if line.strip() and not line.startswith("#"):
                kind, name = line.rstrip("\n").split("\t", 1)
                outcomes.setdefault(unplaced(name), []).append((kind, name))
for directory in directories:
    found = {}
    for kind in KINDS:
        path = os.path.join(directory, "mutants.out", f"{kind}.txt")
        if not os.path.exists(path):
            continue
        with open(path) as lines:
            for name in (line.strip() for line in lines):
                if name:
                    found.setdefault(unplaced(name), []).append((kind, name))
    for key, entries in found.items():
        outcomes[key] = entries + outcomes.get(key, [])[len(entries):]
every = [entry for entries in outcomes.values() for entry in entries]
with open(record, "w") as out:
    out.write("# outcome<TAB>mutant, written by .ci/mutants_record.py\n")
    for kind, name in sorted(every, key=lambda entry: entry[1]):
        out.write(f"{kind}\t{name}\n")
counts = {kind: sum(k == kind for k, _ in every) for kind in KINDS}
print(f"{record}: " + ", ".join(f"{n} {kind}" for kind, n in counts.items()), file=sys.stderr)
