#!/bin/bash
# SPDX-License-Identifier: MIT
# Every file rtready replaces survives a power cut: the new file is fsync'd
# before the rename, and the directory that holds the name is fsync'd after
# it (without that, the rename itself may be lost and the old file, or none,
# comes back). Checked with strace on `tune --emit-boot DIR` (the boot
# files), `check --output FILE` (any output file) and, as root in a private
# mount namespace with a tmpfs over /etc/default, `tune --apply` of
# irqbalance's file (a configuration file tune edits) and its journal. All
# take one helper, src/util/fileio.c (tests/unit/test-util-fileio.c).
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
	durable_trace "$name" "$dir" "$file"
}

# durable_trace NAME DIR FILE: the check of durable() on the trace in $T/trace.
durable_trace() {
	local name=$1 dir=$2 file=$3
	# The rename names the file by its path, or by its name in the directory's descriptor.
	awk -v dir="$dir" -v file="$file" '
		/rename/ && (index($0, "\"" dir "/" file "\"") ||
			     (index($0, "<" dir ">") && index($0, "\"" file "\""))) {
			renamed = 1; synced = 0; next }
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

# tune's own files, where a private mount namespace keeps the machine's out of reach.
if [ "$(id -u)" -eq 0 ] && command -v unshare >/dev/null &&
	[ "$(nproc --all)" -ge 2 ] && grep -q '^0-' /sys/devices/system/cpu/online &&
	unshare -m --propagation private true 2>/dev/null; then
	# Only irqbalance's file changes: every other row is switched off.
	only="--rt-cpus 1 --keep-throttling --no-irqs --no-workqueue --no-tasks --no-governor
		--no-idle --no-thp --no-timer-migration --no-watchdog --no-hung-task --no-ksm
		--no-numa-balancing --no-fair-server"
	# shellcheck disable=SC2016,SC2086 # expanded by the inner shell
	unshare -m --propagation private bash -c '
		mount -t tmpfs rtready-test /etc/default || exit 77
		printf "IRQBALANCE_BANNED_CPULIST=0\n" >/etc/default/irqbalance
		strace -f -y -o "$1/trace" -e trace=fsync,fdatasync,rename,renameat,renameat2 \
			"$RTREADY" tune $2 --state-dir "$1/state" --apply >/dev/null 2>"$1/err" || exit 1
		"$RTREADY" tune --revert --state-dir "$1/state" >/dev/null 2>&1
		cp /etc/default/irqbalance "$1/after"' sh "$T" "$only"
	rc=$?
	if [ "$rc" -ne 77 ]; then
		[ "$rc" -eq 0 ] || { cat "$T/err"; fail "tune --apply of irqbalance's file failed"; }
		grep -q "IRQBALANCE_BANNED_CPULIST=0$" "$T/after" || fail "the revert did not restore the file"
		durable_trace "tune --apply (irqbalance)" /etc/default irqbalance
		durable_trace "tune --apply (journal)" "$T/state" tune.journal
	fi
fi
echo "ok: the boot files, an output file and tune's files are fsync'd, renamed and their directory fsync'd"
