# SPDX-License-Identifier: MIT
# 32-bit Arm (armmp) PREEMPT_RT on -M virt with the RT command line: check,
# pi, latency, run --check (the release binary uses a 64-bit time_t; the
# test programs the C library's default). Judged by matrix.py.
run check 180 rtready check --format json
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
snapshot armhf-rt
# The checker on programs built with a 64-bit time_t (logged by matrix.py).
run run-good-t64 60 rtready run --check --format json --report /tmp/g64.json -- /opt/progs/pass_good_t64
block run-good-t64.json /tmp/g64.json
run run-relsleep-t64 60 rtready run --check --format json --report /tmp/r64.json -- /opt/progs/fail_relative_sleep_t64
block run-relsleep-t64.json /tmp/r64.json
# Which frame the checker names for an allocation in a static function (logged).
run run-alloc 60 rtready run --check --format json --report /tmp/alloc.json -- /opt/progs/fail_alloc_in_rt
block run-alloc.json /tmp/alloc.json
