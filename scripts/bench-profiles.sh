#!/usr/bin/env bash
# Whole-engine NPS of the three engine profiles, measured in one run on one
# pinned core: `engine bench` for mailbox, bitboard and single-probe,
# interleaved round by round (so load drifts hit all three alike), then the
# median NPS of each and the bitboard/mailbox and single-probe/mailbox ratios
# of the medians. Each bench line also reports CPU time against wall time:
# a ratio well below 1 means something else held the core and the round is
# suspect.
#
# Usage: scripts/bench-profiles.sh [ROUNDS] [CORE] [DEPTH]
#        (defaults: 3 rounds, core 1, the bench's default depth)
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
core=${2:-1}
depth=${3:-}
command -v taskset >/dev/null || { echo "error: taskset is not installed" >&2; exit 2; }
cargo build --release -p engine --quiet
engine=target/release/engine
depth_args=()
[[ -n "$depth" ]] && depth_args=(--depth "$depth")

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
declare -A nps_list
profiles=(mailbox bitboard single-probe)
for round in $(seq 1 "$rounds"); do
  for profile in "${profiles[@]}"; do
    /usr/bin/time -o "$tmp/time" -f "%U %e" taskset -c "$core" "$engine" bench --profile "$profile" \
      "${depth_args[@]}" >"$tmp/out"
    # The bench's last line: "<nodes> nodes <nps> nps".
    read -r nodes _ nps _ < <(tail -1 "$tmp/out")
    read -r user wall <"$tmp/time"
    printf 'round %d  %-12s %10s nodes %9s nps  cpu/wall %.2f\n' "$round" "$profile" "$nodes" "$nps" \
      "$(awk -v u="$user" -v w="$wall" 'BEGIN{print (w>0)?u/w:0}')"
    nps_list[$profile]+="$nps "
  done
done

median() { tr ' ' '\n' | grep -v '^$' | sort -n | awk '{a[NR]=$1} END{print (NR%2)?a[(NR+1)/2]:int((a[NR/2]+a[NR/2+1])/2)}'; }
m_mail=$(echo "${nps_list[mailbox]}" | median)
m_bb=$(echo "${nps_list[bitboard]}" | median)
m_sp=$(echo "${nps_list[single-probe]}" | median)
echo "median nps     mailbox $m_mail  bitboard $m_bb  single-probe $m_sp"
awk -v a="$m_bb" -v b="$m_sp" -v m="$m_mail" 'BEGIN{printf "ratio          bitboard/mailbox %.3f  single-probe/mailbox %.3f\n", a/m, b/m}'
