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
