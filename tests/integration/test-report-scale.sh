#!/bin/bash
# The HTML report of machines of 1, 16 and 256 CPUs (verify results written
# by tools/gen-verify.py), in a real browser (Debian's chromium, headless):
# - the page lints: HTML5 without a parse error, no external resource,
#   accessible names for every plot and link, in-page links resolve
#   (html-lint.py; also tidy when installed);
# - it loads without a console error, its one script runs under the page's
#   own Content-Security-Policy (the sort buttons appear);
# - verdict, checks, overview and per-CPU plots come in that order; the
#   overview has an exceedance plot of every CPU per run, the heat map and
#   the table; every CPU has a link in the heat map and one in the table to
#   a target in its folded plots, and following them opens the fold;
# - without the script, the table is in its written order, worst first
#   (headless chromium neither dumps nor shoots a page with scripts off, so
#   this is read from the page as written);
# - the sort buttons sort (and back); opened, every plot lays out and draws;
# - printed, the plots of up to 16 CPUs are unfolded (not those of 256);
# - the 256-CPU page is at most 2 MB.
# Controls prove that the lint and the console check would see a problem.
. "$(dirname "$0")/lib.sh"
CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
[ -n "$CHROMIUM" ] || skip "chromium is not installed (Debian package chromium)"
PY=""
for p in python3 /usr/bin/python3; do
	if command -v "$p" >/dev/null && "$p" -c 'import html5lib' 2>/dev/null; then
		PY=$p
		break
	fi
done
[ -n "$PY" ] || skip "python3-html5lib is not installed (the HTML lint)"
GEN="$SRCDIR/tools/gen-verify.py"
LINT="$SRCDIR/tests/integration/html-lint.py"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

browse() {
	timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--disable-default-apps --disable-extensions --mute-audio \
		--user-data-dir="$(mktemp -d "$T/profile.XXXXXX")" "$@"
}
console_errors() {
	grep -E 'CONSOLE|Uncaught|Refused to|Content Security Policy|ERR_' "$1" |
		grep -v -E 'dbus|DBus|bus\.cc|object_proxy' || true
}
attr() { sed -n "s/.*$1=\"\([^\"]*\)\".*/\1/p" "$2"; }

# Controls: a page with a plot without a name and a link off the page fails the lint.
"$RTREADY" report "$SRCDIR/tests/fixtures/results/verify-after.json" -o "$T/c.html" >/dev/null ||
	true
sed -e '0,/<title>Exceedance plot of CPU 0/s//<desc>x/' \
	-e 's|href="#system"|href="https://example.org/"|' "$T/c.html" >"$T/control.html"
FIX="$SRCDIR/tests/fixtures/results"
"$RTREADY" report "$FIX/verify-before.json" "$FIX/verify-after.json" -o "$T/ba.html" >/dev/null ||
	true
"$RTREADY" report "$FIX/hostile.json" -o "$T/h.html" >/dev/null || true
"$RTREADY" report "$FIX/latency-idle.json" -o "$T/idle.html" >/dev/null || true
for f in c ba h idle; do
	"$PY" "$LINT" "$T/$f.html" >"$T/lint.out" ||
		{ cat "$T/lint.out"; fail "the fixture page $f.html does not lint"; }
done
if "$PY" "$LINT" "$T/control.html" >"$T/lint.out"; then
	fail "the lint passed a page with an unnamed plot and an external link"
fi
grep -q 'no accessible name' "$T/lint.out" && grep -q 'leaves the page' "$T/lint.out" ||
	{ cat "$T/lint.out"; fail "the lint did not name both faults"; }
printf '<!DOCTYPE html><title>c</title><script>console.error("rtready-probe")</script>\n' \
	>"$T/control-console.html"
browse --enable-logging=stderr --v=0 --dump-dom "file://$T/control-console.html" >/dev/null \
	2>"$T/control.log"
grep -q 'rtready-probe' "$T/control.log" || fail "console errors are not visible in the log"

