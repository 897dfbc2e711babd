#!/bin/bash
# SPDX-License-Identifier: MIT
# The bad-input table of --isolate (issue 28): options that cannot go
# together, and machines where an isolated partition cannot be made (exit
# 2 with the reason, nothing made). The trees are tests/fixtures/partition.
. "$(dirname "$0")/lib.sh"
need_root
FX=$SRCDIR/tests/fixtures/partition
. "$INTEG_DIR/table.sh"

row "run --isolate without --cpus" 2 "--isolate needs --cpus" $R run --isolate -- true
row "run --isolate with --cpu-max" 2 "exclude each other" $R run --isolate --cpus 1 --cpu-max 20 -- true
row "run --isolate with --memory-max" 2 "exclude each other" \
	$R run --isolate --cpus 1 --memory-max 64M -- true
row "tune --isolate, cpuset on v1" 2 "cpuset controller is on a cgroup v1 hierarchy" \
	$R tune --root "$FX/hybrid-v1" --rt-cpus 2-3 --isolate
row "tune --isolate, kernel before 6.8" 2 "no /sys/fs/cgroup/cpuset.cpus.isolated" \
	$R tune --root "$FX/old-kernel" --rt-cpus 2-3 --isolate
row "tune --isolate, over an invalid partition" 2 "/rt is already a partition" \
	$R tune --root "$FX/v2-invalid" --rt-cpus 2-3 --isolate
row "tune --isolate, every CPU" 2 "leave no CPU" $R tune --root "$FX/v2-none" --rt-cpus 0-3 --isolate
# cgroup2 mounted elsewhere than /sys/fs/cgroup: the journal's paths could not name it.
cp -a "$FX/v2-none" "$T/elsewhere"
sed -i 's| /sys/fs/cgroup | /sys/fs/cgroup/unified |' "$T/elsewhere/proc/self/mountinfo"
mkdir -p "$T/elsewhere/sys/fs/cgroup/unified"
cp "$T/elsewhere/sys/fs/cgroup/cgroup."* "$T/elsewhere/sys/fs/cgroup/cpuset."* \
	"$T/elsewhere/sys/fs/cgroup/unified/" 2>/dev/null
row "tune --isolate, cgroup2 elsewhere" 2 "mounted at /sys/fs/cgroup/unified" \
	$R tune --root "$T/elsewhere" --rt-cpus 2-3 --isolate
# On this machine where cpuset is on v1 (the development VM): refused for real.
if awk '$9 == "cgroup" && $NF ~ /(^|,)cpuset(,|$)/ {f=1} END {exit !f}' /proc/self/mountinfo; then
	row "run --isolate, live cpuset on v1" 2 "run: --isolate: the cpuset controller is on a cgroup v1" \
		$R run --isolate --cpus "$(( $(nproc) - 1 ))" -- true
	assert "no partition left" test -z "$(ls -d /sys/fs/cgroup/unified/rtready-isolated* 2>/dev/null)"
fi
table_end
