#!/bin/bash
# SPDX-License-Identifier: MIT
# Release tarballs: dist/rtready-VERSION-ARCH.tar.gz for x86_64, aarch64
# and armhf, each holding rtready-VERSION-ARCH/ with
#   bin/rtready                       static (glibc), one file to copy to a board
#   lib/rtready/librtready-check.so   the runtime checker of `run --check`
#   share/man/man1/, man3/            the man pages
#   README                            what is where, and the board workflow
# Nothing is baked in: the binary finds its checker from its own place
# (bin/../lib/rtready/), so the tree works unpacked in any directory.
#
# Why glibc static and not musl: the checker is preloaded into the user's
# programs, which on Debian-, Yocto- and Buildroot-glibc boards are glibc
# programs, so it must be a glibc shared object of the target anyway; the
# binary then comes from the same toolchain, and Debian ships static
# jansson, zlib, libtracefs and libtraceevent for every architecture,
# where musl has no cross toolchain or libraries in Debian. A static binary
# does not use the board's C library at all (rtready needs no NSS, no
# iconv); only libtraceevent's optional plugin loading (dlopen) needs the
# same glibc at run time, and without it events are still parsed.
#
#   usage: tools/dist.sh [-o OUTDIR] [-b BUILD_PREFIX] [ARCH...]
#   ARCH: x86_64 (native), aarch64, armhf (Debian multiarch cross builds;
#   as root the missing cross packages are installed)
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
out=$src/dist
prefix=$src/build-dist
while getopts "o:b:" opt; do
	case $opt in
	o) out=$(realpath -m "$OPTARG") ;;
	b) prefix=$(realpath -m "$OPTARG") ;;
	*) echo "usage: tools/dist.sh [-o OUTDIR] [-b BUILD_PREFIX] [ARCH...]" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
arches=("$@")
[ ${#arches[@]} -gt 0 ] || arches=(x86_64 aarch64 armhf)

# ARCH -> Debian architecture, cross file, compiler
debarch() { case $1 in x86_64) echo amd64 ;; aarch64) echo arm64 ;; armhf) echo armhf ;; esac; }

cross_deps() { # ARCH: make the Debian multiarch cross packages present
	local da pkgs
	da=$(debarch "$1")
	case $1 in
	aarch64) pkgs="gcc-aarch64-linux-gnu libc6-dev-arm64-cross" ;;
	armhf) pkgs="gcc-arm-linux-gnueabihf libc6-dev-armhf-cross" ;;
	*) pkgs="" ;;
	esac
	if [ -n "$pkgs" ] && ! dpkg --print-foreign-architectures | grep -qx "$da"; then
		if [ "$(id -u)" -ne 0 ]; then
			echo "dist: run as root, or: dpkg --add-architecture $da && apt-get update" >&2
			return 1
		fi
		dpkg --add-architecture "$da"
		apt-get update -q >/dev/null
	fi
	[ "$1" = x86_64 ] && da=amd64 && pkgs="libc6-dev"
	# shellcheck disable=SC2086
	sh "$src/tools/install-deps.sh" $pkgs "libjansson-dev:$da" "zlib1g-dev:$da" \
		"libtracefs-dev:$da" "libtraceevent-dev:$da"
}

# The newest glibc symbol version the checker needs: the oldest glibc it loads into.
glibc_of() { # SO
	readelf -V --wide "$1" | grep -o 'GLIBC_[0-9.]*' | sed 's/GLIBC_//' | sort -V | tail -1
}

version=$(sed -n "s/^[[:space:]]*version : '\([^']*\)'.*/\1/p" "$src/meson.build" | head -1)
# Reproducible archives: file times from the last commit, sorted names, no owners.
epoch=$(git -C "$src" log -1 --format=%ct 2>/dev/null || date +%s)
mkdir -p "$out"

for arch in "${arches[@]}"; do
	case $arch in
	x86_64)
		[ "$(uname -m)" = x86_64 ] ||
			{ echo "dist: x86_64 is built natively only" >&2; exit 2; }
		cross=() ;;
	aarch64 | armhf) cross=(--cross-file "$src/tools/cross/$arch.txt") ;;
	*) echo "dist: unknown architecture '$arch' (x86_64, aarch64, armhf)" >&2; exit 2 ;;
	esac
	cross_deps "$arch"
	bdir=$prefix-$arch
	name=rtready-$version-$arch
	stage=$bdir/stage
	# --libdir=lib: the tree's layout is bin/ and lib/rtready/ whatever the
	# distribution's multiarch libdir; the prefix is only the last fallback.
	if [ ! -f "$bdir/build.ninja" ]; then
		mkdir -p "$bdir"
		meson setup "$bdir" "$src" "${cross[@]}" --werror \
			--buildtype=release -Doptimization=2 -Dstrip=true \
			--prefix=/usr/local --libdir=lib \
			-Dstatic_tool=true -Dprefer_static=true -Dtests=false >"$bdir/setup.log" 2>&1 ||
			{ cat "$bdir/setup.log" >&2; exit 1; }
	fi
	meson compile -C "$bdir" >"$bdir/compile.log" 2>&1 ||
		{ tail -n 40 "$bdir/compile.log" >&2; echo "dist: the $arch build failed" >&2; exit 1; }
	rm -rf "$stage"
	DESTDIR=$stage meson install -C "$bdir" --quiet >/dev/null
	root=$stage/usr/local
	tree=$bdir/$name
	rm -rf "$tree"
	mkdir -p "$tree/bin" "$tree/lib/rtready" "$tree/share"
	cp "$root/bin/rtready" "$tree/bin/"
	cp "$root/lib/rtready/librtready-check.so" "$tree/lib/rtready/"
	cp -r "$root/share/man" "$tree/share/"
	# The binary must be static, the checker a shared object of the target.
	! readelf -lW "$tree/bin/rtready" | grep -q "INTERP\|Requesting program interpreter" ||
		{ echo "dist: $tree/bin/rtready is not static" >&2; exit 1; }
	readelf -d "$tree/lib/rtready/librtready-check.so" | grep -q "libc.so.6" ||
		{ echo "dist: the checker does not link glibc" >&2; exit 1; }
	sed -e "s/@VERSION@/$version/g" -e "s/@ARCH@/$arch/g" \
		-e "s/@GLIBC@/$(glibc_of "$tree/lib/rtready/librtready-check.so")/g" \
		"$src/tools/dist-README.in" >"$tree/README"
	cp "$src/LICENSE" "$tree/LICENSE"
	find "$tree" -exec touch -h -d "@$epoch" {} +
	tar -C "$bdir" --sort=name --owner=0 --group=0 --numeric-owner \
		--mtime="@$epoch" -cf - "$name" | gzip -n -9 >"$out/$name.tar.gz.tmp"
	mv "$out/$name.tar.gz.tmp" "$out/$name.tar.gz"
	echo "dist: $out/$name.tar.gz ($(du -k "$out/$name.tar.gz" | cut -f1) KiB)"
done
