#!/bin/bash
# SPDX-License-Identifier: MIT
# rtready run: exit status pass-through, usage errors (exit 2), and the
# scheduling, affinity, nice and rlimit settings as the program sees them.
. "$(dirname "$0")/lib.sh"

# The program's status comes through; 128 + signal when it is killed.
expect_rc 0 "$RTREADY" run -- true
expect_rc 1 "$RTREADY" run -- false
expect_rc 7 "$RTREADY" run -- sh -c 'exit 7'
expect_rc 143 "$RTREADY" run -- sh -c 'kill -TERM $$'
# The command's own options are not rtready's.
expect_rc 0 "$RTREADY" run -- sh -c 'exit 0' --check

# rtready's own failures: exit 2 with a message.
expect_rc 2 "$RTREADY" run
expect_rc 2 "$RTREADY" run --bogus -- true
expect_rc 2 "$RTREADY" run -- /nonexistent/program
expect_rc 2 "$RTREADY" run -- rtready-no-such-command-here
# A file without execute permission (/etc/hostname has it on some systems, and an
# executable text file runs under /bin/sh, as with execvp).
noexec=$(mktemp)
chmod 644 "$noexec"
expect_rc 2 "$RTREADY" run -- "$noexec"
rm -f "$noexec"
expect_rc 2 "$RTREADY" run --policy idle -- true
expect_rc 2 "$RTREADY" run --prio 0 -- true
expect_rc 2 "$RTREADY" run --prio 99 -- true
expect_rc 2 "$RTREADY" run --policy other --prio 10 -- true
expect_rc 2 "$RTREADY" run --nice 20 -- true
expect_rc 2 "$RTREADY" run --cpus 9999999 -- true
expect_rc 2 "$RTREADY" run --memlock-limit lots -- true
expect_rc 2 "$RTREADY" run --report /tmp/x.json -- true
expect_rc 2 "$RTREADY" run --policy fifo --cpu-max 20 -- true
expect_rc 0 "$RTREADY" run --help
msg=$("$RTREADY" run -- rtready-no-such-command-here 2>&1) || true
case $msg in *"command not found"*) ;; *) fail "no 'command not found' message: $msg" ;; esac

need_root
out=$("$RTREADY" run --policy fifo --prio 12 -- sh -c 'chrt -p $$') ||
	fail "run --policy fifo failed"
case $out in *SCHED_FIFO*"priority: 12"*) ;; *) fail "policy not applied: $out" ;; esac
out=$("$RTREADY" run --prio 7 -- sh -c 'chrt -p $$')
case $out in *SCHED_FIFO*"priority: 7"*) ;; *) fail "--prio alone is not fifo: $out" ;; esac
out=$("$RTREADY" run --policy rr --prio 98 -- sh -c 'chrt -p $$')
case $out in *SCHED_RR*"priority: 98"*) ;; *) fail "rr not applied: $out" ;; esac
out=$("$RTREADY" run --allow-prio99 --prio 99 -- sh -c 'chrt -p $$')
case $out in *"priority: 99"*) ;; *) fail "--allow-prio99 not honoured: $out" ;; esac
out=$("$RTREADY" run --nice 5 -- nice)
[ "$out" = 5 ] || fail "nice 5 not applied: $out"
out=$("$RTREADY" run --cpus 0 -- grep Cpus_allowed_list /proc/self/status)
case $out in *$'\t'0) ;; *) fail "affinity not applied: $out" ;; esac
out=$("$RTREADY" run --memlock-limit 8M -- sh -c 'ulimit -l')
[ "$out" = 8192 ] || fail "RLIMIT_MEMLOCK 8M not applied: $out"
if [ "$(ulimit -Hl)" = unlimited ]; then
	out=$("$RTREADY" run --memlock-limit unlimited -- sh -c 'ulimit -l')
	[ "$out" = unlimited ] || fail "RLIMIT_MEMLOCK unlimited not applied: $out"
else
	# Above the hard limit without CAP_SYS_RESOURCE: refused, and the privilege named.
	msg=$("$RTREADY" run --memlock-limit unlimited -- true 2>&1) && fail "raising RLIMIT_MEMLOCK worked?"
	case $msg in *CAP_SYS_RESOURCE*) ;; *) fail "privilege not named: $msg" ;; esac
fi
# --mlock: the preloaded library locks the program's memory.
out=$("$RTREADY" run --mlock -- grep VmLck /proc/self/status)
kb=$(echo "$out" | awk '{print $2}')
[ "${kb:-0}" -gt 0 ] || fail "--mlock left nothing locked: $out"
echo "ok"
