# SPDX-License-Identifier: MIT
# arm64 PREEMPT_RT (-M virt -cpu max) with the RT command line: check, tune
# apply and revert, pi, latency, run --check. Judged by matrix.py.
run check 180 rtready check --format json
capture tunables-before tunables
# RT CPUs 1-3, wider than the boot line's 2-3: the boot did not already move
# the IRQs and the workqueue mask off CPU 1, so tune must, and put them back.
run tune-apply 120 rtready tune --apply --rt-cpus 1-3
capture tunables-applied tunables
run tune-revert 120 rtready tune --revert
capture tunables-after tunables
# Under TCG a wake-up can be milliseconds late: stretch the rounds so that
# LOW holds the lock before HIGH wakes, as on real hardware at the defaults.
run pi 120 rtready pi --format json --rounds 10 --cs 20ms --medium 60ms
# 100 us buckets: the JSON histogram stays small on a slow serial console.
run latency 60 rtready latency -D 3s -q --format json --bucket 100000
run run-good 60 rtready run --check --format json --report /tmp/good.json -- /opt/progs/pass_good
block run-good.json /tmp/good.json
run run-bad 60 rtready run --check --format json --report /tmp/bad.json -- /opt/progs/fail_mutex_no_pi
block run-bad.json /tmp/bad.json
capture irqs cat /proc/interrupts
# Which IRQs the kernel manages (when CONFIG_GENERIC_IRQ_DEBUGFS shows it).
capture irq-managed sh -c 'for f in /sys/kernel/debug/irq/irqs/*; do grep -q AFFINITY_MANAGED "$f" && echo "${f##*/}"; done 2>/dev/null'
snapshot aarch64-rt
# Which frame the checker names for an allocation in a static function (logged).
run run-alloc 60 rtready run --check --format json --report /tmp/alloc.json -- /opt/progs/fail_alloc_in_rt
block run-alloc.json /tmp/alloc.json
