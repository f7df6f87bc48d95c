#!/usr/bin/env python3
"""A UCI engine wrapped so that every line between the arbiter and the engine
is logged with the time it passed, for comparing arbiters (docs/match.md):
the `go` commands each arbiter sends, clocks included, and how long each
engine thinks (from `go` to `bestmove`).

Usage, as the engine's command in any arbiter:
    python3 docs/uci_log.py LOGFILE ENGINE [ARGS...]

Each line of LOGFILE reads `<seconds since start> <pid> > <line to engine>`
or `... < <line from engine>`; several engines may share one file.
`docs/uci_log.py --summary LOGFILE...` prints, per engine name (from
`id name`), the number of moves, the mean and largest think time, and the
`go` commands' clock values at the first move of each game, and for each
engine process the clock of its own colour at its last `go`: the time it
had left at the end of its game.
"""

import os
import subprocess
import sys
import threading
import time


def relay(source, sink, log, lock, marker, started):
    for line in iter(source.readline, b""):
        sink.write(line)
        sink.flush()
        text = line.decode(errors="replace").rstrip("\n")
        with lock:
            log.write(f"{time.monotonic() - started:.4f} {os.getpid()} {marker} {text}\n")
            log.flush()
    sink.close()


def wrap(logfile, command):
    started = time.monotonic()
    engine = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    lock = threading.Lock()
    with open(logfile, "a", encoding="utf-8") as log:
        to_engine = threading.Thread(
            target=relay,
            args=(sys.stdin.buffer, engine.stdin, log, lock, ">", started),
            daemon=True,
        )
        to_engine.start()
        relay(engine.stdout, sys.stdout.buffer, log, lock, "<", started)
    status = engine.wait()
    # The thread copying stdin may still be blocked in a read: end at once.
    os._exit(status)


def own_clock(position, go):
    """The `go` command's clock for the side to move after `position`."""
    words = position.split()
    moves = len(words) - words.index("moves") - 1 if "moves" in words else 0
    white_first = words[1] != "fen" or words[3] == "w"
    white = white_first == (moves % 2 == 0)
    clock = go.split()
    key = "wtime" if white else "btime"
    return int(clock[clock.index(key) + 1]) if key in clock else None


def summary(logfiles):
    names, pending, thinks, first_go = {}, {}, {}, {}
    positions, last_clock = {}, {}
    for path in logfiles:
        with open(path, encoding="utf-8") as log:
            for entry in log:
                parts = entry.rstrip("\n").split(" ", 3)
                if len(parts) < 4:
                    continue
                stamp, pid, marker, text = float(parts[0]), parts[1], parts[2], parts[3]
                if marker == "<" and text.startswith("id name "):
                    names[pid] = text[len("id name "):]
                elif marker == ">" and text.startswith("position"):
                    positions[pid] = text
                elif marker == ">" and text.startswith("go"):
                    pending[pid] = stamp
                    if pid in positions:
                        last_clock[pid] = own_clock(positions[pid], text)
                    first_go.setdefault(pid, []).append(text)
                elif marker == "<" and text.startswith("bestmove") and pid in pending:
                    thinks.setdefault(pid, []).append(stamp - pending.pop(pid))
    by_name = {}
    for pid, times in thinks.items():
        by_name.setdefault(names.get(pid, pid), []).extend(times)
    for name, times in sorted(by_name.items()):
        mean = sum(times) / len(times)
        print(f"{name}: {len(times)} moves, mean think {mean * 1000:.0f} ms, "
              f"longest {max(times) * 1000:.0f} ms")
    gos = [go for commands in first_go.values() for go in commands[:2]]
    for go in sorted(set(gos))[:10]:
        print(f"  e.g. {go}")
    for pid, clock in sorted(last_clock.items()):
        print(f"{names.get(pid, pid)} (process {pid}): {clock} ms left at its last go")


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == "--summary":
        summary(sys.argv[2:])
        return 0
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    return wrap(sys.argv[1], sys.argv[2:])


if __name__ == "__main__":
    sys.exit(main())
