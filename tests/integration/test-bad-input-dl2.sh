#!/bin/bash
# SPDX-License-Identifier: MIT
# Bad input around SCHED_DEADLINE, second table (issue 29 review): option
# combinations that cannot do what they say with --policy deadline. Each
# row names the exit code and a piece of the message (helpers of table.sh).
. "$(dirname "$0")/lib.sh"
need_root
. "$INTEG_DIR/table.sh"

# cpu.max throttles the fair class only: it would not cap a DEADLINE program.
row "run --cpu-max with deadline" 2 "--cpu-max caps non-realtime programs only.*--runtime per" \
	"$R" run --policy deadline --runtime 100 --period 1ms --cpu-max 50 -- true
row "run --cpu-max with fifo" 2 "--cpu-max caps non-realtime programs only" \
	"$R" run --policy fifo --cpu-max 50 -- true
row "run --memory-max with deadline" 0 "" \
	"$R" run --policy deadline --runtime 100 --period 1ms --memory-max 64M -- true

table_end
