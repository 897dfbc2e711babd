# SPDX-License-Identifier: MIT
# Power cut during `tune --apply`, first boot: the journal lives on a
# virtio disk (ext4). tune is frozen (SIGSTOP) as soon as its journal has
# been saved twice, i.e. in the middle of its changes; then the host kills
# QEMU with SIGKILL: nothing is synced or closed after that. Judged by matrix.py with
# the second boot (powercut-2.sh).
mkdir -p /var/lib/rtready
# virtio_blk probes in the background: wait for the disk (5 s at most).
n=0
while [ ! -b /dev/vda ] && [ $n -lt 50 ]; do sleep 0.1; n=$((n + 1)); done
mount -t ext4 /dev/vda /var/lib/rtready || echo "@@RTR-NOTE cannot mount the disk"
echo "written before the cut" >/var/lib/rtready/persist && sync
capture b1-tunables-before tunables
taskset -c 0 rtready tune --apply >/tmp/apply.out 2>&1 &
tune=$!
# Spin on the other housekeeping CPU until the journal appears, then until
# it is replaced (a later save, before the next batch of changes). The
# name appears at the first save's rename, before that save syncs the
# directory: frozen there, the cut takes the rename back (the journal is
# not durable yet and nothing has changed; seen once in CI). Replaced, the
# first save is whole and changes have begun.
n=0
while [ ! -s /var/lib/rtready/tune.journal ] && [ $n -lt 200000 ]; do n=$((n + 1)); done
ino() { set -- $(ls -i /var/lib/rtready/tune.journal 2>/dev/null); echo "${1:-}"; }
first=$(ino)
n=0
while [ "$(ino)" = "$first" ] && [ $n -lt 20000 ]; do n=$((n + 1)); done
kill -STOP "$tune"
capture b1-journal-at-cut cat /var/lib/rtready/tune.journal
capture b1-tunables-at-cut tunables
echo "@@RTR-CUT"
# The host kills QEMU now; never reached unless it does not.
sleep 120
