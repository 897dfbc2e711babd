#!/bin/bash
# rtready latency, whole runs as root: sane JSON from a 2 s run on every CPU,
# the run ends on time, the histogram file has cyclictest's shape, a
# threshold stops early with exit 1, bad options are refused with exit 2;
# cyclictest's -l, -q, -h, -H, -N, -v and --json habits, compared line for
# line (digits aside) with the real cyclictest when it is installed.
# Never asserts absolute latencies: this may be a noisy VM.
. "$(dirname "$0")/lib.sh"
need_root
command -v python3 >/dev/null || skip "needs python3"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Refusals (exit 2, a message naming the problem).
expect_rc 2 "$RTREADY" latency -p 99
"$RTREADY" latency -p 99 2>&1 | grep -q 'priority 99 is refused' || fail "-p 99 message"
expect_rc 2 "$RTREADY" latency -i 1
expect_rc 2 "$RTREADY" latency --policy other
expect_rc 2 "$RTREADY" latency -a 4095 -D 1
"$RTREADY" latency -a 4095 -D 1 2>&1 | grep -q 'CPU 4095 is not online' || fail "-a offline message"
expect_rc 2 "$RTREADY" latency -t 4096 -D 1
expect_rc 2 "$RTREADY" latency --bucket 300 --histfile "$tmp/h"

# A 2 s run on every CPU, timed from outside.
t0=$(date +%s%N)
"$RTREADY" latency -D 2 -q -f json --output "$tmp/r.json" --histfile "$tmp/r.hist" -h 500 \
	|| fail "2 s run exited $?"
t1=$(date +%s%N)
ms=$(( (t1 - t0) / 1000000 ))
[ "$ms" -lt 2500 ] || fail "-D 2 took ${ms} ms (limit 2500)"
[ "$ms" -ge 2000 ] || fail "-D 2 took only ${ms} ms"

python3 - "$tmp/r.json" "$tmp/r.hist" "$(cat /sys/devices/system/cpu/online)" <<'PY' || fail "results"
import json, re, sys
text = open(sys.argv[1]).read()
assert text.count("\n") == 1 and text.endswith("}\n"), "not one compact line"
d = json.loads(text)
assert d["schema_version"] == 2
assert d["command"] == "latency" and d["tool"] == "rtready"
assert d["config"]["cpus"] == sys.argv[3], (d["config"]["cpus"], sys.argv[3])
assert d["config"]["priority"] == 80 and d["config"]["policy"] == "FIFO"
assert d["stop"]["reason"] == "duration"
expected = 2000  # 2 s / 1 ms
threads = d["threads"]
for t in threads:
    n, miss = t["samples"], t["missed"]
    # Every grid point is either a sample or counted as missed.
    # (A thread that starts late joins the grid later: allow 5% for that.)
    assert expected * 0.95 <= n + miss <= expected, ("samples+missed", t["cpu"], n, miss)
    assert n >= expected // 2, ("too few samples", n)
    assert t["min_ns"] <= t["p50_ns"] <= t["p99_ns"] <= t["p999_ns"] <= t["max_ns"], t
    assert t["min_ns"] <= t["avg_ns"] <= t["max_ns"]
    h = t["histogram"]
    assert h["bucket_ns"] == 1000 and h["range_ns"] == 500000
    # Sparse pairs [bucket index, count], non-empty buckets only, indexes rising.
    assert all(len(p) == 2 and p[1] > 0 for p in h["counts"]), h["counts"][:5]
    idx = [p[0] for p in h["counts"]]
    assert idx == sorted(set(idx)) and all(0 <= i < 500 for i in idx)
    assert sum(p[1] for p in h["counts"]) + t["overflows"] == n, "buckets + overflows != samples"
    assert len(t["outliers"]) == min(t["overflows"], 64)
    assert t["outliers"] == sorted(t["outliers"], reverse=True)
    assert all(v >= 500000 for v in t["outliers"])
s = d["summary"]
assert s["samples"] == sum(t["samples"] for t in threads)
assert s["overflows"] == sum(t["overflows"] for t in threads)
assert s["max_ns"] == max(t["max_ns"] for t in threads)
assert s["min_ns"] == min(t["min_ns"] for t in threads)
assert s["min_ns"] <= s["p50_ns"] <= s["p99_ns"] <= s["max_ns"]
assert d["dma_latency"]["held"] is False

# The histogram file, read the way cyclictest's plot scripts read it.
lines = open(sys.argv[2]).read().split("\n")
assert lines[0] == "# Histogram"
rows = [l for l in lines if re.match(r"^\d{6} ", l)]
assert len(rows) == 500, len(rows)
cols = [list(map(int, l.split())) for l in rows]
assert [c[0] for c in cols] == list(range(500))
assert all(len(c) == 1 + len(threads) for c in cols)
assert all("\t" in l for l in rows) or len(threads) == 1
def trailer(name):
    l = [x for x in lines if x.startswith("# " + name + ":")]
    assert len(l) == 1, name
    return list(map(int, l[0].split(":")[1].split()))
