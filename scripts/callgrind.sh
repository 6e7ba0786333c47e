#!/usr/bin/env bash
# Callgrind (gungraun) counts of old vs new per call, every case (benchmark x
# bucket x arm) of every registered benchmark: instructions, conditional and
# indirect branches, and their mispredictions under valgrind's branch
# simulation. Installs gungraun-runner at the library's version when missing.
# Usage: scripts/callgrind.sh [extra gungraun args, e.g. --save-baseline=NAME]
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-gungraun.sh >&2
out=$(mktemp)
trap 'rm -f "$out"' EXIT
BOARDBENCH_REQUIRE_CALLGRIND=1 GUNGRAUN_COLOR=never cargo bench -p boardbench --bench callgrind -- "$@" | tee "$out" >&2
calls=$(sed -n 's/^const CALLS: usize = \([0-9]*\);/\1/p' benches/benches/callgrind.rs)
# The case list the target used (gungraun numbers its cases case_0, case_1, ...).
cases=target/boardbench-callgrind/cases.tsv
python3 - "$out" "$calls" "$cases" <<'PY'
import re, sys
text, calls = open(sys.argv[1]).read(), int(sys.argv[2])
cases = [l.split("\t") for l in open(sys.argv[3]).read().splitlines() if l.strip()]
rows, cur = [], None
for line in text.splitlines():
    m = re.match(r"^callgrind::\w+::\w+ case_(\d+)(:|\s*$)", line)
    if m:
        bench, bucket, arm = cases[int(m.group(1))]
        cur = {"bench": f"{bench} {arm}", "bucket": bucket}
        rows.append(cur)
        continue
    m = re.match(r"^\s+(Instructions|Bc|Bcm|Bi|Bim):\s+([0-9]+)", line)
    if m and cur is not None:
        cur[m.group(1)] = int(m.group(2)) / calls
print(f"per call (mean over {calls} positions per bucket)")
print(f"{'benchmark arm':<42} {'bucket':<11} {'instr':>9} {'cond br':>8} {'cond miss':>9} {'ind br':>7} {'ind miss':>8} {'miss/call':>9}")
for r in rows:
    miss = r.get("Bcm", 0) + r.get("Bim", 0)
    print(f"{r['bench']:<42} {r['bucket']:<11} {r.get('Instructions',0):>9.1f} {r.get('Bc',0):>8.1f} {r.get('Bcm',0):>9.2f} {r.get('Bi',0):>7.2f} {r.get('Bim',0):>8.2f} {miss:>9.2f}")
PY
