# SPDX-License-Identifier: MIT
# Power cut during `tune --isolate --apply` (issue 28), first boot: the RT
# kernel without isolcpus, the journal on a virtio ext4 disk. tune is frozen
# (SIGSTOP) as soon as its journal and the partition's group exist, in the
# middle of its changes; the host then kills QEMU. Judged by matrix.py with the second boot
# (powercut-iso-2.sh).
mkdir -p /var/lib/rtready
n=0
while [ ! -b /dev/vda ] && [ $n -lt 50 ]; do sleep 0.1; n=$((n + 1)); done
mount -t ext4 /dev/vda /var/lib/rtready || echo "@@RTR-NOTE cannot mount the disk"
echo "written before the cut" >/var/lib/rtready/persist && sync
capture b1-cg-before cgtree
capture b1-tunables-before tunables
taskset -c 0 rtready tune --rt-cpus 2-3 --isolate --apply >/tmp/apply.out 2>&1 &
tune=$!
# Frozen once the partition's group exists (its steps are journaled first):
# the cut leaves a partition that only the reboot takes away.
n=0
while { [ ! -s /var/lib/rtready/tune.journal ] || [ ! -d /sys/fs/cgroup/rtready-isolated ]; } &&
	[ $n -lt 200000 ]; do n=$((n + 1)); done
kill -STOP "$tune"
capture b1-journal-at-cut cat /var/lib/rtready/tune.journal
capture b1-cg-at-cut cgtree
echo "@@RTR-CUT"
sleep 120
