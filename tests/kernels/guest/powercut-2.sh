# SPDX-License-Identifier: MIT
# Power cut during `tune --apply`, second boot on the same disk: the journal
# is whole, says it comes from an earlier boot, and --revert does not replay
# it on values the reboot already reset; a new apply and revert restore every
# value exactly. Judged by matrix.py.
mkdir -p /var/lib/rtready
# virtio_blk probes in the background: wait for the disk (5 s at most).
n=0
while [ ! -b /dev/vda ] && [ $n -lt 50 ]; do sleep 0.1; n=$((n + 1)); done
mount -t ext4 /dev/vda /var/lib/rtready || echo "@@RTR-NOTE cannot mount the disk"
capture b2-state-dir ls -la /var/lib/rtready
capture b2-persist cat /var/lib/rtready/persist
capture b2-tunables-boot tunables
run b2-status 60 rtready tune --status --format json
run b2-revert 60 rtready tune --revert
capture b2-tunables-after-revert tunables
run b2-apply 60 rtready tune --apply
run b2-revert-new 60 rtready tune --revert
capture b2-tunables-final tunables
capture b2-state-dir-final ls -la /var/lib/rtready
umount /var/lib/rtready
