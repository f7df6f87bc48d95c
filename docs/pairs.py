#!/usr/bin/env python3
"""A match's PGN scored by pairs of games, as `catena match` scores it now
(docs/match.md, "Pairs" and "SPRT"), for matches played before it did.

Usage:
    python3 docs/pairs.py ENGINE [--sprt ELO0 ELO1] [--scores SCORES [--margin CP]] [--same-splits OTHER.pgn[.xz]] GAMES.pgn[.xz]...

The games of rounds 1 and 2 are a pair, 3 and 4 the next, and so on, as
`catena match` plays each opening twice, colours reversed; several files
(parts of one match) add up, and fastchess's PGN reads the same (there
both games of a pair carry their round's number). ENGINE may be several
names joined by commas, for one engine named differently in the files.
A game's winner is the player holding the
winning colour at the end (`WhiteAtEnd`, `BlackAtEnd` in SSCC, else `White`
and `Black`). Prints for ENGINE the pentanomial counts (pairs scoring 0, 1/2,
1, 3/2 and 2 points), the logistic Elo with its 95% interval and the LOS
from the pairs, the games one by one, how the pairs split 1-1 were won (both
games by the player who started as White, or both by the one who started as
Black), and with `--sprt` the log-likelihood ratio of the test over the
pairs.

With `--scores`, the pairs are also counted by how the opening stood: SCORES
is the output of `openings/make_sscc_openings.py CATENA --score EPD` for the
openings file the games were played from (line N: opening N), and the pairs,
file after file, are taken to be its openings in order. An opening is
"decided" where Catena found a mate or scored beyond CP centipawns (1000
unless `--margin` says otherwise), else "open" (with 1000, the test of
openings/sscc-balanced.epd); of each kind's pairs split 1-1, it counts
those won both times by the player starting with the colour the score
favours, and gives each kind's Elo with its 95% interval.

With `--same-splits`, the openings split 1-1 in both these games and
OTHER (another match from the same openings file, from its first opening)
are counted, and how many of them the same starting colour won both times.
"""

import lzma
import math
import re
import sys

Z_95 = 1.959963984540054


def records(path):
    """The games of a PGN file, plain or `.xz`, one text each."""
    opener = lzma.open if path.endswith(".xz") else open
    with opener(path, "rt", encoding="utf-8") as file:
        return re.split(r"\n(?=\[Event )", file.read())


def games(path):
    for record in records(path):
        tags = dict(re.findall(r'^\[(\w+) "([^"]*)"\]', record, re.M))
        if "Round" in tags:
            yield tags


def winner(tags):
    """The player holding the winning colour at the end; None without a winner."""
    colour = {"1-0": "White", "0-1": "Black"}.get(tags.get("Result"))
    return colour and tags.get(colour + "AtEnd", tags.get(colour))


def points(tags, engines):
    if tags.get("Result") == "1/2-1/2":
        return 0.5
    won = winner(tags)
    if won is None:
        return None
    return 1.0 if won in engines else 0.0


def elo(score):
    return -400 * math.log10(1 / score - 1) if 0 < score < 1 else math.nan


def weigh(counts):
    """A pentanomial's mean score a pair, its variance, the half-width in
    Elo of the 95% interval and the LOS."""
    n = sum(counts)
    shares = [i / 4 for i in range(5)]
    score = sum(c * s for c, s in zip(counts, shares)) / n
    variance = sum(c * (s - score) ** 2 for c, s in zip(counts, shares)) / n
    deviation = math.sqrt(variance / n)
    low, high = score - Z_95 * deviation, score + Z_95 * deviation
    # With every pair alike (say all split 1-1) there is no spread to weigh by.
    if deviation > 0:
        los = 0.5 * (1 + math.erf((score - 0.5) / deviation / math.sqrt(2)))
    else:
        los = 0.5 if score == 0.5 else float(score > 0.5)
    return score, variance, (elo(high) - elo(low)) / 2, los


def verdicts(path, margin):
    """Opening number -> ("decided" or "open", whether the score favours the
    side to move), from `make_sscc_openings.py --score`."""
    classes = {}
    with open(path) as file:
        for line in file:
            number, kind, value = line.split()
            decided = kind == "mate" or abs(int(value)) > margin
            classes[int(number)] = ("decided" if decided else "open", int(value) > 0)
    return classes


def rounds(path):
    """Game number -> tags, for the games of one file. `catena match` numbers
    games by round; fastchess gives both games of a pair its round's number,
    so there the second of round N is game 2N and the first 2N - 1."""
    by_round = {}
    for tags in games(path):
        by_round.setdefault(int(tags["Round"]), []).append(tags)
    if all(len(pair) == 1 for pair in by_round.values()):
        return {number: pair[0] for number, pair in by_round.items()}
    return {2 * number - 1 + index: tags
            for number, pair in by_round.items() for index, tags in enumerate(pair)}


