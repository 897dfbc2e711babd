#!/bin/bash
# `rtready check --root` on the machine trees under tests/fixtures: each
# check's status on each tree is part of the contract. One table per tree
# and per set of options: "id status" lines, compared with the JSON output.
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || skip "no python3"
fx=$SRCDIR/tests/fixtures
tmp=$(mktemp -d /tmp/rtr-fixtures-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# expect TREE "OPTIONS" <<TABLE: the listed checks must have these statuses.
expect() {
	local tree=$1 opts=$2 rc=0
	cat >"$tmp/want"
	# shellcheck disable=SC2086
	timeout 60 "$RTREADY" check --root "$fx/$tree" --format json $opts >"$tmp/got.json" \
		2>"$tmp/err" || rc=$?
	[ "$rc" -le 1 ] || { cat "$tmp/err"; fail "$tree ($opts): exit $rc"; }
	python3 - "$tmp/got.json" "$tmp/want" "$tree $opts" <<'PY' || fail "$tree ($opts)"
import json, sys
got = {c["id"]: c for c in json.load(open(sys.argv[1]))["checks"]}
bad = []
for line in open(sys.argv[2]):
    if not line.strip() or line.startswith("#"):
        continue
    cid, want = line.split()
    c = got.get(cid)
    if c is None:
        bad.append("%s: missing" % cid)
    elif c["status"] != want:
        bad.append("%s: %s, expected %s (%s)" % (cid, c["status"], want, c["evidence"][:300]))
if bad:
    print(sys.argv[3] + ":\n  " + "\n  ".join(bad))
    sys.exit(1)
PY
}

# The development VM as captured: nothing isolated, 2 CPUs, no cpufreq/cpuidle.
expect vm "" <<'T'
cpu.isolation warn
cpu.maxcpus pass
cpu.smt info
cpu.cache_sharing info
cpu.tasks_on_rt_cpus info
cpu.workqueue info
cpu.governor info
cpu.idle info
cpu.timer_migration warn
irq.default_affinity info
irq.affinity info
irq.effective_affinity pass
irq.balance pass
T
# The same VM with CPU 1 declared RT: everything that can fire does.
expect vm "--rt-cpus 1" <<'T'
cpu.isolation warn
cpu.maxcpus pass
cpu.smt pass
cpu.cache_sharing skip
cpu.tasks_on_rt_cpus warn
cpu.workqueue warn
cpu.governor info
cpu.idle info
cpu.timer_migration warn
irq.default_affinity warn
irq.affinity warn
irq.effective_affinity pass
irq.balance pass
T
# An RT CPU that is not online.
expect vm "--rt-cpus 3" <<'T'
cpu.maxcpus fail
T

# RT group scheduling on the cgroup layouts users have (tests/fixtures/cgroup/README.md).
for t in v1-budget:pass v1-zero:fail v1-other:warn v2-cpu:fail v2-cpu-nothrottle:pass \
	v2-root:warn v2-nocpu:pass v2-ns:warn; do
	expect "cgroup/${t%%:*}" "--only sched.rt_group" <<<"sched.rt_group ${t#*:}"
done
# The evidence names the group, what it is charged to, and the controllers.
"$RTREADY" check --root "$fx/cgroup/v2-cpu" --only sched.rt_group >"$tmp/v2" 2>&1
tr -d '\n' <"$tmp/v2" | tr -s ' ' >"$tmp/v2.flat"
for want in "/process_api/7f3e is charged to /sys/fs/cgroup/process_api" \
	"cgroup.controllers: cpu memory pids" "/sys/fs/cgroup/cgroup.subtree_control" \
	"echo \$\$ > /sys/fs/cgroup/cgroup.procs" "rt_group_sched=0 (this kernel has"; do
	grep -qF -- "$want" "$tmp/v2.flat" || { cat "$tmp/v2"; fail "v2-cpu: no '$want'"; }
done

# SCHED_DEADLINE admission on the trees of tests/fixtures/deadline/README.md.
expect deadline/pidns "--only sched.deadline_bandwidth,sched.deadline_mix" <<'T'
sched.deadline_bandwidth skip
sched.deadline_mix skip
T
expect deadline/biglittle "--only sched.deadline_bandwidth" <<<"sched.deadline_bandwidth warn"
"$RTREADY" check --root "$fx/deadline/biglittle" --only sched.deadline_bandwidth --verbose \
	2>&1 | tr -d '\n' | tr -s ' ' >"$tmp/bl"
grep -qF "limit 545.5% (950000/1000000 of the capacity of its 8 CPUs" "$tmp/bl" ||
	{ cat "$tmp/bl"; fail "deadline/biglittle: no capacity limit"; }
expect deadline/sugov "--only sched.deadline_bandwidth,sched.deadline_mix" <<'T'
sched.deadline_bandwidth pass
sched.deadline_mix pass
T
"$RTREADY" check --root "$fx/deadline/sugov" --only sched.deadline_bandwidth --verbose \
	2>&1 | tr -d '\n' | tr -s ' ' >"$tmp/sg"
grep -qF "0 DEADLINE threads reserve 0.0% of a CPU (sched_getattr) (2 schedutil sugov:N" \
	"$tmp/sg" || { cat "$tmp/sg"; fail "deadline/sugov: sugov threads counted"; }
expect deadline/partition-root "--only sched.deadline_bandwidth" <<<"sched.deadline_bandwidth warn"
expect deadline/v1-unbalanced "--only sched.deadline_bandwidth" <<<"sched.deadline_bandwidth skip"
echo ok
