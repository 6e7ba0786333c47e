#!/usr/bin/env bash
# Whole-engine NPS of our engine's three profiles beside Crafty's own bench
# (and Stockfish's, where /usr/games/stockfish is installed), every run a
# separate process on one pinned core, interleaved round by round. Prints the
# table; JSON and plot go to results/runs/nps-*.
#
# Usage: scripts/compare-crafty.sh PATH-TO-CRAFTY [boardbench nps flags...]
#   e.g. scripts/compare-crafty.sh ~/src/crafty-25.2/crafty --runs 3 --core 1
#   or   scripts/compare-crafty.sh "$(scripts/fetch-crafty.sh)"
#        (a Crafty you built, via $CRAFTY, or Debian's non-free package
#        `crafty` through the system's package client: see that script)
#   BOARDBENCH_NO_STOCKFISH=1 leaves Stockfish out.
# Crafty is driven through stdin ("bench", then "quit") in a fresh temporary
# directory that is also its $HOME (its log files land there and no
# crafty.rc/.craftyrc is read); only its first, one-thread totals block is
# read and the run is stopped before the 2-thread part. A second Crafty run
# per round searches our own bench positions to depth 14 (--crafty-depth D;
# --no-crafty-positions skips it), each from a clean state (Crafty 23: `new`
# before each; Crafty 25, which refuses `new`: a fresh process per
# position): the same positions for both engines, and
# Crafty's per-search summaries give the share of its nodes that are moves it
# made and pruned unsearched (23.4's pruned=, 25.2's fp= and mcp=; both
# engines count a node per move made, and per move pruned; our bench prints its own pruned count), so ours / Crafty is
# also given positions searched against positions searched.
set -euo pipefail
if [ $# -lt 1 ]; then
    echo "usage: scripts/compare-crafty.sh PATH-TO-CRAFTY [boardbench nps flags...]" >&2
    exit 2
fi
crafty=$1
shift
# A path relative to the caller's directory must survive the cd below.
case $crafty in
*/*) [ "${crafty#/}" != "$crafty" ] || crafty=$PWD/$crafty ;;
esac
cd "$(dirname "$0")/.."
cargo build --release -p engine -p boardbench --quiet
stockfish=()
if [ -x /usr/games/stockfish ] && [ "${BOARDBENCH_NO_STOCKFISH:-0}" = 0 ]; then
    stockfish=(--stockfish /usr/games/stockfish)
fi
exec target/release/boardbench nps --crafty "$crafty" "${stockfish[@]}" "$@"
