#!/bin/bash
# rtready report on the sample results: exit codes, the HTML is one
# self-contained page, the JUnit XML validates with xmllint, the Prometheus
# text parses (a strict parser below), hostile text stays text, and every
# damaged file is refused with exit 2 and a message naming it.
. "$(dirname "$0")/lib.sh"
FIX="$SRCDIR/tests/fixtures/results"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

# A check, an idle and a loaded latency run of one host make one result.
expect_rc 1 "$RTREADY" report "$FIX/check.json" "$FIX/latency-idle.json" "$FIX/latency-load.json" \
	-o "$T/one.html" --junit "$T/one.xml" --prometheus "$T/one.prom"
grep -q '1 result:' "$T/one.html" || fail "complementary files did not merge"
[ "$(grep -o '<svg class="hist"' "$T/one.html" | wc -l)" -eq 4 ] || fail "expected 4 CPU plots"
[ "$(grep -o '<svg class="exceed"' "$T/one.html" | wc -l)" -eq 4 ] ||
	fail "expected an exceedance plot per CPU"
grep -q '<path class="idle"' "$T/one.html" && grep -q '<path class="load"' "$T/one.html" ||
	fail "idle and loaded runs are not overlaid"
# Before/after: side by side; the stored verdict of the "after" file is shown.
expect_rc 1 "$RTREADY" report "$FIX/verify-before.json" "$FIX/verify-after.json" -o "$T/ba.html" \
	--junit "$T/ba.xml" --prometheus "$T/ba.prom"
grep -q '2 results:' "$T/ba.html" || fail "before/after not side by side"
grep -q 'within the 100 us limit' "$T/ba.html" || fail "stored verdict not shown"
# The passing result alone exits 0; --strict does not change a clean pass.
expect_rc 0 "$RTREADY" report "$FIX/verify-after.json" -o "$T/after.html" --strict
# A limit judges every CPU again: 10 us is below every maximum.
expect_rc 1 "$RTREADY" report "$FIX/verify-after.json" --max-latency 10us --junit "$T/lim.xml"
[ ! -e "$T/lim.html" ] || fail "an HTML page nobody asked for"
grep -q 'failures="8"' "$T/lim.xml" || fail "8 CPU thresholds should fail at 10 us"
# Warnings fail only with --strict.
echo '{"tool":"rtready","command":"check","checks":[{"id":"a.b","status":"warn"}]}' >"$T/w.json"
expect_rc 0 "$RTREADY" report "$T/w.json" --junit "$T/w.xml"
grep -q 'failures="0"' "$T/w.xml" || fail "a warning is a JUnit failure without --strict"
expect_rc 1 "$RTREADY" report "$T/w.json" --junit "$T/w.xml" --strict
grep -q 'failures="1"' "$T/w.xml" || fail "a warning is not a JUnit failure with --strict"

# Self-contained: no script, nothing fetched; print styles present.
for f in "$T/one.html" "$T/ba.html"; do
	[ "$(grep -ci '<script' "$f")" -le 1 ] || fail "$f has more than its one script"
	grep -qi '<script[^>]*src' "$f" && fail "$f loads a script"
	grep -Eqi '(src|href)="(https?:)?//' "$f" && fail "$f refers to the network"
	grep -q "Content-Security-Policy" "$f" || fail "$f lacks its CSP"
	grep -q '@media print' "$f" || fail "$f lacks print styles"
done

# JUnit validates.
for f in "$T/one.xml" "$T/ba.xml" "$T/lim.xml"; do
	xmllint --noout "$f" || fail "$f is not well-formed XML"
done

# Hostile strings: escaped in HTML, well-formed XML, valid exposition.
expect_rc 1 "$RTREADY" report "$FIX/hostile.json" -o "$T/h.html" --junit "$T/h.xml" \
	--prometheus "$T/h.prom"
