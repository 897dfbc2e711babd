#!/bin/bash
# SPDX-License-Identifier: MIT
# run --rttime: a realtime program that spins without blocking gets SIGXCPU
# at the limit (RLIMIT_RTTIME), and rtready says why; a program that stays
# under it is untouched; bad values are usage errors.
. "$(dirname "$0")/lib.sh"
need_root
R=$RTREADY
cpu=$(cut -d- -f2 /sys/devices/system/cpu/online | cut -d, -f1)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

start=$(date +%s%N)
rc=0
"$R" run --rttime 100ms -- "$SPINNER" "$cpu" 10 900 >"$T/out" 2>"$T/err" || rc=$?
ms=$((($(date +%s%N) - start) / 1000000))
[ "$rc" -eq $((128 + 24)) ] || { cat "$T/err"; fail "spinner exited $rc, want 152 (SIGXCPU)"; }
grep -q "SIGXCPU.*RLIMIT_RTTIME" "$T/err" || { cat "$T/err"; fail "no SIGXCPU message"; }
[ "$ms" -lt 800 ] || fail "the spinner ran ${ms} ms: the 100 ms limit did not stop it"
# Under the limit: runs to its end.
expect_rc 0 "$R" run --rttime 2s -- "$SPINNER" "$cpu" 10 100
expect_rc 2 "$R" run --rttime 10us -- /bin/true
expect_rc 2 "$R" run --rttime x -- /bin/true
echo "ok: --rttime stopped a 900 ms spin after ${ms} ms"
