#!/usr/bin/env python3
"""Re-verify every perft count in an EPD file against Stockfish.

Line format: `<fen> ;D1 <n> ;D2 <n> ...`; blank lines and `#` comments are skipped.
Exits 1 if any count disagrees with Stockfish's `go perft`.

usage: verify_with_stockfish.py FILE.epd [--max-nodes N] [--stockfish PATH]
"""
import argparse
import shutil
import subprocess
import sys
import time


class Stockfish:
    def __init__(self, path):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True, bufsize=1)
        self.send("uci")
        self.wait_for("uciok")

    def send(self, cmd):
        self.p.stdin.write(cmd + "\n")

    def wait_for(self, prefix):
        for line in self.p.stdout:
            if line.startswith(prefix):
                return line
        sys.exit("stockfish exited unexpectedly")

    def perft(self, fen, depth):
        self.send(f"position fen {fen}")
        self.send(f"go perft {depth}")
        return int(self.wait_for("Nodes searched:").split(":")[1])

    def close(self):
        self.send("quit")
        self.p.wait()


def parse(line):
    fen, *fields = [f.strip() for f in line.split(";")]
    counts = {}
    for f in fields:
        key, value = f.split()
        counts[int(key[1:])] = int(value)
    return fen, counts


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("epd")
    ap.add_argument("--max-nodes", type=int, default=None, help="skip counts above N")
    ap.add_argument("--stockfish", default=shutil.which("stockfish") or "/usr/games/stockfish")
    args = ap.parse_args()

    sf = Stockfish(args.stockfish)
    failures = checked = skipped = nodes = 0
    start = time.time()
    with open(args.epd) as f:
        for lineno, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            fen, counts = parse(line)
            status = []
            for depth, expected in sorted(counts.items()):
                if args.max_nodes is not None and expected > args.max_nodes:
                    skipped += 1
                    continue
                got = sf.perft(fen, depth)
                checked += 1
                nodes += got
                if got != expected:
                    failures += 1
                    status.append(f"D{depth} expected {expected} got {got}")
            print(f"{'FAIL' if status else 'ok  '} line {lineno}: {fen}"
                  + ("  [" + "; ".join(status) + "]" if status else ""), flush=True)
    sf.close()
    print(f"{checked} counts checked, {skipped} skipped, {failures} mismatches, "
          f"{nodes} nodes in {time.time() - start:.1f}s")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
