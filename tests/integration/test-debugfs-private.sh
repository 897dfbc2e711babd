#!/bin/bash
# SPDX-License-Identifier: MIT
# kernel.preempt on a PREEMPT_DYNAMIC kernel without debugfs mounted: as
# root, check reads the live mode by mounting debugfs in a private mount
# namespace of a child, and leaves nothing mounted. Under kernel lockdown
# debugfs refuses the read, and the evidence must say so (never a bare
# "No such file"). Runs in a mount namespace of its own where debugfs is
# unmounted, so the host's mounts are not touched.
. "$(dirname "$0")/lib.sh"
need_root
command -v unshare >/dev/null || skip "no unshare"
grep -q PREEMPT_DYNAMIC /proc/sys/kernel/version || skip "not a PREEMPT_DYNAMIC kernel"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck disable=SC2016
timeout 60 unshare -m bash -c '
	mount --make-rprivate /
	while grep -q " /sys/kernel/debug " /proc/self/mountinfo; do umount /sys/kernel/debug || exit 3; done
	grep -c . /proc/self/mountinfo >"$2/before"
	"$1" check --only kernel.preempt --format json >"$2/out.json" 2>"$2/err"
	grep -c . /proc/self/mountinfo >"$2/after"
	grep " /sys/kernel/debug " /proc/self/mountinfo >"$2/left" || true
' _ "$RTREADY" "$tmp" || fail "the namespace set-up failed ($?)"
[ -s "$tmp/out.json" ] || { cat "$tmp/err"; fail "no check output"; }
cmp -s "$tmp/before" "$tmp/after" && [ ! -s "$tmp/left" ] ||
	fail "check left a mount behind: $(cat "$tmp/left")"
python3 - "$tmp/out.json" <<'PY' || fail "kernel.preempt did not read the live mode nor say why"
import json, sys
c = json.load(open(sys.argv[1]))["checks"][0]
ev = c["evidence"]
ok = ("private mount namespace" in ev and "PREEMPT_DYNAMIC modes:" in ev) or \
     "kernel lockdown refuses debugfs" in ev
print(ev)
sys.exit(0 if ok else 1)
PY
echo ok
