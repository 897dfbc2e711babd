#!/bin/bash
# SPDX-License-Identifier: MIT
# CPUs isolated only by a cgroup v2 isolated partition (cpuset.cpus.isolated,
# no isolcpus=) are the RT CPUs when --rt-cpus is not given, as boot-isolated
# CPUs are: check, plan and tune take them from the machine tree, and say where
# they came from; without a partition (or where partitions cannot exist) there
# are none. The trees are tests/fixtures/partition (README there).
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || skip "no python3"
fx=$SRCDIR/tests/fixtures/partition
tmp=$(mktemp -d /tmp/rtr-partition-rtcpus.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# rt_of TREE WANT [TEXT]: check without --rt-cpus reports RT CPUs WANT ("" for
# none) in its host block, and cpu.isolation's evidence holds TEXT.
rt_of() {
	local tree=$1 want=$2 text=${3:-} rc=0
	timeout 60 "$RTREADY" check --root "$fx/$tree" --only cpu.isolation --format json \
		>"$tmp/check.json" 2>"$tmp/err" || rc=$?
	[ "$rc" -le 1 ] || { cat "$tmp/err"; fail "$tree: check exited $rc"; }
	python3 - "$tmp/check.json" "$tree" "$want" "$text" <<'PY' || fail "check on $tree"
import json, sys
d = json.load(open(sys.argv[1]))
tree, want, text = sys.argv[2:5]
assert d["host"]["rt_cpus"] == want, "%s: RT CPUs %r, expected %r" % (tree, d["host"]["rt_cpus"], want)
ev = d["checks"][0]["evidence"]
assert text in ev, "%s: %r not in %s" % (tree, text, ev)
PY
}

rt_of v2-isolated 2-3 "RT CPUs 2-3 (from isolated partition)"
python3 -c 'import json, sys; c = json.load(open(sys.argv[1]))["checks"][0]
assert c["status"] == "pass", c' "$tmp/check.json" || fail "v2-isolated: cpu.isolation does not pass"
rt_of v2-none ""
rt_of hybrid-v1 ""
rt_of old-kernel ""
# The invalid partition isolates nothing: the kernel lists no CPU for it.
rt_of v2-invalid ""
# --rt-cpus still wins.
timeout 60 "$RTREADY" check --root "$fx/v2-isolated" --rt-cpus 1 --only cpu.isolation \
	--format json >"$tmp/given.json" || [ $? -le 1 ] || fail "check --rt-cpus 1"
grep -q '"rt_cpus": "1"' "$tmp/given.json" || fail "--rt-cpus 1 did not win: $(head -c 400 "$tmp/given.json")"

# tune takes them too: the partition there is already right (it had no RT CPUs before).
timeout 60 "$RTREADY" tune --root "$fx/v2-isolated" --isolate --no-irqs --no-tasks \
	>"$tmp/tune.out" 2>&1 || { cat "$tmp/tune.out"; fail "tune --isolate without --rt-cpus"; }
grep -q "Dry run for RT CPUs 2-3" "$tmp/tune.out" || fail "tune: $(cat "$tmp/tune.out")"
grep -q "already right: /sys/fs/cgroup/rtready-isolated is an isolated partition of CPUs 2-3" \
	"$tmp/tune.out" || fail "tune: $(cat "$tmp/tune.out")"
echo "RT CPUs from partitions: 6 trees, check and tune"
