#!/usr/bin/env python3
"""For each position of tests/data/switch_wins.epd (a chain, a switch, and a
mate with the other army), the first depth at which the engine, searching
`go depth 10` in sscc mode, reports a mate, and the nodes it had searched then.

    python3 benches/switch_depth.py target/release/catena

Prints a line a position, then the histogram of those depths and the total
nodes to the mates.
"""
import subprocess, sys
engine = sys.argv[1]
rows = [l.split(';')[0].strip() for l in open('tests/data/switch_wins.epd') if l.strip() and not l.startswith('#')]
p = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, stderr=subprocess.DEVNULL)
def send(s): p.stdin.write(s + '\n'); p.stdin.flush()
send('uci'); send('setoption name UCI_Variant value sscc'); send('isready')
while p.stdout.readline().strip() != 'readyok': pass
hist = {}
tot_nodes = 0
for fen in rows:
    send('ucinewgame'); send('position fen ' + fen); send('go depth 10')
    found = None; nodes = 0
    while True:
        l = p.stdout.readline().split()
        if not l: break
        if l[0] == 'bestmove': break
        if 'score' in l and 'depth' in l:
            d = int(l[l.index('depth') + 1]); s = l[l.index('score') + 1:l.index('score') + 3]
            if 'nodes' in l: nodes = int(l[l.index('nodes') + 1])
            if s[0] == 'mate' and int(s[1]) > 0 and found is None: found = (d, nodes)
    hist.setdefault(found[0] if found else None, 0); hist[found[0] if found else None] += 1
    tot_nodes += found[1] if found else 0
    print(found, fen, flush=True)
print('depth histogram', sorted(hist.items(), key=lambda kv: (kv[0] is None, kv[0] or 0)), 'nodes to find', tot_nodes)
send('quit')
