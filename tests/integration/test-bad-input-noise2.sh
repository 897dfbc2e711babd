#!/bin/bash
# SPDX-License-Identifier: MIT
# The bad-input table of `rtready latency --trace-all` (issue 27): the
# option needs --threshold and keeps no trace file; nothing of the user's is
# replaced by a refused run. Prints "N passed, N failed" at the end.
. "$(dirname "$0")/lib.sh"
. "$INTEG_DIR/table.sh"

row "--trace-all without --threshold" 2 "--trace-all needs --threshold US" \
	"$R" latency --trace-all -D 100ms
row "--trace-all with --trace-file" 2 "--trace-all keeps no trace file" \
	"$R" latency -b 100 --trace-all --trace-file "$T/t.txt" -D 100ms
assert "no trace file written" test ! -e "$T/t.txt"
echo keep >"$T/keep.json"
row "--trace-all refused, output kept" 2 "needs --threshold" \
	"$R" latency --trace-all -D 100ms -f json --output "$T/keep.json"
assert "the output file is untouched" grep -qx keep "$T/keep.json"
row "--trace-all takes no value" 2 "" "$R" latency -b 100 --trace-all=yes -D 100ms
row "--help names --trace-all" 0 "" "$R" latency --help
assert "--help names --trace-all" grep -q -- "--trace-all" "$T/out"
row "completion offers --trace-all" 0 "" "$R" --complete latency
assert "completion lists --trace-all" grep -q -- "--trace-all" "$T/out"

table_end
