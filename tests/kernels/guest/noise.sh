# SPDX-License-Identifier: MIT
# rtready noise beside rtla osnoise on the RT kernel (osnoise tracer built
# in), on the isolated CPU 3 with a known hog: rtr-hog at FIFO 90 spins
# 5 ms every 100 ms. Each tool measures 10 s in turn, at SCHED_OTHER (rtla
# osnoise's default; no RT throttling in either) and with the same 1 ms
# threshold, over the TCG noise of this guest; the host compares the noise
# totals and the counts by kind (rtla: HW, NMI, IRQ, Softirq, Thread).
/opt/progs/hog 3 90 5 100 40 >/tmp/hog.out 2>&1 &
hog=$!
sleep 1
run noise 60 rtready noise -a 3 -D 10s --policy other --threshold 1000 --format json \
	--gaps /tmp/gaps.tsv
capture noise-hog-gaps sh -c 'grep -c "	rtr-hog$" /tmp/gaps.tsv'
cd /tmp
run osnoise 60 rtla osnoise top -c 3 -d 10s -T 1000 -q
cd /
kill "$hog" 2>/dev/null
block hog.out /tmp/hog.out
