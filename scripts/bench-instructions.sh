#!/usr/bin/env bash
# Instructions executed by the search of `engine bench` (callgrind, counting
# only inside Searcher::go, so table clearing and start-up are left out), per
# profile: a noise-free figure for comparing two versions of the engine on
# this noisy host. The node count is printed beside it: equal node counts
# mean the same trees were searched. Nodes are moves made, as Crafty counts
# them; per searched position leaves out the moves pruned unsearched.
#
# Usage: scripts/bench-instructions.sh [DEPTH] [PROFILE...]
#        (defaults: depth 8; mailbox bitboard single-probe)
set -euo pipefail
cd "$(dirname "$0")/.."
depth=${1:-8}
shift || true
profiles=("$@")
[[ ${#profiles[@]} -eq 0 ]] && profiles=(mailbox bitboard single-probe)
command -v valgrind >/dev/null || { echo "error: valgrind is not installed" >&2; exit 2; }
cargo build --release --quiet -p engine
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for p in "${profiles[@]}"; do
  valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" --toggle-collect='*Searcher*go*' \
    target/release/engine bench --profile "$p" --depth "$depth" >"$tmp/bench.txt" 2>"$tmp/valgrind.txt" ||
    { cat "$tmp/valgrind.txt" >&2; exit 1; }
  nodes=$(tail -1 "$tmp/bench.txt" | awk '{print $1}')
  # Moves pruned unsearched, counted in the nodes (0 for an engine
  # that prints no such line).
  pruned=$(awk '$1 == "pruned" {print $3}' "$tmp/bench.txt")
  pruned=${pruned:-0}
  instr=$(sed -n 's/^summary: //p' "$tmp/cg.out")
  printf '%-21s depth %-3s %10s nodes %15s instructions %8.0f per node %8.0f per searched position (%s pruned)\n' \
    "$p" "$depth" "$nodes" "$instr" "$(awk -v i="$instr" -v n="$nodes" 'BEGIN{print i/n}')" \
    "$(awk -v i="$instr" -v n="$nodes" -v q="$pruned" 'BEGIN{print i/(n-q)}')" "$pruned"
done
