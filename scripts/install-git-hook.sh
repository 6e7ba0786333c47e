#!/usr/bin/env bash
# Install the boardbench commit gate (scripts/gate.sh) as a git hook of the
# repository this script is in.
#
# Usage: scripts/install-git-hook.sh [pre-push|pre-commit] [--force]
#   pre-push (default): before a push, every pushed commit is gated against
#     what the remote has (the remote's old commit, or for a new branch its
#     merge base with the upstream or main): --base OLD --candidate NEW.
#   pre-commit: before a commit, the working tree is gated against HEAD.
#   --force: replace an existing hook that is not ours (kept as HOOK.bak).
#
# Skip the gate once:   BOARDBENCH_SKIP_GATE=1 git push    (or git push --no-verify)
#                       BOARDBENCH_SKIP_GATE=1 git commit  (or git commit --no-verify)
# Extra gate flags:     BOARDBENCH_GATE_ARGS="--no-callgrind" git push
# Uninstall:            rm "$(git rev-parse --git-path hooks)/pre-push"
# The hooks directory is shared by every worktree of the repository.
set -euo pipefail
kind=pre-push
force=0
for a in "$@"; do
    case $a in
    pre-push | pre-commit) kind=$a ;;
    --force) force=1 ;;
    *)
        echo "usage: scripts/install-git-hook.sh [pre-push|pre-commit] [--force]" >&2
        exit 2
        ;;
    esac
done
cd "$(dirname "$0")/.."
hooks=$(git rev-parse --git-path hooks)
mkdir -p "$hooks"
hook=$hooks/$kind
marker="installed by scripts/install-git-hook.sh (boardbench commit gate)"
if [ -e "$hook" ] && ! grep -q "$marker" "$hook"; then
    if [ "$force" = 1 ]; then
        mv "$hook" "$hook.bak"
        echo "install-git-hook: existing $kind hook kept as $hook.bak"
    else
        echo "install-git-hook: $hook exists and is not ours; rerun with --force to replace it (kept as .bak)" >&2
        exit 1
    fi
fi
tmp=$(mktemp "$hooks/.$kind.XXXXXX")
{
    echo "#!/bin/sh"
    echo "# $marker"
    echo "# Skip once: BOARDBENCH_SKIP_GATE=1 git ${kind#pre-} (or --no-verify)."
    cat <<'BODY'
if [ "${BOARDBENCH_SKIP_GATE:-0}" != 0 ]; then
    echo "boardbench gate: skipped (BOARDBENCH_SKIP_GATE is set)" >&2
    exit 0
fi
root=$(git rev-parse --show-toplevel) || exit 1
gate() {
    # shellcheck disable=SC2086  # BOARDBENCH_GATE_ARGS is split on purpose
    "$root/scripts/gate.sh" "$@" ${BOARDBENCH_GATE_ARGS:-}
    status=$?
    case $status in
    0) return 0 ;;
    3) echo "boardbench gate: a routine got slower (see above); fix it, or skip once with BOARDBENCH_SKIP_GATE=1" >&2 ;;
    4) echo "boardbench gate: too noisy to judge; rerun when the machine is quieter, or skip once with BOARDBENCH_SKIP_GATE=1" >&2 ;;
    *) echo "boardbench gate: could not run or could not judge a case (status $status; see above); skip once with BOARDBENCH_SKIP_GATE=1" >&2 ;;
    esac
    exit "$status"
}
BODY
    if [ "$kind" = pre-commit ]; then
        echo 'gate --base HEAD'
    else
        cat <<'BODY'
zero=0000000000000000000000000000000000000000
while read -r local_ref local_sha remote_ref remote_sha; do
    [ "$local_sha" = "$zero" ] && continue # a deletion: nothing to gate
    if [ "$remote_sha" != "$zero" ] && git cat-file -e "$remote_sha^{commit}" 2>/dev/null; then
        base=$remote_sha
    else
        up=$(git rev-parse --verify -q '@{upstream}' || git rev-parse --verify -q main || true)
        base=${up:+$(git merge-base "$local_sha" "$up" || true)}
    fi
    if [ -z "$base" ] || [ "$base" = "$local_sha" ]; then
        echo "boardbench gate: nothing to compare $local_ref with; not gated" >&2
        continue
    fi
    echo "boardbench gate: $local_ref ($local_sha) against $base" >&2
    gate --base "$base" --candidate "$local_sha" </dev/null
done
exit 0
BODY
    fi
} >"$tmp"
chmod +x "$tmp"
mv "$tmp" "$hook"
echo "installed the boardbench gate as $hook"
echo "skip it once with: BOARDBENCH_SKIP_GATE=1 git ${kind#pre-}   (or git ${kind#pre-} --no-verify)"
