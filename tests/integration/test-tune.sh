#!/bin/bash
# rtready tune on this machine, as root: a dry run changes nothing; apply
# changes what it says and `check` agrees; revert puts every value back byte
# for byte; a second revert, a revert without a journal, a journal of another
# boot, a tampered task identity, bad CPU lists and --emit-boot. Only the
# test's own sleeping processes are moved (--pid): the rest of the machine's
# tasks are not ours to move. The machine is restored on any exit (trap).
. "$(dirname "$0")/lib.sh"
need_root
[ -w /proc/irq/default_smp_affinity ] || skip "/proc/irq is not writable here"
[ "$(nproc --all)" -ge 2 ] || skip "needs 2 CPUs"
grep -q '^0-' /sys/devices/system/cpu/online || skip "CPU 0 and 1 not both online"
. "$(dirname "$0")/tune-harness.sh"
tune_harness tune
tune_sleepers
T="--rt-cpus 1 --pid $S1,$S2 --state-dir $STATE"

dump >"$WORK/before"

# 1. Dry run: a plan with paths, old -> new and check ids; nothing changes.
"$RTREADY" tune $T >"$WORK/plan" 2>&1 || fail "dry run exited $?"
grep -q 'sched.rt_throttling .*/proc/sys/kernel/sched_rt_runtime_us: .* -> -1' "$WORK/plan" ||
	[ "$(cat /proc/sys/kernel/sched_rt_runtime_us)" = -1 ] || fail "plan lacks throttling"
grep -q "task $S1 (sleep) CPUs: 0-1 -> 0" "$WORK/plan" || fail "plan lacks the sleeper"
"$RTREADY" tune $T --format json >"$WORK/plan.json" || fail "json dry run"
python3 - "$WORK/plan.json" <<'EOF' || fail "plan JSON"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["command"] == "tune" and d["mode"] == "plan", d
assert d["host"]["rt_cpus"] == "1"
for c in d["changes"]:
    assert c["state"] == "pending" and c["check"] and "old" in c and "new" in c, c
EOF
dump >"$WORK/after-plan"
cmp -s "$WORK/before" "$WORK/after-plan" || { diff "$WORK/before" "$WORK/after-plan"; fail "dry run changed something"; }
[ ! -e "$STATE/tune.journal" ] || fail "dry run wrote a journal"

# 2. Nothing to revert yet.
"$RTREADY" tune --revert --state-dir "$STATE" >"$WORK/out" || fail "revert without journal"
grep -q "Nothing to revert" "$WORK/out" || fail "revert without journal says nothing"

# 3. Bad CPU lists.
expect_rc 2 "$RTREADY" tune --rt-cpus 0-1 --apply --state-dir "$STATE"
expect_rc 2 "$RTREADY" tune --rt-cpus 4095 --state-dir "$STATE"
if [ -z "$(tr -d '\n' </sys/devices/system/cpu/isolated 2>/dev/null)" ]; then
	expect_rc 2 "$RTREADY" tune --apply --state-dir "$STATE"
fi
[ ! -e "$STATE/tune.journal" ] || fail "a refused apply wrote a journal"

