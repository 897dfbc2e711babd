# SPDX-License-Identifier: MIT
# x86-64 PREEMPT_RT with an RT command line (isolcpus, nohz_full, rcu_nocbs,
# irqaffinity): the whole tool on the release binary. Judged by matrix.py.
run check 180 rtready check --format json
capture tunables-before tunables
run tune-apply 120 rtready tune --apply
capture tunables-applied tunables
run check-tuned 180 rtready check --format json
run tune-revert 120 rtready tune --revert
capture tunables-after tunables
# Under TCG a wake-up can be milliseconds late: stretch the rounds so that
# LOW holds the lock before HIGH wakes, as on real hardware at the defaults.
run pi 120 rtready pi --format json --rounds 10 --cs 20ms --medium 60ms
# 100 us buckets: the JSON histogram stays small on a slow serial console.
run latency 60 rtready latency -D 3s -q --format json --bucket 100000
# SCHED_DEADLINE (issue 29): one thread per CPU, each bound to its CPU's root
# domain (0-1, or the isolcpus CPUs 2-3), so every CPU is measured.
run latency-dl 60 rtready latency --policy deadline --runtime 300 --period 2ms -D 3s -q \
	--format json --bucket 100000
# Two programs of ours holding half a CPU each in the main root domain: check's
# figure counts them, and a third asking 99% of a CPU does not fit (admission).
rtready run --policy deadline --runtime 500ms --period 1s -- sleep 60 &
dl1=$!
rtready run --policy deadline --runtime 500ms --period 1s -- sleep 60 &
dl2=$!
sleep 2
run check-dl 120 rtready check --only sched.deadline_bandwidth --format json
run run-dl-busy 30 rtready run --policy deadline --runtime 990ms --period 1s -- /opt/progs/pass_good
kill "$dl1" "$dl2"
wait "$dl1" "$dl2" 2>/dev/null
run load 60 rtready load -D 3s --cpu 1 -g 2 -f 4 -l 20 -q
# The difference the boot line makes (issue 27): rtready noise at once on
# CPU 1 (housekeeping) and CPU 2 (isolcpus, nohz_full, rcu_nocbs).
run noise-boot 90 rtready noise -a 1-2 -D 5s --format json -o /tmp/noise.json
nohist noise-boot.json /tmp/noise.json
# isolcpus=domain leaves init on 0-1: the app is started on the RT CPUs.
taskset -c 2-3 /opt/progs/rt-app -D 10s -c 3 -q >/tmp/rt-app.out 2>&1 &
app=$!
sleep 2
run inspect 60 rtready inspect --format json --window 1s "$app"
wait "$app"
block rt-app.out /tmp/rt-app.out
run run-good 60 rtready run --check --format json --report /tmp/good.json -- /opt/progs/pass_good
block run-good.json /tmp/good.json
run run-bad 60 rtready run --check --format json --report /tmp/bad.json -- /opt/progs/fail_mutex_no_pi
block run-bad.json /tmp/bad.json
run verify 240 rtready verify -D 2s --report /tmp/verify --quiet
capture verify-files ls /tmp/verify
capture irqs cat /proc/interrupts
# Which IRQs the kernel manages (when CONFIG_GENERIC_IRQ_DEBUGFS shows it).
capture irq-managed sh -c 'for f in /sys/kernel/debug/irq/irqs/*; do grep -q AFFINITY_MANAGED "$f" && echo "${f##*/}"; done 2>/dev/null'
snapshot x86_64-rt