# Control: with its hash changed, the CSP must refuse the script, and the log must say so.
sed "s/script-src 'sha256-[^']*'/script-src 'sha256-AAAA'/" "$T/c.html" >"$T/control-csp.html"
browse --enable-logging=stderr --v=0 --dump-dom "file://$T/control-csp.html" >"$T/csp.dom" \
	2>"$T/csp.log"
[ -n "$(console_errors "$T/csp.log")" ] || fail "a refused script does not show in the log"
grep -q '<button' "$T/csp.dom" && fail "the script ran against a CSP that should refuse it"

for n in 1 16 256; do
	doc="$T/v$n.json" page="$T/v$n.html"
	"$PY" "$GEN" --cpus "$n" --samples 200000 -o "$doc" || fail "gen-verify.py --cpus $n failed"
	rc=0
	"$RTREADY" report "$doc" -o "$page" >/dev/null || rc=$?
	[ "$rc" -le 1 ] && [ -s "$page" ] || fail "report of $n CPUs: exit $rc"
	size=$(stat -c %s "$page")
	# What the page must show, from the document itself.
	read -r cpus worst loadmax < <("$PY" - "$doc" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
per = {}
for ph in ("latency_idle", "latency_load"):
    for t in d[ph]["threads"]:
        c = per.setdefault(t["cpu"], {"silent": False, "max": 0})
        if t["samples"]:
            c["max"] = max(c["max"], t["max_ns"])
        else:
            c["silent"] = True
order = sorted(per, key=lambda c: (not per[c]["silent"], -per[c]["max"], c))
live = [t for t in d["latency_load"]["threads"] if t["samples"]]
print(len(per), order[0], max(live, key=lambda t: t["max_ns"])["cpu"])
PY
)
	[ "$cpus" -eq "$n" ] || fail "the generator made $cpus CPUs, not $n"

	"$PY" "$LINT" "$page" >"$T/lint.out" || { cat "$T/lint.out"; fail "v$n.html does not lint"; }
	if command -v tidy >/dev/null; then
		# Empty <i> and <b> are the heat map's cells, not mistakes.
		tidy -q -e --drop-empty-elements no "$page" >"$T/tidy.out" 2>&1 ||
			{ head -20 "$T/tidy.out"; fail "tidy finds problems in v$n.html"; }
	fi
	# Order of the sections: the answer first.
	"$PY" - "$page" <<'PY' || fail "v$n.html: sections out of order"
import sys
s = open(sys.argv[1]).read()
pos = [s.find('<section id="%s"' % i) for i in ("verdict", "checks", "overview", "plots", "system")]
sys.exit(0 if all(p >= 0 for p in pos) and pos == sorted(pos) else 1)
PY

	# The page as it is: no console error; its script ran under its own CSP.
	browse --enable-logging=stderr --v=0 --dump-dom "file://$page" >"$T/v$n.dom" \
		2>"$T/v$n.log" || fail "chromium failed on v$n.html"
	errs=$(console_errors "$T/v$n.log")
	[ -z "$errs" ] || { echo "$errs"; fail "console errors on v$n.html"; }
	grep -q '<th[^>]*data-col="0"><button type="button">CPU</button>' "$T/v$n.dom" ||
		fail "v$n.html: the sort script did not run under the page's CSP"

	# Scripts off: the page as written has no buttons and its table worst first.
	grep -q '<button' "$page" && fail "v$n.html: buttons without the script"
	first=$(sed -n '/<table class="cpus/,/<\/table>/p' "$page" |
		grep -o -m1 '<tr><td><a href="#cpu-[0-9]*">' | grep -o '[0-9][0-9]*')
	[ "$first" = "$worst" ] || fail "v$n.html: first row is CPU $first, the worst is CPU $worst"

	# A measuring copy (the CSP is taken out of the copy only, so the test's
	# script runs): the overview, every CPU reachable, sorting, the plots.
	sed 's/<meta http-equiv="Content-Security-Policy"[^>]*>//' "$page" >"$T/v$n-m.html"
	cat >>"$T/v$n-m.html" <<'JS'
