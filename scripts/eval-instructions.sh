#!/usr/bin/env bash
# Instructions per evaluation term group, deterministic: for each mobility
# implementation and density bucket, callgrind counts the instructions of
# the full evaluation and of every ablation variant (the evaluation with one
# group left out; engine/src/eval/ablation.rs), collecting only inside
# `evaluate_passes` (after an untimed warm-up pass that fills the pawn hash).
# A group's own work costs full - without_G; the state it builds for later
# groups costs without_G - without_G_state; what no variant removes (the
# material and pawn entries, clearing the attack words, glue) is the
# inputs alone (every group left out) cost what the `inputs_only` variant
# counts; the unattributed remainder is full - the groups - the inputs.
#
# Usage: scripts/eval-instructions.sh [--json FILE] [--buckets DIR] [--reps N] [MOBILITY...]
#   --buckets DIR  EPD files DIR/NAME.epd, one bucket each (default: made by
#                  scripts/eval-buckets.sh, 256 real positions per bucket)
#   --reps N       evaluations of every position per run (default 1: the
#                  counts are deterministic)
#   --json FILE    also write the table as JSON (atomically)
#   MOBILITY       mailbox, chain, single-probe (default: all three)
# Needs valgrind. About 150 callgrind runs: minutes.
set -euo pipefail
cd "$(dirname "$0")/.."
json="" buckets="" reps=1 mobilities=()
while [[ $# -gt 0 ]]; do
  case $1 in
    --json) json=${2:?--json needs a file}; shift 2 ;;
    --buckets) buckets=${2:?--buckets needs a directory}; shift 2 ;;
    --reps) reps=${2:?--reps needs a number}; shift 2 ;;
    mailbox|chain|single-probe) mobilities+=("$1"); shift ;;
    *) echo "error: unknown argument '$1' (see the usage at the top of $0)" >&2; exit 2 ;;
  esac
done
[[ ${#mobilities[@]} -eq 0 ]] && mobilities=(mailbox chain single-probe)
[[ $reps =~ ^[0-9]+$ && $reps -gt 0 ]] || { echo "error: --reps must be a positive number, not '$reps'" >&2; exit 2; }
command -v valgrind >/dev/null || { echo "error: valgrind is not installed" >&2; exit 2; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [[ -z $buckets ]]; then
  buckets=$tmp/buckets
  scripts/eval-buckets.sh "$buckets" >/dev/null
fi
shopt -s nullglob
files=("$buckets"/*.epd)
[[ ${#files[@]} -gt 0 ]] || { echo "error: no .epd files in $buckets" >&2; exit 2; }

cargo build --release --quiet -p engine --example ablation
bin=target/release/examples/ablation
read -r -a variants <<<"$("$bin" list --json | python3 -c 'import json,sys; print(" ".join(v["name"] for v in json.load(sys.stdin)["variants"]))')"

counts=$tmp/counts.tsv
for m in "${mobilities[@]}"; do
  for f in "${files[@]}"; do
    bucket=$(basename "$f" .epd)
    for v in "${variants[@]}"; do
      valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" --toggle-collect='*evaluate_passes*' \
        "$bin" run "$f" --mobility "$m" --variant "$v" --reps "$reps" --json >"$tmp/run.json" 2>"$tmp/valgrind.txt" ||
        { cat "$tmp/valgrind.txt" >&2; exit 1; }
      instr=$(sed -n 's/^summary: //p' "$tmp/cg.out")
      evals=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["evals"])' "$tmp/run.json")
      printf '%s\t%s\t%s\t%s\t%s\n' "$m" "$bucket" "$v" "$instr" "$evals" >>"$counts"
    done
    echo "  $m $bucket: ${#variants[@]} variants counted" >&2
  done
done

"$bin" list --json >"$tmp/variants.json"
python3 - "$counts" "$tmp/variants.json" "$reps" "$json" <<'PY'
import json, os, sys
counts, variants_file, reps, out = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
variants = json.load(open(variants_file))["variants"]
per = {}
for line in open(counts):
    m, b, v, instr, evals = line.split("\t")
    per.setdefault((m, b), {})[v] = int(instr) / int(evals)
groups = []
for v in variants:
    if v["group"] and v["group"] not in [g[0] for g in groups]:
        groups.append((v["group"], v["label"]))
results = []
for (m, b), c in per.items():
    full = c["full"]
    rows, total = [], 0.0
    for g, label in groups:
        work = full - c[f"without_{g}"] if f"without_{g}" in c else None
        without = c.get(f"without_{g}", full)
        state = without - c[f"without_{g}_state"] if f"without_{g}_state" in c else None
        whole = full - c.get(f"without_{g}_state", without)
        total += whole
        rows.append({"group": g, "label": label, "work": work, "state": state, "instructions": whole})
    inputs = c.get("inputs_only")
    if inputs is not None:
        total += inputs
        rows.append({"group": "inputs", "label": "inputs alone", "work": None, "state": None, "instructions": inputs})
    results.append({"mobility": m, "bucket": b, "full": full, "variants": c, "groups": rows,
                    "sum_of_groups": total, "unattributed": full - total})
fmt = lambda x: "-" if x is None else f"{x:.1f}"
print(f"instructions per evaluation (callgrind, {reps} evaluation(s) of each position per run)")
for r in results:
    print(f"\n{r['mobility']} {r['bucket']}: full evaluation {r['full']:.1f}")
    print(f"  {'group':<28} {'work':>9} {'state':>9} {'whole':>9} {'share':>7}")
    for g in r["groups"]:
        print(f"  {g['label']:<28} {fmt(g['work']):>9} {fmt(g['state']):>9} {g['instructions']:>9.1f} {100*g['instructions']/r['full']:>6.1f}%")
    print(f"  {'sum of rows':<28} {'':>9} {'':>9} {r['sum_of_groups']:>9.1f} {100*r['sum_of_groups']/r['full']:>6.1f}%")
    print(f"  {'unattributed':<28} {'':>9} {'':>9} {r['unattributed']:>9.1f} {100*r['unattributed']/r['full']:>6.1f}%")
    top = sorted((g for g in r["groups"] if g["group"] != "inputs"), key=lambda g: -g["instructions"])[:3]
    print("  top three: " + ", ".join(g["group"] for g in top))
if out:
    tmp = out + ".tmp"
    with open(tmp, "w") as fh:
        json.dump({"reps": reps, "results": results}, fh, indent=1)
        fh.write("\n")
    os.replace(tmp, out)
    print(f"\nwrote {out}")
PY
