#!/usr/bin/env python3
"""Time odds in a match that gives both engines one time control: runs the
UCI engine given by its command line and halves the clock each `go`
reports to it (`wtime`, `btime`, `winc`, `binc`), so that it budgets half
the time the referee allows. Everything else passes through as it is.

Usage (docs/strength.md, C77):
    catena match --engine cmd=CATENA name=double \\
        --engine cmd=docs/half_clock.py args=CATENA name=single --tc 20+0.2 ...
"""

import subprocess
import sys

CLOCK_WORDS = ("wtime", "btime", "winc", "binc")


def halved(line):
    words = line.split()
    if not words or words[0] != "go":
        return line
    for index, word in enumerate(words[:-1]):
        if word in CLOCK_WORDS and words[index + 1].lstrip("-").isdigit():
            words[index + 1] = str(int(words[index + 1]) // 2)
    return " ".join(words) + "\n"


def main(argv):
    if not argv:
        sys.exit("usage: half_clock.py ENGINE [ARGUMENTS...]")
    try:
        engine = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=sys.stdout, text=True, bufsize=1)
    except OSError as error:
        sys.exit(f"cannot start {argv[0]}: {error}")
    try:
        for line in sys.stdin:
            engine.stdin.write(halved(line))
            engine.stdin.flush()
        engine.stdin.close()
    except BrokenPipeError:
        pass
    return engine.wait()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
