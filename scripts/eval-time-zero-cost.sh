#!/usr/bin/env bash
# Shows that the per-term cycle counters cost nothing when the `eval-time`
# feature is off: builds the evaluation twice — as it is, and with every
# `timed!(self, Phase::X, { ... })` wrapper stripped from the source — and
# compares callgrind instruction counts of the same fixed eval workload
# (engine/examples/evalprof.rs) for each mobility set. Exit 1 if any differ.
#
# Usage: scripts/eval-time-zero-cost.sh [REPS]   (needs valgrind)
set -euo pipefail
cd "$(dirname "$0")/.."
reps=${1:-20}
command -v valgrind >/dev/null || { echo "error: valgrind is not installed" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
git ls-files -z | xargs -0 -I{} cp --parents {} "$work"/ 2>/dev/null || true
cp -r engine positions Cargo.toml .cargo "$work"/ 2>/dev/null || true
python3 - "$work/engine/src/eval/mod.rs" <<'PY'
import re, sys
path = sys.argv[1]
pattern = re.compile(r"timed!\(self, Phase::\w+, ")

def strip_once(src):
    out, i = [], 0
    while True:
        m = pattern.search(src, i)
        if not m:
            out.append(src[i:])
            return "".join(out)
        out.append(src[i:m.start()])
        # Copy the block up to its matching brace, then drop the closing ')'.
        j = m.end()
        assert src[j] == "{", "timed! body must be a block"
        depth, k = 0, j
        while True:
            if src[k] == "{":
                depth += 1
            elif src[k] == "}":
                depth -= 1
                if depth == 0:
                    break
            k += 1
        out.append(src[j:k + 1])
        assert src[k + 1] == ")", "timed! must close right after its block"
        i = k + 2

src = open(path).read()
# A timed region may hold another (an input inside its group's phase): the
# outer pass copies the inner one verbatim, the next pass strips it.
while pattern.search(src):
    src = strip_once(src)
open(path, "w").write(src)
PY

count() {  # dir set -> instructions spent inside the evaluation calls
    (cd "$1" && cargo build -q --profile bench -p engine --example evalprof 2>/dev/null)
    # Collect only inside the per-position eval closure: start-up (reading
    # the EPD file from a differently named directory) is left out.
    valgrind --tool=callgrind --callgrind-out-file=/dev/null --toggle-collect='evalprof::main::{{closure}}*' \
        "$1/target/release/examples/evalprof" "$2" "$reps" 2>&1 | sed -n 's/.*I *refs: *//p' | tr -d ,
}

status=0
for set in mailbox chain single-probe; do
    with=$(count . "$set")
    without=$(count "$work" "$set")
    verdict=identical
    [ "$with" = "$without" ] || { verdict=DIFFERENT; status=1; }
    printf '%-13s eval-time off: %12s instructions; counters stripped: %12s  %s\n' "$set" "$with" "$without" "$verdict"
done
exit $status
