# SPDX-License-Identifier: MIT
# Debian's generic 6.12 (PREEMPT_DYNAMIC) booted with preempt=full: the
# live mode comes from debugfs; the fair server is judged. Judged by matrix.py.
capture debugfs-preempt cat /sys/kernel/debug/sched/preempt
run check 180 rtready check --format json
snapshot x86_64-generic-full
