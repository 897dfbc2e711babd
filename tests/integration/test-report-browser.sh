#!/bin/bash
# The HTML report in a real browser (Debian's chromium, headless): the page
# loads without a console error or a Content-Security-Policy complaint, every
# latency plot is laid out with a non-zero size, the plots have drawn paths,
# and the page prints. A control page with a deliberate console error proves
# that errors would be seen.
. "$(dirname "$0")/lib.sh"
CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
[ -n "$CHROMIUM" ] || skip "chromium is not installed (Debian package chromium)"
FIX="$SRCDIR/tests/fixtures/results"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

# One fresh profile per start; no network, no background services.
browse() {
	timeout 90 "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--disable-default-apps --disable-extensions --mute-audio \
		--user-data-dir="$(mktemp -d "$T/profile.XXXXXX")" "$@"
}
# Console messages and CSP violations that chromium logs at --v=0.
console_errors() {
	grep -E 'CONSOLE|Uncaught|Refused to|Content Security Policy|ERR_' "$1" |
		grep -v -E 'dbus|DBus|bus\.cc|object_proxy' || true
}

"$RTREADY" report "$FIX/verify-before.json" "$FIX/verify-after.json" -o "$T/ba.html" >/dev/null
"$RTREADY" report "$FIX/check.json" "$FIX/latency-idle.json" "$FIX/latency-load.json" \
	-o "$T/one.html" >/dev/null
"$RTREADY" report "$FIX/hostile.json" -o "$T/h.html" >/dev/null
[ -s "$T/ba.html" ] && [ -s "$T/one.html" ] && [ -s "$T/h.html" ] || fail "report did not write"

# The control: a console error must show in the log, else this test proves nothing.
printf '<!DOCTYPE html><title>c</title><script>console.error("rtready-probe")</script>\n' \
	>"$T/control.html"
browse --enable-logging=stderr --v=0 --dump-dom "file://$T/control.html" >/dev/null 2>"$T/control.log"
grep -q 'rtready-probe' "$T/control.log" || fail "console errors are not visible in the log"

for page in ba one h; do
	browse --enable-logging=stderr --v=0 --dump-dom "file://$T/$page.html" \
		>"$T/$page.dom" 2>"$T/$page.log" || fail "chromium failed on $page.html"
	errs=$(console_errors "$T/$page.log")
	[ -z "$errs" ] || { echo "$errs"; fail "console errors on $page.html"; }
	grep -q '<svg class="hist"' "$T/$page.dom" || [ "$page" = h ] ||
		fail "no plot in the DOM of $page.html"
	grep -q '<script' "$T/$page.dom" && fail "a script element in $page.html"
done
# The hostile strings stayed text in the DOM.
grep -q '&lt;script&gt;alert' "$T/h.dom" || fail "hostile text not text in the DOM"

# Layout: a copy of the page with a measuring script (the CSP that forbids
# scripts is taken out of the copy only) writes each plot's rendered size
# and how many drawn paths have a non-empty box into the DOM.
measure() {
	sed 's/<meta http-equiv="Content-Security-Policy"[^>]*>//' "$1" >"$2"
	cat >>"$2" <<'JS'
<script>
const sizes = [...document.querySelectorAll('svg.hist')].map(s => {
	const b = s.getBoundingClientRect(); return Math.round(b.width) + 'x' + Math.round(b.height); });
const drawn = [...document.querySelectorAll('svg.hist path')].filter(p => {
	const b = p.getBBox(); return b.width > 0 && b.height > 0; }).length;
document.body.setAttribute('data-plots', sizes.join(' '));
document.body.setAttribute('data-drawn', String(drawn));
document.body.setAttribute('data-width', String(document.documentElement.scrollWidth));
</script>
JS
}
for page in ba one; do
	measure "$T/$page.html" "$T/$page-m.html"
	browse --window-size=1280,900 --dump-dom "file://$T/$page-m.html" >"$T/$page-m.dom" 2>/dev/null ||
		fail "chromium failed on the measured copy of $page.html"
	plots=$(sed -n 's/.*data-plots="\([^"]*\)".*/\1/p' "$T/$page-m.dom")
	drawn=$(sed -n 's/.*data-drawn="\([0-9]*\)".*/\1/p' "$T/$page-m.dom")
	width=$(sed -n 's/.*data-width="\([0-9]*\)".*/\1/p' "$T/$page-m.dom")
	n=0
	for s in $plots; do
		w=${s%x*}; h=${s#*x}
		[ "$w" -ge 200 ] && [ "$h" -ge 80 ] || fail "$page.html: a plot is laid out at $s"
		n=$((n + 1))
	done
	want=4; [ "$page" = ba ] && want=8
	[ "$n" -eq "$want" ] || fail "$page.html: $n plots laid out, expected $want ($plots)"
	# Idle and loaded curves of every plot.
	[ "${drawn:-0}" -ge $((want * 2)) ] || fail "$page.html: only ${drawn:-0} drawn paths"
	# Readable on a laptop: nothing wider than the window.
	[ "${width:-99999}" -le 1280 ] || fail "$page.html: the page is $width px wide at 1280"
	echo "$page.html: plots $plots; drawn paths $drawn"
done

# It prints (A4 PDF) and screenshots.
browse --no-pdf-header-footer --print-to-pdf="$T/ba.pdf" "file://$T/ba.html" >/dev/null 2>&1 ||
	fail "printing failed"
head -c 5 "$T/ba.pdf" | grep -q '%PDF-' || fail "no PDF printed"
browse --window-size=1280,1600 --screenshot="$T/ba.png" "file://$T/ba.html" >/dev/null 2>&1 ||
	fail "screenshot failed"
[ "$(stat -c %s "$T/ba.png")" -gt 20000 ] || fail "the screenshot is (nearly) blank"
[ -n "${RTREADY_KEEP_SCREENSHOT:-}" ] && cp "$T/ba.png" "$T/ba.pdf" "$RTREADY_KEEP_SCREENSHOT"/
echo ok