total, ovf = trailer("Total"), trailer("Histogram Overflows")
mx, mn = trailer("Max Latencies"), trailer("Min Latencies")
for i, t in enumerate(threads):
    assert sum(c[1 + i] for c in cols) == total[i] == t["samples"] - t["overflows"]
    assert ovf[i] == t["overflows"]
    assert mx[i] == t["max_ns"] // 1000 and mn[i] == t["min_ns"] // 1000
assert "# Histogram Overflow at cycle number:" in lines
for i in range(len(threads)):
    assert any(l.startswith("# Thread %d:" % i) for l in lines)
PY

# --threshold: stops at the first late wake-up, names it, exits 1.
t0=$(date +%s%N)
rc=0
"$RTREADY" latency --threshold 1 -D 10 -q >"$tmp/thr.out" 2>"$tmp/thr.err" || rc=$?
t1=$(date +%s%N)
[ "$rc" -eq 1 ] || fail "--threshold 1 exited $rc"
[ $(( (t1 - t0) / 1000000 )) -lt 3000 ] || fail "--threshold did not stop early"
grep -Eq 'threshold 1\.0 us exceeded on CPU [0-9]+ at wake-up [0-9]+: [0-9.]+ us' "$tmp/thr.err" \
	|| fail "threshold message: $(cat "$tmp/thr.err")"
grep -q 'threshold' "$tmp/thr.out" || fail "threshold not in the summary"

# -a and -t pick CPUs; --format text has one row per CPU.
"$RTREADY" latency -a 0 -D 300ms -q -f json | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert [t["cpu"] for t in d["threads"]] == [0], d["threads"]' || fail "-a 0"
"$RTREADY" latency -t 1 -D 200ms -q | grep -Eq '^ +[0-9]+ +[0-9]+ +[0-9]+ ' || fail "-t 1 text"
# cyclictest habits: -l, -q T: lines, -q -h histogram alone, -H, -N, -v, --json=FILE.
ncpu=$(python3 -c 'import os; print(len(os.sched_getaffinity(0)))')
t0=$(date +%s%N)
"$RTREADY" latency -q -l 300 -i 1000 --json="$tmp/l.json" >"$tmp/l.txt" || fail "-l 300 exited $?"
t1=$(date +%s%N)
[ $(( (t1 - t0) / 1000000 )) -lt 3000 ] || fail "-l 300 at 1 ms took $(( (t1 - t0) / 1000000 )) ms"
n=$(grep -Ec '^T: ?[0-9]+ \( *[0-9]+\) P:80 I:1000 C: +300 Min: +[0-9]+ Act: +[0-9]+ Avg: +[0-9]+ Max: +[0-9]+$' "$tmp/l.txt")
[ "$n" -ge 1 ] && [ "$n" = "$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["threads"]))' "$tmp/l.json")" ] ||
	fail "-q T: lines: $(cat "$tmp/l.txt")"
grep -q 'samples' "$tmp/l.txt" || fail "-q: the table is missing after the T: lines"
python3 - "$tmp/l.json" <<'PY' || fail "--json with -l"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["stop"]["reason"] == "loops", d["stop"]
assert d["config"]["loops"] == 300
assert all(t["samples"] == 300 for t in d["threads"]), [t["samples"] for t in d["threads"]]
PY
"$RTREADY" latency -q -N -l 50 | grep -Eq '^T: 0 \( *[0-9]+\) P:80 I:1000 C: +50 Min: +[0-9]{4,} Act: +[0-9]+ Avg: +[0-9]{4,} Max: +[0-9]{4,}$' ||
	fail "-N T: lines"
# -q -h: the histogram alone, as cyclictest prints it.
"$RTREADY" latency -q -l 200 -h 20 >"$tmp/h.txt" || fail "-q -h exited $?"
python3 - "$tmp/h.txt" "$ncpu" 0 <<'PY' || fail "-q -h layout: $(cat "$tmp/h.txt")"
import re, sys
text, ncpu, extra = open(sys.argv[1]).read(), int(sys.argv[2]), int(sys.argv[3])
lines = text.split("\n")
assert lines[0] == "# Histogram", lines[0]
rows = [l for l in lines if l and not l.startswith("#")]
assert len(rows) == 20, len(rows)
for i, l in enumerate(rows):
    assert re.fullmatch(r"%06d \d{6}(\t\d{6}){%d}" % (i, ncpu - 1 + extra), l), l
heads = [l.split(":")[0] for l in lines[1:] if l.startswith("# ")]
assert heads[:6] == ["# Total", "# Min Latencies", "# Avg Latencies", "# Max Latencies",
                     "# Histogram Overflows", "# Histogram Overflow at cycle number"], heads
