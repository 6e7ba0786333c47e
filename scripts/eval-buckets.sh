#!/usr/bin/env bash
# Writes density buckets of real-game positions as EPD files for the
# evaluation cost scripts: DIR/opening.epd (26-32 men), DIR/middlegame.epd
# (13-25), DIR/endgame.epd (2-12), N positions each (default 256), a seeded
# choice from positions/lichess_popular_20k.epd and positions/endgames_20k.epd
# (boardbench picks its own buckets the same way, with its own seed).
#
# Usage: scripts/eval-buckets.sh DIR [N] [SEED]
set -euo pipefail
cd "$(dirname "$0")/.."
[[ $# -ge 1 ]] || { echo "usage: scripts/eval-buckets.sh DIR [N] [SEED]" >&2; exit 2; }
dir=$1
n=${2:-256}
seed=${3:-51712}
[[ $n =~ ^[0-9]+$ && $n -gt 0 ]] || { echo "error: N must be a positive number, not '$n'" >&2; exit 2; }
mkdir -p "$dir"
python3 - "$dir" "$n" "$seed" positions/lichess_popular_20k.epd positions/endgames_20k.epd <<'PY'
import os, random, sys
out, n, seed, files = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4:]
buckets = {"opening": (26, 32), "middlegame": (13, 25), "endgame": (2, 12)}
pool = {b: [] for b in buckets}
seen = set()
for f in files:
    for line in open(f):
        fields = line.split()
        if len(fields) < 4 or fields[0] in seen:
            continue
        seen.add(fields[0])
        men = sum(ch.isalpha() for ch in fields[0])
        # Board, side to move, castling, en passant: the position itself.
        text = " ".join(fields[:4])
        for b, (lo, hi) in buckets.items():
            if lo <= men <= hi:
                pool[b].append(text)
for i, (b, lines) in enumerate(pool.items()):
    if not lines:
        sys.exit(f"error: no positions for the {b} bucket in {', '.join(files)}")
    rng = random.Random(seed + i)
    rng.shuffle(lines)
    path = os.path.join(out, b + ".epd")
    tmp = path + ".tmp"
    with open(tmp, "w") as fh:
        fh.write("\n".join(lines[:n]) + "\n")
    os.replace(tmp, path)
    print(f"{path}: {min(n, len(lines))} positions")
PY
