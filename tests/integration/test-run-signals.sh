#!/bin/bash
# SPDX-License-Identifier: MIT
# `rtready run` passes each signal on exactly once (issue 25). Under
# timeout(1) the signal reaches rtready directly and also its whole process
# group; the program must not get it twice. From a script, a signal sent to
# rtready alone must still reach the program. The program counts what it
# gets (tests/progs/sigcount.c).
. "$(dirname "$0")/lib.sh"
[ -x "${SIGCOUNT:-}" ] || skip "no sigcount helper"
command -v timeout >/dev/null || skip "no timeout(1)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for i in 1 2 3 4 5; do
	timeout -s INT 0.5 "$RTREADY" run -- "$SIGCOUNT" >"$tmp/out" 2>"$tmp/err" </dev/null
	grep -qx "signals 1" "$tmp/out" ||
		fail "under timeout -s INT (run $i): $(cat "$tmp/out" "$tmp/err")"
done
# A signal sent to rtready alone (a script's kill): passed on once.
for sig in TERM INT; do
	"$RTREADY" run -- "$SIGCOUNT" >"$tmp/out" 2>"$tmp/err" </dev/null &
	pid=$!
	for _ in $(seq 100); do
		grep -q ready "$tmp/out" 2>/dev/null && break
		sleep 0.05
	done
	kill -"$sig" "$pid"
	wait "$pid"
	grep -qx "signals 1" "$tmp/out" || fail "kill -$sig to rtready: $(cat "$tmp/out" "$tmp/err")"
done
echo ok
