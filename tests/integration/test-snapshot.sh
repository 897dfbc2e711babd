#!/bin/bash
# rtready snapshot: capture this machine, then `check --root DIR` must give
# the same findings as the live check (same ids and statuses; the same
# evidence except where live state moves between the two runs: task lists
# and interrupt counts). Also the CLI contract: DIR required, non-empty DIR
# refused without --force, modes 0644/0755, the metadata file, and a
# snapshot of a snapshot holding the same files.
. "$(dirname "$0")/lib.sh"
[ -r /proc/interrupts ] || skip "no /proc"
command -v python3 >/dev/null || skip "no python3"

tmp=$(mktemp -d /tmp/rtr-snapshot-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

expect_rc 2 "$RTREADY" snapshot
expect_rc 2 "$RTREADY" snapshot "$tmp/a" "$tmp/b"
expect_rc 2 "$RTREADY" snapshot --root /nonexistent "$tmp/x"

snap=$tmp/snap
expect_rc 0 "$RTREADY" snapshot "$snap"
expect_rc 2 "$RTREADY" snapshot "$snap"          # not empty
expect_rc 0 "$RTREADY" snapshot --force "$snap"  # rewrite in place
[ -s "$snap/rtready-snapshot.json" ] || fail "no metadata file"
[ -s "$snap/proc/interrupts" ] || fail "no /proc/interrupts in the snapshot"
[ -s "$snap/sys/devices/system/cpu/online" ] || fail "no cpu/online in the snapshot"
bad=$(find "$snap" -type f ! -perm 0644 | head -3)
[ -z "$bad" ] || fail "file modes: $bad"
bad=$(find "$snap" -type d ! -perm 0755 | head -3)
[ -z "$bad" ] || fail "dir modes: $bad"

# A snapshot of the snapshot captures the same files.
expect_rc 0 "$RTREADY" snapshot --root "$snap" "$tmp/snap2"
(cd "$snap" && find . -type f ! -name rtready-snapshot.json | sort) >"$tmp/f1"
(cd "$tmp/snap2" && find . -type f ! -name rtready-snapshot.json | sort) >"$tmp/f2"
diff -q "$tmp/f1" "$tmp/f2" >/dev/null || fail "snapshot of a snapshot differs: $(diff "$tmp/f1" "$tmp/f2" | head -5)"

# Live vs snapshot. Other tests may change this machine's tunables while we
# run (tune applies and reverts), so a difference must persist over three
# fresh captures to count.
compare() {
	python3 - "$tmp/live.json" "$tmp/snap.json" "$1/rtready-snapshot.json" <<'PY'
import json, sys
live, snap, meta = (json.load(open(p)) for p in sys.argv[1:4])
assert meta["command"] == "snapshot" and meta["files"] > 0 and meta["date"], meta
assert snap["host"]["root"] != live["host"]["root"]
for k in ("rt_cpus",):
    assert live["host"][k] == snap["host"][k], (k, live["host"][k], snap["host"][k])
# Evidence that carries live state (tasks come and go, interrupts count up).
volatile = {"irq.affinity", "cpu.tasks_on_rt_cpus", "sched.rt_tasks", "irq.balance",
            "sched.prio99", "sched.deadline_mix", "limits.rtprio", "limits.memlock",
            # Live, as root, the PREEMPT_DYNAMIC mode is read through a private
            # debugfs mount (or lockdown is named): the evidence says where the
            # answer came from, which a file tree cannot repeat. Status compared.
            "kernel.preempt"}
a = {c["id"]: c for c in live["checks"]}
b = {c["id"]: c for c in snap["checks"]}
assert a.keys() == b.keys(), a.keys() ^ b.keys()
bad = []
for i in a:
    if a[i]["status"] != b[i]["status"]:
        bad.append("%s: %s live, %s from the snapshot (%s)" % (i, a[i]["status"], b[i]["status"], b[i]["evidence"][:200]))
    elif i not in volatile and a[i]["evidence"] != b[i]["evidence"]:
        bad.append("%s evidence:\n  live %s\n  snap %s" % (i, a[i]["evidence"][:200], b[i]["evidence"][:200]))
if bad:
    print("\n".join(bad))
    sys.exit(1)
PY
}
ok=0
for attempt in 1 2 3; do
	# A fresh directory each time: --force leaves older files in place.
	expect_rc 0 "$RTREADY" snapshot "$tmp/live-$attempt"
	"$RTREADY" check --format json --rt-cpus 1 >"$tmp/live.json" || true
	"$RTREADY" check --format json --rt-cpus 1 --root "$tmp/live-$attempt" >"$tmp/snap.json" || true
	if compare "$tmp/live-$attempt" >"$tmp/diff"; then ok=1; break; fi
	sleep 2
done
[ "$ok" -eq 1 ] || { cat "$tmp/diff"; fail "live and snapshot findings differ"; }
echo ok
