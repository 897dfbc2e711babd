#!/bin/bash
# SPDX-License-Identifier: MIT
# rtready latency on a terminal, as a person runs it: under a pseudo-terminal
# (script(1) of util-linux) the per-CPU lines are redrawn in place, a Ctrl-C
# typed on the terminal (the line discipline turns it into SIGINT for the
# foreground process group) ends the run with exit 0 and the final table,
# and the terminal settings are the same afterwards.
. "$(dirname "$0")/lib.sh"
need_root
command -v script >/dev/null || skip "needs script(1) from util-linux"
command -v python3 >/dev/null || skip "needs python3"
tmp=$(mktemp -d)
spid=
trap '[ -n "$spid" ] && kill "$spid" 2>/dev/null; exec 3>&- 2>/dev/null; rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
mkfifo keys

# The shell inside keeps a handler (not SIG_IGN, which rtready would inherit)
# for SIGINT, so that it survives the Ctrl-C and can report what followed.
cat >inside.sh <<EOF
trap : INT
stty -g >stty.before
"$RTREADY" latency -t 1 -i 1000 -D 0
echo \$? >rc
stty -g >stty.after
EOF
# Keep the keyboard open from here, so script(1) does not see an end of input.
script -q -e -c "bash $tmp/inside.sh" /dev/null <keys >screen 2>script.err &
spid=$!
exec 3>keys
# Wait for a few refreshes (every 100 ms), then type Ctrl-C.
for _ in $(seq 50); do
	[ "$(grep -c $'\033\\[1A' screen 2>/dev/null)" -ge 5 ] && break
	sleep 0.1
done
t0=$(date +%s%N)
printf '\003' >&3
for _ in $(seq 50); do
	[ -s rc ] && [ -s stty.after ] && break
	sleep 0.1
done
t1=$(date +%s%N)
exec 3>&-
rc=0
wait "$spid" || rc=$?
spid=
[ -s rc ] || fail "no exit status from rtready (script: $rc, $(cat script.err))"
[ "$(cat rc)" = 0 ] || fail "Ctrl-C on the terminal: exit $(cat rc)"
[ $(( (t1 - t0) / 1000000 )) -lt 2000 ] || fail "Ctrl-C took $(( (t1 - t0) / 1000000 )) ms"
cmp -s stty.before stty.after || fail "terminal settings changed: $(cat stty.before) -> $(cat stty.after)"

python3 - screen <<'PY' || fail "screen: $(cat -A screen | tail -20)"
import re, sys
text = open(sys.argv[1], "rb").read().decode("ascii", "replace").replace("\r", "")
# The first frame is drawn as is; each refresh moves the cursor up over the
# previous one (one line: ESC[1A) and clears each rewritten line's end (ESC[K).
frames = text.split("\033[1A")
assert len(frames) >= 6, "only %d refreshes" % (len(frames) - 1)
live = re.compile(r"T: 0 CPU\d+ +\( *\d+\) P:80 I:1000 +C: +(\d+) Min: +[\d.]+ Act: +[\d.]+"
                  r" Avg: +[\d.]+ Max: +[\d.]+\033\[K\n")
counts = []
for f in frames[1:]:
    m = live.match(f)
    assert m, repr(f[:200])
    counts.append(int(m.group(1)))
# The wake-up count goes up from one refresh to the next.
assert counts == sorted(counts) and counts[-1] > counts[0], counts
# After the last frame: a newline, then the summary of an interrupted run.
tail = frames[-1][live.match(frames[-1]).end():]
assert tail.startswith("\n"), repr(tail[:80])
assert re.search(r"wake-up latency.* on CPU \d+: SCHED_FIFO 80, interval 1000 us, [\d.]+ s "
                 r"measured \(signal\)", tail), tail[:300]
assert re.search(r"\n +\d+ +\d+ +\d+ ", tail), "no table row"
assert "(latencies in us)" in tail
# Colour on a terminal, and every colour switched off again.
assert tail.count("\033[1m") + tail.count("\033[1;31m") <= tail.count("\033[0m"), tail[:300]
# Nothing but the known escapes: no stray cursor or mode changes left behind.
assert set(re.findall(r"\033\[[0-9;?]*[A-Za-z]", text)) <= {"\033[1A", "\033[K", "\033[1m",
                                                            "\033[0m", "\033[1;31m"}, \
    set(re.findall(r"\033\[[0-9;?]*[A-Za-z]", text))
assert text.endswith("\n")
PY

# NO_COLOR on a terminal: the same display without colour.
grep -q $'\033\\[1m' screen || [ -n "$NO_COLOR" ] || fail "no colour on a terminal"
echo ok
