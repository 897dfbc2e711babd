#!/bin/bash
# SPDX-License-Identifier: MIT
# cgroup v2 isolated partitions (issue 28) on machine trees and on this
# machine: the probe as `check cpu.isolation` reports it, and `tune
# --isolate` (dry run on the trees; on the live machine where it cannot
# work, its refusal). The trees are tests/fixtures/partition (README there).
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || skip "no python3"
fx=$SRCDIR/tests/fixtures/partition
tmp=$(mktemp -d /tmp/rtr-isolate-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# iso_check TREE STATUS [TEXT...]: cpu.isolation for RT CPUs 2-3 has STATUS
# and its evidence holds each TEXT.
iso_check() {
	local tree=$1 want=$2 rc=0
	shift 2
	timeout 60 "$RTREADY" check --root "$fx/$tree" --rt-cpus 2-3 --only cpu.isolation \
		--format json >"$tmp/got.json" 2>"$tmp/err" || rc=$?
	[ "$rc" -le 1 ] || { cat "$tmp/err"; fail "$tree: check exited $rc"; }
	python3 - "$tmp/got.json" "$tree" "$want" "$@" <<'PY' || fail "check on $tree"
import json, sys
c = json.load(open(sys.argv[1]))["checks"][0]
tree, want, texts = sys.argv[2], sys.argv[3], sys.argv[4:]
assert c["status"] == want, "%s: %s, expected %s: %s" % (tree, c["status"], want, c["evidence"])
for t in texts:
    assert t in c["evidence"] + " | " + c["fix"], "%s: %r not in %s | %s" % (tree, t, c["evidence"], c["fix"])
PY
}

iso_check v2-isolated pass "partition /rtready-isolated" "cpuset.cpus.isolated 2-3" \
	"boot line would still add: nohz_full=" "rcu_nocbs=" "managed_irq"
iso_check v2-none warn "Not isolated from the scheduler: 2-3" "--isolate --apply"
iso_check v2-invalid warn "'isolated invalid' (Cpu list in cpuset.cpus not exclusive)" \
	"Not isolated from the scheduler: 2-3"
iso_check hybrid-v1 warn "not here: cpuset is on a cgroup v1 hierarchy"
iso_check old-kernel warn "not here: this kernel has no cpuset.cpus.isolated"
echo "check: 5 trees"

# tune --isolate, dry run on the trees: the four rows where a partition can
# be made, a note where it is there already, exit 2 with the reason elsewhere.
tune_tree() {
	local tree=$1 want_rc=$2 rc=0
	shift 2
	timeout 60 "$RTREADY" tune --root "$fx/$tree" --rt-cpus 2-3 --isolate --no-irqs --no-tasks \
		--format json >"$tmp/tune.json" 2>"$tmp/tune.err" || rc=$?
	[ "$rc" -eq "$want_rc" ] || { cat "$tmp/tune.err"; fail "tune on $tree: exit $rc, want $want_rc"; }
	for t in "$@"; do
		grep -qF -- "$t" "$tmp/tune.json" "$tmp/tune.err" ||
			{ cat "$tmp/tune.json" "$tmp/tune.err"; fail "tune on $tree: no '$t'"; }
	done
}
tune_tree v2-none 0
python3 - "$tmp/tune.json" <<'PY' || fail "tune on v2-none: rows"
import json, sys
rows = [(c["tunable"], c.get("path"), c["old"], c["new"]) for c in json.load(open(sys.argv[1]))["changes"]
        if c["tunable"].startswith("isolate-")]
want = [("isolate-subtree", "/sys/fs/cgroup/cgroup.subtree_control", "-cpuset", "+cpuset"),
        ("isolate-group", "/sys/fs/cgroup/rtready-isolated", "absent", "present"),
        ("isolate-cpus", "/sys/fs/cgroup/rtready-isolated/cpuset.cpus", "", "2-3"),
        ("isolate-partition", "/sys/fs/cgroup/rtready-isolated/cpuset.cpus.partition", "member", "isolated")]
assert rows == want, rows
PY
tune_tree v2-isolated 0 "already right: /sys/fs/cgroup/rtready-isolated is an isolated partition of CPUs 2-3"
tune_tree v2-invalid 2 "the cgroup /rt is already a partition ('isolated invalid') of CPUs 0-3"
tune_tree hybrid-v1 2 "cpuset controller is on a cgroup v1 hierarchy (/sys/fs/cgroup/cpuset)"
tune_tree old-kernel 2 "no /sys/fs/cgroup/cpuset.cpus.isolated" "Linux 6.8"
# Without --isolate nothing of the partition is planned.
"$RTREADY" tune --root "$fx/v2-none" --rt-cpus 2-3 --format json >"$tmp/plain.json" ||
	fail "tune without --isolate"
grep -q isolate- "$tmp/plain.json" && fail "tune planned a partition without --isolate"
# The last CPUs of a NUMA node: a tree with node1 = CPUs 2-3.
cp -a "$fx/v2-none" "$tmp/numa"
mkdir -p "$tmp/numa/sys/devices/system/node/node1"
echo 0-1 >"$tmp/numa/sys/devices/system/node/node0/cpulist"
echo 2-3 >"$tmp/numa/sys/devices/system/node/node1/cpulist"
fx=$tmp tune_tree numa 2 "CPUs 2-3 are all the CPUs of NUMA node 1"
echo "tune: 6 trees"

# plan offers both paths: the boot line and the partition, with what each
# gives, and whether the partition can be made on the tree read.
plan_tree() {
	timeout 120 "$RTREADY" plan --root "$fx/$1" --format json >"$tmp/plan.json" 2>"$tmp/plan.err" ||
		{ cat "$tmp/plan.err"; fail "plan on $1"; }
	python3 - "$tmp/plan.json" "$1" "$2" "$3" <<'PY' || fail "plan on $1"
import json, sys
p = json.load(open(sys.argv[1]))["plan"]
ri, tree, avail, why = p["runtime_isolation"], sys.argv[2], sys.argv[3] == "yes", sys.argv[4]
assert ri["command"] == "rtready tune --rt-cpus %s --isolate --apply" % p["rt_cpus"], ri
assert ri["available"] == avail, (tree, ri)
assert why in (ri["why_not"] or ""), (tree, ri)
assert "nohz_full=" in ri["does_not_give"] and "rcu_nocbs=" in ri["does_not_give"], ri
assert "managed_irq" in ri["does_not_give"] and "tick" in p["boot_gives"], p["boot_gives"]
PY
}
plan_tree v2-none yes ""
plan_tree hybrid-v1 no "cgroup v1 hierarchy"
plan_tree old-kernel no "Linux 6.8"
timeout 120 "$RTREADY" plan --root "$fx/v2-none" >"$tmp/plan.txt" || fail "plan text"
grep -q "^Or without a reboot (a cgroup v2 isolated partition, lost at reboot):" "$tmp/plan.txt" ||
	fail "plan text: no partition path"
echo "plan: 3 trees"

# This machine: where cpuset lives on cgroup v1 (this development VM), the
# live refusal, with nothing journaled or made.
cpuset_v1=$(awk '$9 == "cgroup" && $NF ~ /(^|,)cpuset(,|$)/ {print $5; exit}' /proc/self/mountinfo)
if [ -n "$cpuset_v1" ] && [ "$(id -u)" -eq 0 ]; then
	last=$(( $(nproc) - 1 ))
	[ "$last" -ge 1 ] || skip "one CPU"
	rc=0
	timeout 60 "$RTREADY" tune --rt-cpus "$last" --isolate --apply --state-dir "$tmp/state" \
		>"$tmp/out" 2>"$tmp/err" || rc=$?
	[ "$rc" -eq 2 ] || { cat "$tmp/out" "$tmp/err"; fail "live --isolate --apply: exit $rc, want 2"; }
	grep -qF "cpuset controller is on a cgroup v1 hierarchy ($cpuset_v1)" "$tmp/err" ||
		fail "live refusal: $(cat "$tmp/err")"
	[ ! -e "$tmp/state/tune.journal" ] || fail "a refused --isolate left a journal"
	echo "live: refused on cgroup v1 cpuset ($cpuset_v1)"
fi