def split_colours(files):
    """Opening number -> the colour whose starting player won both games of
    its pair, for the pairs split 1-1 (whoever the engines are); `files`
    are the games of each file by round, openings numbered across them."""
    colours = {}
    opening = 0
    for by_round in files:
        for first in range(1, max(by_round) + 1, 2):
            opening += 1
            pair = [by_round.get(first), by_round.get(first + 1)]
            if None in pair:
                continue
            winners = [winner(tags) for tags in pair]
            if None not in winners and winners[0] != winners[1]:
                colours[opening] = "White" if winners[0] == pair[0].get("White") else "Black"
    return colours


def main(args):
    if not args or args[0].startswith("-"):
        sys.exit(__doc__.split("\n\n")[1].strip())
    engine, args = args[0], args[1:]
    names = set(engine.split(","))
    sprt = scores_path = other = None
    margin = 1000
    while args[:1] in (["--sprt"], ["--scores"], ["--margin"], ["--same-splits"]):
        if args[0] == "--sprt":
            sprt, args = (float(args[1]), float(args[2])), args[3:]
        elif args[0] == "--scores":
            scores_path, args = args[1], args[2:]
        elif args[0] == "--margin":
            margin, args = int(args[1]), args[2:]
        else:
            other, args = args[1], args[2:]
    scores = verdicts(scores_path, margin) if scores_path else None
    # Pairs by how their opening stood: kind -> the five pentanomial counts.
    by_kind = {"decided": [0] * 5, "open": [0] * 5}
    # Opening number -> the colour its score favours (the side to move's, or the other).
    favoured = {}
    opening = 0
    counts = [0] * 5
    wins = draws = losses = 0
    players = set()
    files = [rounds(path) for path in args]
    for tags_by_round in files:
        by_round = {}
        for number, tags in tags_by_round.items():
            players.update((tags.get("White"), tags.get("Black")))
            by_round[number] = points(tags, names)
        for score in by_round.values():
            wins += score == 1.0
            draws += score == 0.5
            losses += score == 0.0
        for first in range(1, max(by_round) + 1, 2):
            pair = [by_round.get(first), by_round.get(first + 1)]
            opening += 1
            if None not in pair:
                counts[int(2 * sum(pair))] += 1
                if scores and opening in scores:
                    kind, mover_favoured = scores[opening]
                    by_kind[kind][int(2 * sum(pair))] += 1
                    white_to_move = tags_by_round[first].get("FEN", " w").split()[1] == "w"
                    favoured[opening] = "White" if white_to_move == mover_favoured else "Black"
    if not players & names:
        sys.exit(f"{engine} plays no game there (players: {', '.join(sorted(p for p in players if p))})")
    n = sum(counts)
    if n == 0:
        sys.exit(f"no whole pair of games with {engine} in {' '.join(args) or 'no file'}")
    score, variance, margin_elo, los = weigh(counts)
    print(f"{engine}: {wins}-{losses}-{draws} in games, {n} pairs, Ptnml(0-2) {counts}")
    print(f"Elo {elo(score):+.1f} ± {margin_elo:.1f}, LOS {100 * los:.1f}%")
    # Pairs split 1-1: won by the player who started as White both times, or as Black.
    here = split_colours(files)
    split = {colour: sum(won == colour for won in here.values()) for colour in ("White", "Black")}
    print(f"pairs split 1-1: {split['White']} won by the player who started as White, "
          f"{split['Black']} by the one who started as Black")
    if scores:
        for kind, kind_counts in by_kind.items():
            split_as_scored = sum(colour == favoured[opening] for opening, colour in here.items()
                                  if opening in favoured and scores[opening][0] == kind)
            line = (f"{kind} openings: {sum(kind_counts)} pairs, Ptnml(0-2) {kind_counts}, "
                    f"{split_as_scored} split 1-1 by the colour the score favours")
            if sum(kind_counts):
                kind_score, _, kind_margin, _ = weigh(kind_counts)
                line += f"; Elo {elo(kind_score):+.1f} ± {kind_margin:.1f}"
            print(line)
    if other:
        there = split_colours([rounds(other)])
        both = [opening for opening in here if opening in there]
        same = sum(here[opening] == there[opening] for opening in both)
        print(f"openings split 1-1 here and in {other}: {len(both)}, "
              f"won by the same starting colour in both: {same}")
    if sprt:
        s0, s1 = (1 / (1 + 10 ** (-e / 400)) for e in sprt)
        llr = n * (s1 - s0) * (2 * score - s0 - s1) / (2 * variance) if variance else 0.0
        print(f"LLR {llr:.2f} for elo0={sprt[0]:g} elo1={sprt[1]:g}")


if __name__ == "__main__":
    main(sys.argv[1:])
