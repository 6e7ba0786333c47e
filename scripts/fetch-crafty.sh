#!/usr/bin/env bash
# Fetch a real Crafty without root: Debian's non-free package crafty 23.4-7
# (amd64), downloaded straight from the Debian pool, checked against its
# SHA-256, and unpacked under target/crafty/. Prints the binary's path, so
#
#   scripts/compare-crafty.sh "$(scripts/fetch-crafty.sh)"
#
# runs the NPS comparison against it. Crafty 23.4 is older than the 25.2 the
# seeds quote; its `bench` prints the same "Total nodes" / "Raw nodes per
# second" block (one thread only), which `boardbench nps --crafty` reads.
# Needs curl and either dpkg-deb or ar + tar (with xz).
set -euo pipefail
cd "$(dirname "$0")/.."
url=http://deb.debian.org/debian/pool/non-free/c/crafty/crafty_23.4-7_amd64.deb
sha256=bcc504cfcf10e570f5a2dd16eac214e3cf02534da7cc828c093dc1d4d0e74ad4
dir=target/crafty
bin=$dir/usr/games/crafty
if [ -x "$bin" ]; then
    echo "$PWD/$bin"
    exit 0
fi
command -v curl >/dev/null || { echo "error: curl is not installed" >&2; exit 1; }
mkdir -p "$dir"
deb=$(mktemp "$dir/crafty.XXXXXX.deb")
trap 'rm -f "$deb"' EXIT
curl -sSfL -o "$deb" "$url" || { echo "error: could not download $url" >&2; exit 1; }
got=$(sha256sum "$deb" | cut -d' ' -f1)
if [ "$got" != "$sha256" ]; then
    echo "error: $url has SHA-256 $got, expected $sha256" >&2
    exit 1
fi
if command -v dpkg-deb >/dev/null; then
    dpkg-deb -x "$deb" "$dir"
else
    command -v ar >/dev/null || { echo "error: need dpkg-deb or ar to unpack the .deb" >&2; exit 1; }
    (cd "$dir" && ar p "$deb" data.tar.xz | tar -xJf -)
fi
[ -x "$bin" ] || { echo "error: the package did not contain $bin" >&2; exit 1; }
echo "$PWD/$bin"
