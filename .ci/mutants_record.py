#!/usr/bin/env python3
"""Keep what cargo-mutants found in a file that is committed.

Usage: mutants_record.py RECORD [--listing FILE] DIRECTORY...

Reads each cargo-mutants output directory's caught, missed, timeout and
unviable lists (a run still going has written what it has tried so far)
and merges them into RECORD, one `outcome<TAB>name` line a mutant, sorted
by name; a mutant tried again takes the outcome of the last directory
given. With `--listing`, the output of `cargo mutants --list` for the tree
as it stands, mutants no longer in it (edited away, or moved to another
line or column) are dropped, so that the record describes one tree.
Reports under mutants.out/ are not committed, so a new machine loses them;
the record keeps them.
"""
import os
import sys

KINDS = ["caught", "missed", "timeout", "unviable"]


def read_report(directory, kinds=KINDS):
    """The (outcome, mutant) pairs a cargo-mutants output directory lists."""
    found = []
    for kind in kinds:
        path = os.path.join(directory, "mutants.out", f"{kind}.txt")
        if os.path.exists(path):
            with open(path) as lines:
                found += [(kind, line.strip()) for line in lines if line.strip()]
    return found


def read_record(path):
    """A record's outcome by mutant."""
    with open(path) as lines:
        return {
            name: kind
            for kind, name in (line.rstrip("\n").split("\t", 1) for line in lines if line.strip() and not line.startswith("#"))
        }


def main(args):
    record = args.pop(0)
    listing = None
    if args[:1] == ["--listing"]:
        with open(args[1]) as lines:
            listing = {line.strip() for line in lines if line.strip()}
        args = args[2:]
    outcomes = read_record(record) if os.path.exists(record) else {}
    for directory in args:
        outcomes.update((name, kind) for kind, name in read_report(directory))
    if listing is not None:
        outcomes = {name: kind for name, kind in outcomes.items() if name in listing}
    with open(record, "w") as out:
        out.write("# outcome<TAB>mutant, written by .ci/mutants_record.py\n")
        for name in sorted(outcomes):
            out.write(f"{outcomes[name]}\t{name}\n")
    counts = {kind: sum(k == kind for k in outcomes.values()) for kind in KINDS}
    print(f"{record}: " + ", ".join(f"{n} {kind}" for kind, n in counts.items()), file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1:])