# 4. Apply: the values change, and check agrees.
"$RTREADY" tune $T --apply >"$WORK/apply" 2>&1 || { cat "$WORK/apply"; fail "apply exited $?"; }
[ "$(cat /proc/sys/kernel/sched_rt_runtime_us)" = -1 ] || fail "throttling still on"
mask=$(( 16#$(tr -d ',\n' </proc/irq/default_smp_affinity) ))
[ $(( mask & 2 )) -eq 0 ] || fail "default_smp_affinity still has CPU 1"
[ "$(cat /proc/sys/kernel/timer_migration)" = 0 ] || fail "timer_migration"
[ "$(cat /proc/sys/kernel/watchdog_cpumask)" = 0 ] || fail "watchdog_cpumask"
[ "$(taskset -pc "$S1" | sed 's/.*: //')" = 0 ] || fail "sleeper not moved"
for f in /proc/irq/[0-9]*/smp_affinity_list; do
	v=$(cat "$f")
	if [ "$v" != 0 ]; then
		irq=$(basename "$(dirname "$f")")
		grep -q "/proc/irq/$irq/smp_affinity_list.*\[failed" "$WORK/apply" ||
			fail "IRQ $irq is at $v and no refusal was reported"
	fi
done
# irq.affinity is not among them: an IRQ's effective CPU changes only when it
# next fires, and the kernel refuses to move some (both are reported above).
FIXED=sched.rt_throttling,irq.default_affinity,cpu.workqueue,cpu.timer_migration
FIXED=$FIXED,kernel.lockup_detector
"$RTREADY" check --rt-cpus 1 --only "$FIXED" --format json >"$WORK/check.json" || true
python3 - "$WORK/check.json" "$FIXED" <<'EOF' || fail "check does not agree after apply"
import json, sys
d = json.load(open(sys.argv[1]))
st = {c["id"]: c["status"] for c in d["checks"]}
assert st == {i: "pass" for i in sys.argv[2].split(",")}, st
EOF

# 5. A second apply is refused while the first is in effect; status shows it.
expect_rc 2 "$RTREADY" tune $T --apply
"$RTREADY" tune --status --state-dir "$STATE" >"$WORK/status" || fail "status"
grep -q "this boot" "$WORK/status" || fail "status: boot"
grep -q "sched_rt_runtime_us: .* -> -1  \[applied\]" "$WORK/status" ||
	grep -q "sched_rt_runtime_us" "$WORK/before" || fail "status: throttling"
"$RTREADY" tune --status --format json --state-dir "$STATE" | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["journal"]["this_boot"] and d["journal"]["live"] > 0, d["journal"]' || fail "status json"

# 6. A journal of another boot is refused, not replayed.
cp "$STATE/tune.journal" "$WORK/journal.good"
sed -i 's/"boot_id": "[^"]*"/"boot_id": "00000000-0000-0000-0000-000000000000"/' "$STATE/tune.journal"
expect_rc 2 "$RTREADY" tune --revert --state-dir "$STATE"
"$RTREADY" tune --revert --state-dir "$STATE" 2>&1 | grep -q "earlier boot" ||
	fail "no message about the earlier boot"
[ "$(cat /proc/sys/kernel/sched_rt_runtime_us)" = -1 ] || fail "an old boot's journal was replayed"
cp "$WORK/journal.good" "$STATE/tune.journal"

# 7. A task whose start time no longer matches (a reused pid) is not touched.
python3 - "$STATE/tune.journal" "$S2" <<'EOF'
import json, sys
j = json.load(open(sys.argv[1]))
for c in j["changes"]:
    if c.get("tid") == int(sys.argv[2]):
        c["start_ticks"] += 1
json.dump(j, open(sys.argv[1], "w"), indent=1)
EOF

# 8. Revert: every value byte for byte, except the "reused" task.
"$RTREADY" tune --revert --state-dir "$STATE" >"$WORK/revert" 2>&1 ||
	{ cat "$WORK/revert"; fail "revert exited $?"; }
[ "$(taskset -pc "$S2" | sed 's/.*: //')" = 0 ] || fail "revert touched a task with another start time"
grep -A1 "task $S2 " "$WORK/revert" | grep -q "exited" || fail "revert did not say it left task $S2"
taskset -pc 0-1 "$S2" >/dev/null
dump >"$WORK/after"
cmp -s "$WORK/before" "$WORK/after" || { diff "$WORK/before" "$WORK/after"; fail "revert is not exact"; }

# 9. Revert again: nothing to do, nothing changes.
"$RTREADY" tune --revert --state-dir "$STATE" >"$WORK/out" || fail "second revert"
grep -q "already reverted" "$WORK/out" || fail "second revert message"
dump >"$WORK/after2"
cmp -s "$WORK/before" "$WORK/after2" || fail "second revert changed something"

# 10. A journal that is not one is refused.
echo '{"format":"rtready-tune-journal","version":1,"boot_id":"x","state":"applied",' \
	'"changes":[{"tunable":"thp","path":"/etc/passwd","old":"a","new":"b","state":"applied"}]}' \
	>"$STATE/tune.journal"
expect_rc 2 "$RTREADY" tune --revert --state-dir "$STATE"
rm -f "$STATE/tune.journal"

# 11. Boot files: command line printed, files written where asked only.
"$RTREADY" tune --rt-cpus 1 --no-tasks --emit-boot "$WORK/boot" >"$WORK/boot.out" ||
	fail "--emit-boot"
grep -q "isolcpus=managed_irq,domain,1 nohz_full=1 rcu_nocbs=1 irqaffinity=0" "$WORK/boot.out" ||
	fail "--emit-boot command line"
grep -qx "kernel.sched_rt_runtime_us = -1" "$WORK/boot/90-rtready.conf" || fail "sysctl.d file"
grep -q "^ExecStart=.*rtready tune --apply --rt-cpus 1 --no-tasks$" \
	"$WORK/boot/rtready-tune.service" || fail "unit ExecStart"
dump >"$WORK/after3"
cmp -s "$WORK/before" "$WORK/after3" || fail "--emit-boot changed the machine"
echo ok
