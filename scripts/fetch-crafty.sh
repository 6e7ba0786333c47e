#!/usr/bin/env bash
# Print the path of a real Crafty for the comparisons, so that
#
#   scripts/compare-crafty.sh "$(scripts/fetch-crafty.sh)"
#   target/release/boardbench instructions --crafty "$(scripts/fetch-crafty.sh)"
#
# run against it. In this order:
#   1. a Crafty you built, given as the argument or as $CRAFTY (e.g. Crafty
#      25.2, the version the plans quote, built from the Crafty source);
#   2. one this script unpacked before, under target/crafty/;
#   3. Debian's non-free package `crafty` (23.4), fetched by package name
#      through the system's package client (`apt-get download crafty`, from
#      whatever APT sources this system has configured, which must include
#      the non-free component) and unpacked under target/crafty/, no root
#      needed.
# Where none of them gives a Crafty it says how to get one and exits 1.
# Crafty 23.4 and 25.2 are both driven by boardbench (25.2 refuses `new`,
# so it searches each of our positions in a fresh process).
#
#   APT_GET: the package client to run (default apt-get).
#   FETCH_CRAFTY_DIR: where to unpack (default target/crafty).
# Needs dpkg-deb, or ar and tar (with xz), to unpack the package.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dir=${FETCH_CRAFTY_DIR:-$root/target/crafty}
bin=$dir/usr/games/crafty
how_to_get="build Crafty from its source (Crafty 25.2: 'make unix-gcc' in the unpacked source) and give its path (scripts/fetch-crafty.sh PATH/crafty, or CRAFTY=PATH/crafty), or make Debian's non-free 'crafty' package (Crafty 23.4) reachable by the package client (the non-free component in the APT sources, then 'apt-get update' as root) and run this again"

given=${1:-${CRAFTY:-}}
if [ -n "$given" ]; then
    path=$given
    # A bare name is looked up on $PATH, as a shell would.
    case $path in */*) ;; *) path=$(command -v "$path" || true) ;; esac
    if [ -z "$path" ] || [ ! -f "$path" ] || [ ! -x "$path" ]; then
        echo "error: $given is not an executable file" >&2
        exit 1
    fi
    echo "$(cd "$(dirname "$path")" && pwd)/$(basename "$path")"
    exit 0
fi
if [ -x "$bin" ]; then
    echo "$bin"
    exit 0
fi

apt_get=${APT_GET:-apt-get}
if ! command -v "$apt_get" >/dev/null; then
    echo "error: no Crafty given and no package client ($apt_get) here; $how_to_get" >&2
    exit 1
fi
mkdir -p "$dir"
work=$(mktemp -d "$dir/download.XXXXXX")
trap 'rm -rf "$work"' EXIT
# `download` fetches the package file into the current directory, checked
# by the package client against the sources' signed indexes.
if ! (cd "$work" && "$apt_get" download crafty) >"$work.log" 2>&1; then
    echo "error: '$apt_get download crafty' found no crafty package ($(tail -n 1 "$work.log")); $how_to_get" >&2
    rm -f "$work.log"
    rm -rf "$work"
    rmdir "$dir" 2>/dev/null || true
    exit 1
fi
rm -f "$work.log"
deb=$(find "$work" -maxdepth 1 -name 'crafty_*.deb' | head -n 1)
[ -n "$deb" ] || { echo "error: '$apt_get download crafty' left no crafty_*.deb; $how_to_get" >&2; exit 1; }
if command -v dpkg-deb >/dev/null; then
    dpkg-deb -x "$deb" "$dir"
else
    command -v ar >/dev/null || { echo "error: need dpkg-deb or ar to unpack $(basename "$deb")" >&2; exit 1; }
    (cd "$dir" && ar p "$deb" data.tar.xz | tar -xJf -)
fi
[ -x "$bin" ] || { echo "error: $(basename "$deb") did not contain usr/games/crafty" >&2; exit 1; }
echo "unpacked $(basename "$deb") under $dir" >&2
echo "$bin"
