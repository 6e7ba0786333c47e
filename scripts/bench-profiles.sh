#!/usr/bin/env bash
# Whole-engine NPS of the three engine profiles, measured in one run on one
# pinned core: `engine bench` for mailbox, bitboard and single-probe,
# interleaved round by round in a balanced order (so load drifts hit all
# three alike), through `boardbench nps`. It prints each profile's median
# NPS and CPU time against wall time (well below 1: something else held the
# core), and bitboard/mailbox and single-probe/mailbox as the median of the
# per-round ratios with a bootstrap 95% interval. JSON goes to results/runs/.
#
# Usage: scripts/bench-profiles.sh [ROUNDS] [CORE] [DEPTH]
#        (defaults: 5 rounds, core 1, the bench's default depth)
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-5}
core=${2:-1}
depth=${3:-}
cargo build --release --quiet -p engine -p boardbench
args=(nps --runs "$rounds" --core "$core" --no-plots --out results/runs)
[[ -n "$depth" ]] && args+=(--depth "$depth")
exec target/release/boardbench "${args[@]}"
