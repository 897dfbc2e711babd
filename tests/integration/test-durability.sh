#!/bin/bash
# SPDX-License-Identifier: MIT
# Every file rtready replaces survives a power cut: the new file is fsync'd
# before the rename, and the directory that holds the name is fsync'd after
# it (without that, the rename itself may be lost and the old file, or none,
# comes back). Checked with strace on `tune --emit-boot DIR` (the boot
# files) and `check --output FILE` (any output file). The tune journal and
# configuration files take the same helper (src/util/fileio.c), tested in
# tests/unit/test-util-fileio.c.
. "$(dirname "$0")/lib.sh"
command -v strace >/dev/null || skip "strace missing"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
strace -o "$T/probe" true 2>/dev/null || skip "strace cannot trace here"
fixture=$SRCDIR/tests/fixtures/rt-good

# durable NAME DIR FILE CMD...: CMD replaces DIR/FILE; its trace shows the
# fsync of the new file, then the rename onto FILE, then an fsync of DIR.
durable() {
	local name=$1 dir=$2 file=$3
	shift 3
	strace -f -y -o "$T/trace" -e trace=fsync,fdatasync,rename,renameat,renameat2 \
		"$@" >/dev/null 2>"$T/err" || { cat "$T/err"; fail "$name: '$*' failed"; }
	awk -v dir="$dir" -v file="$dir/$file" '
		/rename/ && index($0, "\"" file "\"") { renamed = 1; synced = 0; next }
		renamed && /fsync\(/ && index($0, "<" dir ">") { synced = 1 }
		!renamed && /fsync\(/ && index($0, "<") { pre = 1 }
		END { exit !(renamed && synced && pre) }' "$T/trace" ||
		{ sed 's/^/    /' "$T/trace"; fail "$name: $dir/$file is not fsync'd, renamed, then $dir fsync'd"; }
}

durable "tune --emit-boot" "$T/boot" rtready-tune.service \
	"$RTREADY" tune --rt-cpus 1 --root "$fixture" --emit-boot "$T/boot"
durable "tune --emit-boot" "$T/boot" 90-rtready.conf \
	"$RTREADY" tune --rt-cpus 1 --root "$fixture" --emit-boot "$T/boot"
durable "check --output (new file)" "$T" out.json \
	"$RTREADY" check --root "$fixture" --format json --output "$T/out.json"
durable "check --output (replaced)" "$T" out.json \
	"$RTREADY" check --root "$fixture" --format json --output "$T/out.json"
echo "ok: the boot files and an output file are fsync'd, renamed and their directory fsync'd"
