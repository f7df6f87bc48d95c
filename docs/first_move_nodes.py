#!/usr/bin/env python3
"""What a clock buys a first move: an engine's nodes and time on the first
move of each of the first N openings of an EPD file, in SSCC, told the clock
of a game at 10+0.1 that has just begun (docs/strength.md, C89).

    python3 docs/first_move_nodes.py ENGINE OPENINGS.epd N
"""
import subprocess, sys, statistics
engine, epd, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
fens = [l.split(';')[0].strip() for l in open(epd) if l.strip()][:n]
p = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
def send(c): p.stdin.write(c + "\n")
def until(prefix):
    last = None
    for line in p.stdout:
        if line.startswith("info") and " nodes " in line: last = line
        if line.startswith(prefix): return last
send("uci"); until("uciok")
send("setoption name UCI_Variant value sscc"); send("setoption name Hash value 64")
nodes, times = [], []
for fen in fens:
    parts = fen.split()
    fen6 = " ".join(parts[:4] + ["0", "1"]) if len(parts) == 4 else fen
    send("ucinewgame"); send("position fen " + fen6); send("isready"); until("readyok")
    send("go wtime 10000 btime 10000 winc 100 binc 100")
    info = until("bestmove").split()
    nodes.append(int(info[info.index("nodes") + 1])); times.append(int(info[info.index("time") + 1]))
send("quit")
print("first moves", len(nodes), "median nodes", statistics.median(nodes), "median ms", statistics.median(times),
      "min/max nodes", min(nodes), max(nodes))
