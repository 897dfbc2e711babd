#!/bin/bash
# SPDX-License-Identifier: MIT
# Bad input around SCHED_DEADLINE (issue 29): latency's and run's
# --policy deadline with --runtime/--deadline/--period. Each row names the
# exit code and a piece of the message (helpers of table.sh).
. "$(dirname "$0")/lib.sh"
need_root
. "$INTEG_DIR/table.sh"

# ---- latency ----------------------------------------------------------------------------
row "latency --runtime without deadline" 2 "need --policy deadline" \
	"$R" latency --runtime 100 -D 1
row "latency --period with fifo" 2 "need --policy deadline" \
	"$R" latency --policy fifo --period 1000 -D 1
row "latency deadline without runtime" 2 "needs --runtime" \
	"$R" latency --policy deadline -D 1
row "latency runtime > deadline" 2 "runtime <= --deadline <= --period \(got 500.000, 400.000" \
	"$R" latency --policy deadline --runtime 500 --deadline 400 --period 1000 -D 1
row "latency deadline > period" 2 "runtime <= --deadline <= --period" \
	"$R" latency --policy deadline --runtime 100 --deadline 2ms --period 1ms -D 1
row "latency runtime below 1024 ns" 2 "1024 ns <= --runtime" \
	"$R" latency --policy deadline --runtime 1us --period 1ms -D 1
row "latency --priority with deadline" 2 "does not apply to --policy deadline" \
	"$R" latency --policy deadline -p 50 --runtime 100 --period 1000 -D 1
row "latency -i differs from --period" 2 "--interval and --period differ" \
	"$R" latency --policy deadline -i 500 --runtime 100 --period 1000 -D 1
row "latency bad unit" 2 "--runtime: '5x' is not a time" \
	"$R" latency --policy deadline --runtime 5x --period 1000 -D 1
row "latency empty runtime" 2 "--runtime: '' is not a time" \
	"$R" latency --policy deadline --runtime '' --period 1000 -D 1
row "latency bad policy" 2 "not fifo, rr or deadline" "$R" latency --policy edf -D 1
# More than the root domain admits: one whole CPU per thread, on every CPU.
row "latency admission refused" 2 "admission refused: runtime/period = 1000000/1000000 ns" \
	"$R" latency --policy deadline --runtime 1000 --period 1000 -D 1 -q
# The period may come from -i alone.
row "latency deadline from -i" 0 "" \
	"$R" latency --policy deadline --runtime 100 -i 2ms -D 50ms -q -t 1

# ---- run --------------------------------------------------------------------------------
row "run --runtime without deadline" 2 "need --policy deadline" "$R" run --runtime 100 -- true
row "run deadline without period" 2 "needs --runtime US and --period US" \
	"$R" run --policy deadline --runtime 100 -- true
row "run runtime > period" 2 "runtime <= --deadline <= --period \(got 2000.000, 1000.000" \
	"$R" run --policy deadline --runtime 2ms --period 1ms -- true
row "run --prio with deadline" 2 "--prio does not apply" \
	"$R" run --policy deadline -p 10 --runtime 100 --period 1ms -- true
row "run --cpus with deadline" 2 "--cpus cannot go with --policy deadline" \
	"$R" run --policy deadline -c 0 --runtime 100 --period 1ms -- true
row "run bad unit" 2 "--period: 'soon' is not a time" \
	"$R" run --policy deadline --runtime 100 --period soon -- true
row "run bad policy" 2 "not one of fifo, rr, other, deadline" "$R" run --policy edf -- true
row "run deadline" 0 "" "$R" run --policy deadline --runtime 100 --period 1ms -- true

table_end
