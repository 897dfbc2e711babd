# SPDX-License-Identifier: MIT
# Root cause on a real RT kernel (timerlat and osnoise tracers built in): a
# FIFO 90 hog on CPU 3 spins 150 ms every 500 ms; `rtready latency --trace`
# at FIFO 80 must stop at the spike and name the hog, and Debian's rtla
# (timerlat, its thread at FIFO 80 too) must stop on the same hog. Under TCG
# a wake-up can be tens of ms late anyway, hence the 100 ms threshold.
/opt/progs/hog 3 90 150 500 60 >/tmp/hog.out 2>&1 &
hog=$!
sleep 1
run trace 90 rtready latency -a 3 -b 100000 --trace --trace-file /tmp/lat-trace.txt -q \
	--format json -D 20s --bucket 100000
capture trace-file-hog sh -c 'grep -c rtr-hog /tmp/lat-trace.txt'
cd /tmp
run rtla 90 rtla timerlat top -c 3 -a 100000 -P f:80 -d 20s -q
capture rtla-trace-hog sh -c 'grep -c rtr-hog /tmp/timerlat_trace.txt'
capture rtla-hog-noise sh -c 'grep "thread_noise: *rtr-hog" /tmp/timerlat_trace.txt | tail -n 3'
capture rtla-trace-tail sh -c 'tail -n 30 /tmp/timerlat_trace.txt'
cd /
kill "$hog" 2>/dev/null
block hog.out /tmp/hog.out
