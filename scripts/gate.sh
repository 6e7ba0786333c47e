#!/usr/bin/env bash
# The commit gate: builds the base revision (default HEAD) in a cached git
# worktree and the working tree, times every per-call benchmark of both
# builds interleaved by process on one pinned core with an A/A control, and
# counts their instructions with gungraun; fails when a routine got slower.
#
# Usage: scripts/gate.sh [boardbench gate flags...]
#   scripts/gate.sh                                  # working tree vs HEAD
#   scripts/gate.sh --base main                      # working tree vs main
#   scripts/gate.sh --base main --candidate HEAD     # two commits
#   scripts/gate.sh --features inject-hook \
#       --candidate-env BOARDBENCH_INJECT_ATTACKER_DELAY=3   # proof: must fail (timing)
#   scripts/gate.sh --no-timing --candidate-features inject-instructions-attackers  # must fail
#   scripts/gate.sh --no-callgrind                   # timing only (no valgrind needed)
# Exit status: 0 pass, 3 regression, 4 too noisy to judge, 1 error, 2 usage.
# Builds are cached in target/gate/; see benches/docs/gate.md.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
cargo build --release -p boardbench --bin boardbench --quiet || exit 1
exec target/release/boardbench gate "$@"
