#!/bin/bash
# SPDX-License-Identifier: MIT
# The Debian packages (rtready, librtready0, librtready-dev) of this tree,
# built as tools/test-debian.sh builds them: dpkg-buildpackage -us -uc -b,
# nocheck, from a copy of the tree as git sees it (tracked and new files,
# nothing ignored), so the checkout is left alone. The .debs land in OUTDIR;
# the build log is OUTDIR/build.log. Used by the kernel matrix's systemd
# scenario, which installs the rtready package in a booted Debian.
#   usage: tools/build-deb.sh OUTDIR
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
[ $# -eq 1 ] || { echo "usage: tools/build-deb.sh OUTDIR" >&2; exit 2; }
out=$(realpath -m "$1")
command -v dpkg-buildpackage >/dev/null ||
	{ echo "build-deb: no dpkg-buildpackage (apt-get install dpkg-dev debhelper)" >&2; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/rtr-build-deb.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$out" "$work/src"
if git -C "$src" rev-parse --show-toplevel >/dev/null 2>&1; then
	git -C "$src" ls-files -co --exclude-standard -z
else
	(cd "$src" && find . -mindepth 1 \( -path './build*' -o -path './dist' -o \
		-path './obj-*' \) -prune -o \! -type d -print0)
fi | (cd "$src" && tar --null --no-recursion -T - -cf -) | tar -C "$work/src" -xf -
if ! (cd "$work/src" && DEB_BUILD_OPTIONS="nocheck ${DEB_BUILD_OPTIONS:-}" \
	dpkg-buildpackage -us -uc -b) >"$out/build.log" 2>&1; then
	tail -20 "$out/build.log" >&2
	echo "build-deb: dpkg-buildpackage failed (see $out/build.log)" >&2
	exit 1
fi
rm -f "$out"/*.deb
mv "$work"/*.deb "$out"/
ls "$out"/*.deb