assert heads[6:] == ["# Thread %d" % i for i in range(ncpu)], heads
assert text.endswith("\n\n")
PY
if [ "$ncpu" -gt 1 ]; then
	"$RTREADY" latency -q -l 200 -H 20 >"$tmp/H.txt" || fail "-q -H exited $?"
	python3 - "$tmp/H.txt" "$ncpu" 1 <<'PY' || fail "-q -H layout: $(cat "$tmp/H.txt")"
import re, sys
text, ncpu = open(sys.argv[1]).read(), int(sys.argv[2])
rows = [l for l in text.split("\n") if l and not l.startswith("#")]
for l in rows:
    cols = list(map(int, l.split()))
    assert len(cols) == ncpu + 2 and cols[-1] == sum(cols[1:-1]), l
tr = {l.split(":")[0]: l.split(":")[1].split() for l in text.split("\n") if l.startswith("# ") and ":" in l}
assert len(tr["# Total"]) == len(tr["# Max Latencies"]) == len(tr["# Histogram Overflows"]) == ncpu + 1
assert len(tr["# Min Latencies"]) == len(tr["# Avg Latencies"]) == ncpu
assert int(tr["# Total"][-1]) == sum(map(int, tr["# Total"][:-1]))
PY
fi
# Side by side with the real cyclictest when it is installed: the same lines, digits aside.
if command -v cyclictest >/dev/null; then
	# Each number with the blanks before it becomes its field width: the values differ,
	# the layout must not.
	norm() {
		grep -v 'cpu_dma_latency' | sed -e 's/^\(# Thread [0-9]*:\).*/\1/' |
			python3 -c 'import re, sys
for l in sys.stdin:
    sys.stdout.write(re.sub(r" *[0-9]+", lambda m: "<%d>" % len(m.group(0)), l))'
	}
	cyclictest -q -m -p 80 -i 1000 -l 200 -h 20 -t 1 -a 0 2>/dev/null | norm >"$tmp/ct.txt"
	"$RTREADY" latency -q -m -p 80 -i 1000 -l 200 -h 20 -t 1 -a 0 | norm >"$tmp/rt.txt"
	diff "$tmp/ct.txt" "$tmp/rt.txt" >&2 || fail "-q -h differs from cyclictest's"
	cyclictest -q -m -p 80 -i 1000 -l 200 -t 1 -a 0 2>/dev/null | norm >"$tmp/ct.txt"
	"$RTREADY" latency -q -m -p 80 -i 1000 -l 200 -t 1 -a 0 | head -n 1 | norm >"$tmp/rt.txt"
	diff "$tmp/ct.txt" "$tmp/rt.txt" >&2 || fail "-q T: line differs from cyclictest's"
	cyclictest -v -m -p 80 -i 1000 -l 5 -t 1 -a 0 2>/dev/null | grep -E '^ +[0-9]+:' | norm >"$tmp/ct.txt"
	"$RTREADY" latency -v -l 5 -t 1 -a 0 | grep -E '^ +[0-9]+:' | norm >"$tmp/rt.txt"
	diff "$tmp/ct.txt" "$tmp/rt.txt" >&2 || fail "-v lines differ from cyclictest's"
fi
# -v: every sample of every thread, in order.
"$RTREADY" latency -v -l 40 -i 500 >"$tmp/v.txt" || fail "-v exited $?"
python3 - "$tmp/v.txt" "$ncpu" <<'PY' || fail "-v samples"
import re, sys
seen = {}
for l in open(sys.argv[1]):
    m = re.fullmatch(r" {0,7}(\d+): {0,7}(\d+): {0,7}(\d+)\n", l)
    if m:
        t, c = int(m.group(1)), int(m.group(2))
        assert c == seen.get(t, -1) + 1, (t, c)
        seen[t] = c
assert sorted(seen) == list(range(int(sys.argv[2]))) and all(c == 39 for c in seen.values()), seen
PY
# Options that no cyclictest habit explains are still refused.
rc=0
"$RTREADY" latency -Z >/dev/null 2>"$tmp/z.err" || rc=$?
[ "$rc" -eq 2 ] && grep -q "unknown option '-Z'" "$tmp/z.err" || fail "-Z: exit $rc, $(cat "$tmp/z.err")"
expect_rc 2 "$RTREADY" latency -v -f json
expect_rc 2 "$RTREADY" latency -l 0

# --pretty: the same document, indented.
"$RTREADY" latency -q -l 100 -f json --pretty >"$tmp/p.json" || fail "--pretty exited $?"
[ "$(wc -l <"$tmp/p.json")" -gt 20 ] && grep -q '^  "schema_version": 2,$' "$tmp/p.json" ||
	fail "--pretty is not indented"

# --load: the load runs during the measurement and is reported.
"$RTREADY" latency --load cpu -D 1 -q -f json | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["config"]["load"] == "cpu"
assert d["load"]["kind"] == "cpu" and d["load"]["cpu_loops"] > 0 and d["load"]["error"] is None, d["load"]
assert all(t["samples"] > 0 for t in d["threads"])' || fail "--load cpu"
echo ok
