#!/usr/bin/env bash
# Where the search's instructions go, per migrated routine: `engine bench`
# under callgrind (counting only inside Searcher::go, as
# scripts/bench-instructions.sh does), every executed instruction charged by
# its chain of inlined frames to the routine whose old or new form it runs
# in, or to the code every profile shares. It answers the question a
# migration plan turns on: how much of a profile's cost is in the routines
# being migrated at all, and so how far migrating them can move it.
#
# An instruction belongs to the first of these that any frame of its chain
# lies in (the innermost frame comes first, so a slider lookup inlined into
# move generation is move generation):
#   movegen    engine/src/movegen/{bitboard,mailbox}.rs
#   attacks    check detection and SEE: engine/src/search/attacks.rs,
#              engine/src/attackers/, engine/src/see/{bitboard,lists}.rs
#   defects    engine/src/defects/{bitboard,mailbox}.rs
#   mobility   the evaluation's mobility and the attack state it builds:
#              engine/src/eval/mobility/, engine/src/eval/attacks.rs, the
#              position's attack words
#   sliders    a slider lookup outside all of the above
#   shared     everything else: search, ordering, make/unmake, TT, the
#              evaluation's other terms. A profile's own path through shared
#              code is shared too (the mailbox profile's make, check, unmake
#              of a move it then prunes, where the bitboard profile asks
#              before making it, lies in engine/src/search/mod.rs).
# Every instruction is charged once; the script checks that the parts add
# up to callgrind's total.
#
# Usage: scripts/instructions-by-routine.sh [DEPTH] [PROFILE...]
#        (defaults: depth 8; bitboard mailbox)
# Needs valgrind, python3 and addr2line (binutils). Builds the engine with
# debug information (same optimisation) into target/prof, so target/release
# is left alone.
set -euo pipefail
cd "$(dirname "$0")/.."
depth=${1:-8}
shift || true
profiles=("$@")
[[ ${#profiles[@]} -eq 0 ]] && profiles=(bitboard mailbox)
[[ "$depth" =~ ^[1-9][0-9]?$ ]] || { echo "error: DEPTH must be a number from 1 to 99, not '$depth'" >&2; exit 2; }
for tool in valgrind python3 addr2line; do
  command -v "$tool" >/dev/null || { echo "error: $tool is not installed" >&2; exit 2; }
done
CARGO_PROFILE_RELEASE_DEBUG=true cargo build --release --quiet -p engine --bin engine --target-dir target/prof
engine=target/prof/release/engine
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for p in "${profiles[@]}"; do
  valgrind --tool=callgrind --dump-instr=yes --callgrind-out-file="$tmp/cg.out" --toggle-collect='*Searcher*go*' \
    "$engine" bench --profile "$p" --depth "$depth" >"$tmp/bench.txt" 2>"$tmp/valgrind.txt" ||
    { cat "$tmp/valgrind.txt" >&2; exit 1; }
  nodes=$(tail -1 "$tmp/bench.txt" | awk '{print $1}')
  pruned=$(awk '$1 == "pruned" {print $3}' "$tmp/bench.txt")
  python3 - "$tmp/cg.out" "$engine" "$p" "$depth" "$nodes" "${pruned:-0}" <<'PY'
import collections, re, subprocess, sys

path, engine, profile, depth, nodes, pruned = sys.argv[1:]
searched = int(nodes) - int(pruned)

# Self cost per instruction address of the engine binary. Callgrind's
# compressed names are "(id) name" the first time, "(id)" after; position
# lines are "address line cost", each field absolute or relative (+n, -n,
# *); the line after "calls=" is a call's inclusive cost, not self cost.
names = {}
def resolve(value):
    m = re.match(r'\((\d+)\)(?: (.*))?$', value)
    if not m:
        return value
    if m.group(2) is not None:
        names[m.group(1)] = m.group(2)
    return names[m.group(1)]
cost = collections.Counter()
obj, last, after_calls, total = None, [0, 0], False, None
for line in open(path):
    line = line.rstrip('\n')
    if line.startswith('summary:'):
        total = int(line.split()[1])
    if not line or line[0] == '#':
        continue
    if line[0].isdigit() or line[0] in '+-*':
        fields = line.split()
        pos = []
        for k in range(2):
            x = fields[k]
            pos.append(last[k] if x == '*' else last[k] + int(x[1:], 0) if x[0] == '+'
                       else last[k] - int(x[1:], 0) if x[0] == '-' else int(x, 0))
        last = pos
        if after_calls:
            after_calls = False
        elif len(fields) > 2:
            cost[(obj, pos[0])] += int(fields[2])
        continue
    key, _, value = line.partition('=')
    if key == 'ob':
        obj = resolve(value)
    elif key == 'cob':
        resolve(value)
    elif key == 'calls':
        after_calls = True
if total is None:
    sys.exit('error: no summary line in the callgrind output')

ours = {a: c for (o, a), c in cost.items() if o and o.endswith('/engine')}
# Inline chains, innermost frame first: addr2line -a prints the address,
# then a function line and a file:line line per frame.
out = subprocess.run(['addr2line', '-a', '-f', '-i', '-C', '-e', engine],
                     input=''.join(f'{a:#x}\n' for a in sorted(ours)),
                     capture_output=True, text=True, check=True).stdout.splitlines()
chains, i = {}, 0
while i < len(out):
    address = int(out[i], 16)
    i += 1
    frames = []
    while i + 1 < len(out) and not out[i].startswith('0x'):
        frames.append((out[i], out[i + 1].rsplit(':', 1)[0]))
        i += 2
    chains[address] = frames

ROUTINES = [
    ('movegen', r'/src/movegen/(bitboard|mailbox)\.rs$', None),
    ('attacks', r'/src/(search/attacks\.rs|attackers/|see/(bitboard|lists)\.rs)', None),
    ('defects', r'/src/defects/(bitboard|mailbox)\.rs$', None),
    ('mobility', r'/src/eval/(mobility/|attacks\.rs$)',
     r'Position::(attack_word|add_attack_bits|clear_attack_words)\b'),
    ('sliders', r'/src/sliders/', None),
]
parts = collections.Counter()
shared_files = collections.Counter()
for address, c in ours.items():
    frames = chains.get(address, [])
    for name, files, functions in ROUTINES:
        if any(re.search(files, f) or (functions and re.search(functions, fn)) for fn, f in frames):
            parts[name] += c
            break
    else:
        parts['shared'] += c
        # The innermost engine file, to say what the shared part is.
        where = next((f.split('/src/', 1)[1] for _, f in frames if '/engine/src/' in f), 'no line information')
        shared_files[where] += c
parts['outside the engine binary'] = total - sum(ours.values())
assert sum(parts.values()) == total, 'the parts do not add up to the total'

print(f'{profile}: depth {depth}, {nodes} nodes, {searched} positions searched, '
      f'{total:,} instructions ({total / searched:,.0f} per searched position)')
order = ['movegen', 'attacks', 'defects', 'mobility', 'sliders', 'shared', 'outside the engine binary']
for name in order:
    print(f'  {name:<26} {parts[name]:>15,} {100 * parts[name] / total:6.2f}% {parts[name] / searched:9.1f} per searched position')
routines = sum(parts[n] for n in order[:5])
print(f'  {"migrated routines":<26} {routines:>15,} {100 * routines / total:6.2f}% {routines / searched:9.1f} per searched position')
print('  shared, by innermost engine file:')
for where, c in shared_files.most_common(10):
    print(f'    {where:<32} {c / searched:9.1f} per searched position')
PY
done
