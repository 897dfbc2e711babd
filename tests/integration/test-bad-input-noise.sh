#!/bin/bash
# SPDX-License-Identifier: MIT
# The bad-input table of `rtready noise` (issue 27): every row names the
# exit code and a piece of the message; nothing of the user's is replaced
# by a run that failed, and no run may spin on every online CPU (one stays
# to housekeeping). Runs that do measure last 50 ms on the last CPU.
# Prints "N passed, N failed" at the end.
. "$(dirname "$0")/lib.sh"
need_root
. "$INTEG_DIR/table.sh"

last=$(python3 -c 'import os; print(max(os.sched_getaffinity(0)))')
online=$(cat /sys/devices/system/cpu/online)

# ---- options ----
row "--prio 99" 2 "prio: '99' is not 1..98" "$R" noise --prio 99
row "--prio 0" 2 "prio: '0' is not 1..98" "$R" noise -p 0
row "--prio text" 2 "prio: 'high'" "$R" noise -p high
row "--threshold 0" 2 "threshold: '0' is not a time from 1us to 1s" "$R" noise --threshold 0
row "--threshold 2s" 2 "threshold: '2s' is not a time from 1us to 1s" "$R" noise --threshold 2s
row "--threshold huge" 2 "threshold: '99999999999'" "$R" noise --threshold 99999999999
row "-D 0" 2 "duration: '0' is not a time from 1ms to 24h" "$R" noise -D 0
row "-D negative" 2 "duration: '-1s'" "$R" noise -D -1s
row "-D 25h" 2 "duration: '25h'" "$R" noise -D 25h
row "-D 10us" 2 "duration: '10us'" "$R" noise -D 10us
row "-D garbage" 2 "duration: 'soon'" "$R" noise -D soon
row "--policy deadline" 2 "policy: 'deadline' is not fifo, rr or other" "$R" noise --policy deadline
row "--policy other with --prio" 2 "exclude each other" "$R" noise --policy other -p 10
row "-f xml" 2 "xml" "$R" noise -f xml
row "--clock tsc" 2 "clock: 'tsc' is not auto or monotonic" "$R" noise --clock tsc
row "unknown option" 2 "unknown option '--bogus'" "$R" noise --bogus
row "extra argument" 2 "unexpected argument 'now'" "$R" noise now
row "missing value" 2 "needs a value" "$R" noise -D

# ---- verify --max-noise ----
row "verify --max-noise 0" 2 "max-noise" "$R" verify --max-noise 0 -r "$T/vr"
row "verify --max-noise text" 2 "max-noise" "$R" verify --max-noise lots -r "$T/vr"
row "verify --max-noise missing" 2 "needs a value" "$R" verify --max-noise

# ---- CPUs ----
row "-a garbage" 2 "affinity" "$R" noise -a one
row "-a offline CPU" 2 "CPU 4000 is not online" "$R" noise -a 4000 -D 50ms
row "-a every online CPU" 2 "leave at least one to housekeeping" "$R" noise -a "$online" -D 50ms
row "-a 0-last (all)" 2 "housekeeping" "$R" noise -a "0-$last" -D 50ms

# ---- outputs: checked before the run, never replaced by a failed one ----
echo keep >"$T/keep.json"
row "-o in a missing directory" 2 "cannot write /nonexistent/x.json" \
	"$R" noise -a "$last" -D 50ms -o /nonexistent/x.json
row "--gaps in a missing directory" 2 "cannot write /nonexistent/g.tsv" \
	"$R" noise -a "$last" -D 50ms --gaps /nonexistent/g.tsv
row "--gaps and -o the same file" 2 "keep.json" \
	"$R" noise -a "$last" -D 50ms -o "$T/keep.json" --gaps "$T/keep.json"
assert "the same file: untouched" grep -qx keep "$T/keep.json"
row "a failed run keeps -o" 2 "housekeeping" "$R" noise -a "$online" -D 50ms -o "$T/keep.json"
assert "a failed run: -o untouched" grep -qx keep "$T/keep.json"
row "-o a directory" 2 "cannot write" "$R" noise -a "$last" -D 50ms -o "$T"

# ---- what works: a device in place, a file replaced whole ----
row "-o /dev/null" 0 "" "$R" noise -a "$last" -D 50ms -o /dev/null
row "-o a file, json" 0 "" "$R" noise -a "$last" -D 50ms -f json -o "$T/keep.json"
assert "the file holds the result" python3 -c "
import json, sys
r = json.load(open('$T/keep.json'))
c = r['cpus'][0]
assert r['command'] == 'noise' and c['cpu'] == $last, r
assert sum(x['count'] for x in c['causes']) == c['events']
"
row "--policy other" 0 "" "$R" noise -a "$last" -D 50ms --policy other --no-trace
row "--help" 0 "" "$R" noise --help
assert "--help names --threshold" grep -q -- "--threshold US" "$T/out"

table_end