grep -q "<script>alert" "$T/h.html" && fail "hostile text reached the page unescaped"
grep -q "&lt;script&gt;alert" "$T/h.html" || fail "hostile text missing from the page"
xmllint --noout "$T/h.xml" || fail "hostile JUnit is not well-formed"
# No raw control character reaches the page.
LC_ALL=C grep -qP '[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]' "$T/h.html" && fail "control characters in the page"

# Prometheus text parses: a strict parser of the 0.0.4 text format.
cat >"$T/promparse.py" <<'PY'
import re, sys
NAME = re.compile(r'[a-zA-Z_:][a-zA-Z0-9_:]*')
LNAME = re.compile(r'[a-zA-Z_][a-zA-Z0-9_]*')
def labels(s, i):
    out = {}
    if i >= len(s) or s[i] != '{':
        return out, i
    i += 1
    while s[i] != '}':
        m = LNAME.match(s, i)
        if not m: raise ValueError('label name at %d' % i)
        k = m.group(0); i = m.end()
        if s[i:i + 2] != '="': raise ValueError('="')
        i += 2; v = ''
        while s[i] != '"':
            if s[i] == '\\':
                if s[i + 1] not in '\\"n': raise ValueError('bad escape')
                v += {'n': '\n'}.get(s[i + 1], s[i + 1]); i += 2
            elif s[i] == '\n': raise ValueError('raw newline')
            else: v += s[i]; i += 1
        i += 1
        if k in out: raise ValueError('label twice')
        out[k] = v
        if s[i] == ',': i += 1
        elif s[i] != '}': raise ValueError('after label')
    return out, i + 1
fams, seen, series, current = {}, set(), set(), None
for n, line in enumerate(open(sys.argv[1], encoding='utf-8').read().split('\n')[:-1], 1):
    try:
        if line.startswith('# HELP '):
            current = line.split(' ')[2]
            if current in seen: raise ValueError('family split')
            seen.add(current)
        elif line.startswith('# TYPE '):
            _, _, name, typ = line.split(' ')
            if name != current or typ not in ('gauge', 'counter', 'untyped'): raise ValueError('TYPE')
            fams[name] = 0
        else:
            m = NAME.match(line)
            if not m or m.group(0) != current: raise ValueError('sample outside its family')
            lab, i = labels(line, m.end())
            if line[i] != ' ': raise ValueError('no value')
            float(line[i + 1:])
            key = (current, tuple(sorted(lab.items())))
            if key in series: raise ValueError('duplicate series')
            series.add(key); fams[current] += 1
    except (ValueError, IndexError) as e:
        sys.exit('%s:%d: %s: %r' % (sys.argv[1], n, e, line))
if not fams or not all(fams.values()):
    sys.exit('%s: empty family or no family' % sys.argv[1])
need = sys.argv[2:]
missing = [f for f in need if f not in fams]
if missing: sys.exit('%s: missing %s' % (sys.argv[1], missing))
PY
python3 "$T/promparse.py" "$T/one.prom" rtready_check_status rtready_latency_max_seconds \
	rtready_latency_p99_seconds rtready_verdict || fail "one.prom does not parse"
python3 "$T/promparse.py" "$T/ba.prom" rtready_check_status rtready_latency_limit_seconds ||
	fail "ba.prom does not parse"
python3 "$T/promparse.py" "$T/h.prom" rtready_check_status || fail "h.prom does not parse"
grep -q 'rtready_check_status{host="rig-07",result="verify-after.json",id="irq.affinity",area="irq",status="pass"} 1' "$T/ba.prom" ||
	grep -q 'result=".*verify-after.json",id="irq.affinity",area="irq",status="pass"} 1' "$T/ba.prom" ||
	fail "check status series missing"
# The parser catches what it must (so the checks above can fail).
printf '# HELP a x\n# TYPE a gauge\na{x="1\\q"} 1\n' >"$T/bad.prom"
python3 "$T/promparse.py" "$T/bad.prom" 2>/dev/null && fail "parser accepted a bad escape"

