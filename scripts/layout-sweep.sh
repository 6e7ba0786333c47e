#!/usr/bin/env bash
# The evaluation's ablation against code layout. Builds the replayed-search
# ablation (engine/examples/evalreplay.rs) once per padding, each with every
# copy of the evaluation moved along by that many bytes (the layout probe,
# BOARDBENCH_LAYOUT_PAD in engine/build.rs), then times each build over the
# same stream and prints, per mobility set and density bucket, the
# unattributed remainder (whole minus the groups and inputs) of every build
# and their mean. Equal code, moved: what changes is layout alone.
#
# Usage: scripts/layout-sweep.sh [--core C] [PAD...]
#        (default core 1; pads 0 8 16 24 32 40 48 56 bytes)
# About a minute to build and 40 s to time per pad.
set -euo pipefail
cd "$(dirname "$0")/.."
core=1
if [[ "${1:-}" == --core ]]; then
  [[ "${2:-}" =~ ^[0-9]+$ ]] || { echo "error: --core needs a core number" >&2; exit 2; }
  core=$2
  shift 2
fi
pads=("$@")
[[ ${#pads[@]} -eq 0 ]] && pads=(0 8 16 24 32 40 48 56)
for pad in "${pads[@]}"; do
  [[ "$pad" =~ ^[0-9]+$ ]] && ((pad <= 4096)) || { echo "error: pad $pad: not a number of bytes from 0 to 4096" >&2; exit 2; }
done
pin=(taskset -c "$core")
command -v taskset >/dev/null || { echo "warning: no taskset; timing unpinned" >&2; pin=(); }

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# Every build first, so no compiler runs while the builds are timed.
for pad in "${pads[@]}"; do
  echo "building with the evaluation moved by $pad bytes" >&2
  BOARDBENCH_LAYOUT_PAD=$pad cargo build --release --quiet -p engine --example evalreplay \
    --target-dir target/layout-sweep
  cp target/layout-sweep/release/examples/evalreplay "$out/evalreplay-$pad"
done
for pad in "${pads[@]}"; do
  echo "timing the build moved by $pad bytes" >&2
  "${pin[@]}" "$out/evalreplay-$pad" --depth 7 --passes 15 --buckets >"$out/pad-$pad.txt"
done

# One row per mobility set and bucket: the remainder per pad, then the mean.
for pad in "${pads[@]}"; do
  awk -v pad="$pad" '
    /^[a-z-]+ [a-z]+: [0-9]+ positions/ { name = $1 " " $2; sub(":", "", name) }
    $1 == "unattributed" { r = $NF; sub("%", "", r); print name "\t" pad "\t" r }
  ' "$out/pad-$pad.txt"
done | awk -F'\t' '
  { if (!($1 in seen)) { seen[$1] = 1; order[++n] = $1 }
    cell[$1, $2] = $3; sum[$1] += $3; count[$1]++
    if (!($2 in padseen)) { padseen[$2] = 1; pads[++m] = $2 } }
  END {
    printf "%-22s", "unattributed (%)"
    for (j = 1; j <= m; j++) printf " %7s", "pad " pads[j]
    printf " %7s\n", "mean"
    for (i = 1; i <= n; i++) {
      printf "%-22s", order[i]
      for (j = 1; j <= m; j++) printf " %7.1f", cell[order[i], pads[j]]
      printf " %7.1f\n", sum[order[i]] / count[order[i]]
    }
  }'
