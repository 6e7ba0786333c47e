#!/usr/bin/env bash
# What each migrated routine buys the whole engine. `engine bench` of the
# mailbox and bitboard profiles and of the eight profiles with one routine
# swapped (bitboard-old-R: bitboard with R old; mailbox-new-R: mailbox with
# R new; R = movegen, attacks, defects, mobility), all searching the same
# trees, measured two ways:
#   * instructions per node of the search (callgrind through
#     scripts/bench-instructions.sh; noise-free, needs valgrind);
#   * NPS, every profile once per round, rounds interleaved on one pinned
#     core (boardbench nps), as per-round ratios.
# For each routine it prints what its old form costs the bitboard engine,
# what its new form saves the mailbox engine, and its share of the whole
# mailbox -> bitboard saving.
#
# Usage: scripts/bench-routines.sh [ROUNDS] [CORE] [DEPTH]
#        (defaults: 10 rounds, core 1, instructions at depth 8; timed at the
#        bench's own depth unless DEPTH is given)
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-10}
core=${2:-1}
depth=${3:-}
command -v python3 >/dev/null || { echo "error: python3 is not installed" >&2; exit 2; }
routines=(movegen attacks defects mobility)
profiles=(mailbox bitboard)
for r in "${routines[@]}"; do profiles+=("bitboard-old-$r"); done
for r in "${routines[@]}"; do profiles+=("mailbox-new-$r"); done
cargo build --release --quiet -p engine -p boardbench
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "instructions (callgrind, depth ${depth:-8}) ..." >&2
scripts/bench-instructions.sh "${depth:-8}" "${profiles[@]}" | tee "$tmp/instructions.txt" >&2

echo "timed ($rounds rounds on core $core) ..." >&2
args=(nps --runs "$rounds" --core "$core" --no-plots --json --out "$tmp")
[[ -n "$depth" ]] && args+=(--depth "$depth")
for p in "${profiles[@]}"; do args+=(--engine-profile "$p"); done
target/release/boardbench "${args[@]}" >"$tmp/nps.json"

python3 - "$tmp/instructions.txt" "$tmp/nps.json" "${routines[@]}" <<'PY'
import json, statistics, sys

instructions_file, nps_file, *routines = sys.argv[1:]
per_node = {}
for line in open(instructions_file):
    f = line.split()
    # "<profile> depth D <nodes> nodes <instructions> instructions ..."
    per_node[f[0]] = int(f[5]) / int(f[3])

report = json.load(open(nps_file))
nps = {e["label"].removeprefix("ours "): {r["round"]: r["nps"] for r in e["runs"]} for e in report["engines"]}
rounds = sorted(nps["mailbox"])


def ratio(a, b):
    """Median and quartiles of the per-round ratios NPS(a) / NPS(b)."""
    v = sorted(nps[a][i] / nps[b][i] for i in rounds)
    q = statistics.quantiles(v, n=4) if len(v) > 1 else v * 3
    return f"{statistics.median(v):.3f} ({q[0]:.3f}-{q[2]:.3f})"


mailbox, bitboard = per_node["mailbox"], per_node["bitboard"]
saving = mailbox - bitboard
print(f"instructions per node: mailbox {mailbox:,.1f}, bitboard {bitboard:,.1f} (saving {saving:,.1f}); "
      f"timed bitboard / mailbox {ratio('bitboard', 'mailbox')} over {len(rounds)} rounds")
print()
print(f"{'routine':<9} {'bitboard-old-R':>14} {'R old costs':>12} {'share':>6} {'mailbox-new-R':>14} "
      f"{'R new saves':>12} {'share':>6}   {'bitboard / bitboard-old-R':>26} {'mailbox-new-R / mailbox':>24}")
last_sum = first_sum = 0.0
for r in routines:
    old, new = per_node[f"bitboard-old-{r}"], per_node[f"mailbox-new-{r}"]
    last, first = old - bitboard, mailbox - new
    last_sum, first_sum = last_sum + last, first_sum + first
    print(f"{r:<9} {old:>14,.1f} {last:>+12,.1f} {last / saving:>6.1%} {new:>14,.1f} {-first:>+12,.1f} "
          f"{first / saving:>6.1%}   {ratio('bitboard', f'bitboard-old-{r}'):>26} "
          f"{ratio(f'mailbox-new-{r}', 'mailbox'):>24}")
print(f"{'sum':<9} {'':>14} {last_sum:>+12,.1f} {last_sum / saving:>6.1%} {'':>14} {-first_sum:>+12,.1f} "
      f"{first_sum / saving:>6.1%}")
print()
print("instructions per node; 'R old costs': bitboard-old-R less bitboard; 'R new saves': mailbox-new-R less "
      "mailbox; share: of the whole mailbox -> bitboard saving. Timed: median of per-round NPS ratios (quartiles).")
PY
