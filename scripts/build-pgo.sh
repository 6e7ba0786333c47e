#!/usr/bin/env bash
# Profile-guided build of the engine, as Stockfish's `make profile-build`:
# build instrumented, search training positions with all three profiles to
# record where the branches go, merge the counts, and build again using them.
# The training positions are not the bench's (which would flatter the bench):
# 100 tactical middlegames (ecm.epd), 100 real-game openings
# (lichess_popular_20k.epd) and 100 endgames (endgames_20k.epd). The result is
# target/pgo/release/engine; compare it with Crafty through
#   scripts/compare-crafty.sh CRAFTY --engine target/pgo/release/engine
#
# Usage: scripts/build-pgo.sh [TRAINING-DEPTH]   (default 8)
#
# The profile must be merged by rustc's own llvm-profdata (the rustup component
# llvm-tools): a different LLVM version, such as Debian's llvm-profdata 19
# beside rustc's LLVM 22, merges the raw profiles without complaint yet yields
# code slower than a plain build (measured: bitboard 0.956 of plain).
set -euo pipefail
cd "$(dirname "$0")/.."
depth=${1:-8}
case $depth in
'' | *[!0-9]*) echo "error: training depth '$depth' is not a positive whole number" >&2; exit 2 ;;
esac

host=$(rustc -vV | sed -n 's/^host: //p')
rustc_llvm=$(rustc -vV | sed -n 's/^LLVM version: \([0-9]*\).*/\1/p')
profdata=$(rustc --print sysroot)/lib/rustlib/$host/bin/llvm-profdata
if [ ! -x "$profdata" ]; then
    echo "error: $profdata not found; install rustc's own with: rustup component add llvm-tools" >&2
    exit 2
fi
profdata_llvm=$("$profdata" --version | sed -n 's/.*LLVM version \([0-9]*\).*/\1/p')
if [ "$profdata_llvm" != "$rustc_llvm" ]; then
    echo "error: $profdata is LLVM $profdata_llvm but rustc uses LLVM $rustc_llvm" >&2
    exit 2
fi

raw=target/pgo-raw
rm -rf "$raw"
training=target/pgo-training.epd
{
    head -n 100 positions/ecm.epd
    awk 'NR % 200 == 1' positions/lichess_popular_20k.epd
    awk 'NR % 200 == 1' positions/endgames_20k.epd
} >"$training"
# --config adds these flags to the ones .cargo/config.toml gives the target
# (target-cpu), where RUSTFLAGS would replace them.
flags() { echo "target.$host.rustflags=[\"$1\"]"; }

echo "1/3 instrumented build (target/pgo-gen)" >&2
CARGO_TARGET_DIR=target/pgo-gen cargo build --release -p engine --quiet \
    --config "$(flags "-Cprofile-generate=$PWD/$raw")"

echo "2/3 training: $(wc -l <"$training") positions, depth $depth, every profile" >&2
for profile in mailbox bitboard single-probe; do
    target/pgo-gen/release/engine bench --profile "$profile" --depth "$depth" --positions "$training" | tail -1 >&2
done
"$profdata" merge -o target/pgo.profdata "$raw"

echo "3/3 optimised build (target/pgo)" >&2
CARGO_TARGET_DIR=target/pgo cargo build --release -p engine --quiet \
    --config "$(flags "-Cprofile-use=$PWD/target/pgo.profdata")"
echo target/pgo/release/engine
