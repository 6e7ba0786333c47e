#!/usr/bin/env bash
# Install gungraun-runner at exactly the version of the `gungraun` library that
# benches/Cargo.toml pins (the runner refuses to work with another version),
# and check that valgrind is present (Debian: `apt-get install valgrind`).
# Usage: scripts/install-gungraun.sh
set -euo pipefail
cd "$(dirname "$0")/.."
version=$(sed -n 's/^gungraun = { version = "=\([0-9.]*\)".*/\1/p' benches/Cargo.toml)
if [ -z "$version" ]; then
    echo "install-gungraun: cannot find the pinned gungraun version in benches/Cargo.toml" >&2
    exit 1
fi
have=$(gungraun-runner --version 2>/dev/null | awk '{print $2}' || true)
if [ "$have" = "$version" ]; then
    echo "gungraun-runner $version is already installed: $(command -v gungraun-runner)"
else
    echo "installing gungraun-runner $version (found: ${have:-none})"
    cargo install gungraun-runner --version "=$version" --locked
fi
if ! command -v valgrind >/dev/null; then
    echo "install-gungraun: valgrind is missing; install it (Debian: apt-get install valgrind)" >&2
    exit 1
fi
echo "valgrind: $(valgrind --version)"
