# SPDX-License-Identifier: MIT
# Power cut during `tune --isolate --apply`, second boot on the same disk: the
# reboot took the partition away with the rest; the journal is whole and from
# an earlier boot, --revert changes nothing (the cgroup tree included); a new
# --isolate --apply makes the partition and its --revert restores every value
# and the cgroup tree. Judged by matrix.py.
mkdir -p /var/lib/rtready
n=0
while [ ! -b /dev/vda ] && [ $n -lt 50 ]; do sleep 0.1; n=$((n + 1)); done
mount -t ext4 /dev/vda /var/lib/rtready || echo "@@RTR-NOTE cannot mount the disk"
capture b2-state-dir ls -la /var/lib/rtready
capture b2-persist cat /var/lib/rtready/persist
capture b2-cg-boot cgtree
capture b2-tunables-boot tunables
run b2-status 60 rtready tune --status --format json
run b2-revert 60 rtready tune --revert
capture b2-cg-after-revert cgtree
capture b2-tunables-after-revert tunables
run b2-apply 120 rtready tune --rt-cpus 2-3 --isolate --apply
capture b2-cg-applied cgtree
run b2-revert-new 60 rtready tune --revert
capture b2-cg-final cgtree
capture b2-tunables-final tunables
umount /var/lib/rtready