# Damaged inputs: exit 2, a message naming the file, nothing written.
for f in "$FIX"/bad-*.json; do
	rm -f "$T/bad.html"
	rc=0
	timeout 20 "$RTREADY" report "$f" -o "$T/bad.html" 2>"$T/err" || rc=$?
	[ "$rc" -eq 2 ] || fail "$(basename "$f"): exit $rc, expected 2"
	grep -q "rtready: report: .*$(basename "$f")" "$T/err" || fail "$(basename "$f"): no message"
	[ ! -e "$T/bad.html" ] || fail "$(basename "$f"): output written"
done
# A device, a directory, a FIFO without writer, a file past the size cap.
expect_rc 2 "$RTREADY" report /dev/zero -o "$T/x.html"
expect_rc 2 "$RTREADY" report "$T" -o "$T/x.html"
mkfifo "$T/fifo"
expect_rc 2 "$RTREADY" report "$T/fifo" -o "$T/x.html"
truncate -s 65M "$T/big.json"
expect_rc 2 "$RTREADY" report "$T/big.json" -o "$T/x.html"
# Standard input and pipes work.
"$RTREADY" report - -o "$T/stdin.html" <"$FIX/check.json" >/dev/null 2>&1
[ -s "$T/stdin.html" ] || fail "report from standard input"
# Usage errors.
expect_rc 2 "$RTREADY" report
expect_rc 2 "$RTREADY" report "$FIX/check.json" -o "$T/a" --junit "$T/a"
expect_rc 2 "$RTREADY" report "$FIX/check.json" --max-latency soon
expect_rc 2 "$RTREADY" report "$FIX/check.json" -o /nonexistent/dir/r.html
# A live noise run with a known cause (noise-inject, SCHED_FIFO 98, 50 us every
# 5 ms on the measured CPU): the page shows its availability and its cause table,
# the injector named; and it lints where python3-html5lib is installed.
ncpu=$(python3 -c 'import os; print(max(os.sched_getaffinity(0)))')
if [ -n "${NOISE_INJECT:-}" ] && [ "$ncpu" -gt 0 ] &&
	"$RTREADY" noise -a "$ncpu" -D 50ms >/dev/null 2>&1; then
	timeout 60 "$RTREADY" noise -a "$ncpu" -D 2s -f json -o "$T/noise.json" 2>"$T/nerr" &
	npid=$!
	# The injections must fall inside the run: wait (at most 10 s) for its spinner.
	for i in $(seq 1 200); do
		child=$(pgrep -P "$npid" | head -1)
		grep -qx "rtr-noise/$ncpu" /proc/"${child:-0}"/task/*/comm 2>/dev/null && break
		sleep 0.05
	done
	sleep 0.1
	"$NOISE_INJECT" "$ncpu" 5000 50 800 >/dev/null || fail "noise-inject failed"
	wait "$npid" || { cat "$T/nerr"; fail "rtready noise failed"; }
	expect_rc 0 "$RTREADY" report "$T/noise.json" -o "$T/noise.html"
	grep -q '<section id="noise">' "$T/noise.html" || fail "no noise section"
	grep -q "<td><a href=\"#noise-0-cpu-$ncpu\">CPU $ncpu</a></td><td class=\"n\">[0-9]*\.[0-9]\{5\}</td>" \
		"$T/noise.html" || fail "no availability with 5 decimals for CPU $ncpu"
	if grep -q '"source": *"trace"' "$T/noise.json"; then
		grep -q '<tr><td>thread</td><td>noise-inject/[0-9]*</td><td class="n">[0-9]' \
			"$T/noise.html" || fail "the injector is not in the cause table"
	fi
	for p in /usr/bin/python3 python3; do
		if "$p" -c 'import html5lib' 2>/dev/null; then
			"$p" "$SRCDIR/tests/integration/html-lint.py" "$T/noise.html" ||
				fail "the noise page does not lint"
			break
		fi
	done
	echo "noise: $(grep -c '<tr><td>' "$T/noise.html") cause lines on the page"
else
	echo "noise: cannot run here, its page not tested"
fi
echo ok