<script>
(async () => {
const out = (k, v) => document.body.setAttribute('data-' + k, String(v));
const tick = () => new Promise(r => setTimeout(r, 0));
const ov = document.getElementById('overview');
out('overview', ov ? 1 : 0);
out('allplots', ov.querySelectorAll('svg.exceed.all').length);
out('allnames', [...ov.querySelectorAll('svg.exceed.all')].map(s =>
	s.computedRole + ':' + (s.computedName.startsWith('Exceedance plot of every CPU') ? 1 : 0)).join(' '));
out('allcurves', [...ov.querySelectorAll('svg.exceed.all path')].filter(p => {
	const b = p.getBBox(); return b.width > 0 || b.height > 0; }).length);
out('heat', ov.querySelectorAll('.heat a[href^="#cpu-"]').length);
const rows = () => [...ov.querySelectorAll('table.cpus tbody tr')];
out('rows', rows().length);
// Every CPU: a link from the heat map and from the table, to a target in its
// fold. Following links opens the fold: tried on up to 120 CPUs spread over
// the table (chromium throttles a page past 200 navigations in 10 s).
let reach = 0, bad = [], links = [...ov.querySelectorAll('table.cpus tbody a[href^="#cpu-"]')];
const step = Math.max(1, Math.ceil(links.length / 120));
for (let i = 0; i < links.length; i++) {
	const a = links[i], id = a.getAttribute('href').slice(1), target = document.getElementById(id);
	const d = target && target.closest('details.cpu');
	const heat = ov.querySelector('.heat a[href="#' + id + '"]');
	if (!d || d.open || !heat) { bad.push(id); continue; }
	if (i % step) { reach++; continue; }
	(i % (2 * step) ? heat : a).click();
	for (let k = 0; k < 50 && !d.open; k++)
		await tick();
	if (d.open && location.hash === '#' + id) reach++; else bad.push(id);
	d.open = false;
}
out('reach', reach);
out('unreached', bad.join(' '));
// Sorting: the loaded max, down then up.
const heads = [...ov.querySelectorAll('table.cpus thead th[data-col]')];
const maxes = heads.filter(h => h.textContent.trim() === 'max');
const lmax = maxes[maxes.length - 1];
lmax.querySelector('button').click();
const col = +lmax.getAttribute('data-col');
const cpuOf = r => r.cells[0].textContent.trim();
const val = r => parseFloat(r.cells[col].textContent);
out('sortdown', cpuOf(rows()[0]) + ':' + lmax.getAttribute('aria-sort'));
let mono = true, vs = rows().map(val).filter(v => !isNaN(v));
for (let i = 1; i < vs.length; i++) mono = mono && vs[i] <= vs[i - 1];
lmax.querySelector('button').click();
let vu = rows().map(val).filter(v => !isNaN(v));
for (let i = 1; i < vu.length; i++) mono = mono && vu[i] >= vu[i - 1];
out('sortup', lmax.getAttribute('aria-sort') + ':' + (mono ? 1 : 0));
// Opened, every plot lays out and has drawn curves.
document.querySelectorAll('details').forEach(d => { d.open = true; });
let small = 0, empty = 0, plots = 0;
for (const s of document.querySelectorAll('#plots svg.hist, #plots svg.exceed')) {
	const b = s.getBoundingClientRect();
	plots++;
	if (b.width < 200 || b.height < 80) small++;
	const p = [...s.querySelectorAll('path')].filter(p => {
		const bb = p.getBBox(); return bb.width > 0 && bb.height > 0; });
	if (!p.length && !s.textContent.includes('no samples')) empty++;
}
out('plots', plots + ':' + small + ':' + empty);
out('width', document.documentElement.scrollWidth);
out('done', 1);
})();
</script>
JS
	browse --window-size=1280,900 --enable-blink-features=ComputedAccessibilityInfo \
		--virtual-time-budget=60000 --dump-dom "file://$T/v$n-m.html" >"$T/v$n-m.dom" \
		2>/dev/null || fail "chromium failed on the measured copy of v$n.html"
	[ "$(attr data-done "$T/v$n-m.dom")" = 1 ] || fail "v$n.html: the measuring script did not finish"
	[ "$(attr data-overview "$T/v$n-m.dom")" = 1 ] || fail "v$n.html: no overview"
	[ "$(attr data-allplots "$T/v$n-m.dom")" = 2 ] ||
		fail "v$n.html: $(attr data-allplots "$T/v$n-m.dom") exceedance plots of all CPUs, expected 2"
	[ "$(attr data-allnames "$T/v$n-m.dom")" = "image:1 image:1" ] ||
		fail "v$n.html: overview plots named '$(attr data-allnames "$T/v$n-m.dom")'"
	curves=$(attr data-allcurves "$T/v$n-m.dom")
	# One curve per CPU and run, less the CPU without samples under load.
	[ "$curves" -ge $((2 * n - 1)) ] || fail "v$n.html: $curves curves in the overview for $n CPUs"
	[ "$(attr data-heat "$T/v$n-m.dom")" = "$n" ] || fail "v$n.html: heat map has $(attr data-heat "$T/v$n-m.dom") CPUs"
	[ "$(attr data-rows "$T/v$n-m.dom")" = "$n" ] || fail "v$n.html: table has $(attr data-rows "$T/v$n-m.dom") rows"
	[ "$(attr data-reach "$T/v$n-m.dom")" = "$n" ] ||
		fail "v$n.html: $(attr data-reach "$T/v$n-m.dom") of $n CPUs reachable; not: $(attr data-unreached "$T/v$n-m.dom")"
	[ "$(attr data-sortdown "$T/v$n-m.dom")" = "$loadmax:descending" ] ||
		fail "v$n.html: sorted by loaded max: '$(attr data-sortdown "$T/v$n-m.dom")', expected CPU $loadmax first"
	[ "$(attr data-sortup "$T/v$n-m.dom")" = "ascending:1" ] ||
		fail "v$n.html: sorting is not monotonic ($(attr data-sortup "$T/v$n-m.dom"))"
	IFS=: read -r plots small empty <<<"$(attr data-plots "$T/v$n-m.dom")"
	[ "$plots" -eq $((2 * n)) ] && [ "$small" -eq 0 ] && [ "$empty" -eq 0 ] ||
		fail "v$n.html: $plots per-CPU plots, $small too small, $empty without a curve"
	width=$(attr data-width "$T/v$n-m.dom")
	[ "${width:-99999}" -le 1280 ] || fail "v$n.html: the page is $width px wide at 1280"
	# Printed, a small machine's folded plots are unfolded (a copy without that rule prints less).
	if [ "$n" -le 16 ]; then
		grep -q 'details.cpu::details-content' "$page" || fail "v$n.html: plots stay folded in print"
		sed 's/@media print{details.cpu::details-content[^}]*}}//' "$page" >"$T/v$n-fold.html"
		browse --no-pdf-header-footer --print-to-pdf="$T/a.pdf" "file://$page" >/dev/null 2>&1
		browse --no-pdf-header-footer --print-to-pdf="$T/b.pdf" "file://$T/v$n-fold.html" \
			>/dev/null 2>&1
		[ "$(stat -c %s "$T/a.pdf")" -gt $(($(stat -c %s "$T/b.pdf") + 5000)) ] ||
			fail "v$n.html: printing does not unfold the plots"
	else
		grep -q 'details.cpu::details-content' "$page" && fail "v$n.html: $((2 * n)) plots unfolded in print"
	fi
	echo "v$n.html: $size bytes, $curves overview curves, $n CPUs reachable, worst CPU $worst"
done
[ "$size" -le $((2 * 1024 * 1024)) ] || fail "the 256-CPU page is $size bytes, over 2 MB"
echo ok
