// SPDX-License-Identifier: MIT
/*
 * The HTML report; see html.h. The page is written in one pass with
 * fprintf; every string that comes from a result goes through
 * markup_escape(), numbers are formatted here. The plots follow the style
 * engineers know from the OSADL latency plots: latency on a linear x axis,
 * sample counts on a logarithmic y axis, so the rare late wake-ups (the
 * ones that matter) stay visible next to millions of on-time ones. Under
 * each histogram an exceedance plot (exceed.c) shows the same runs on
 * log-log axes, where one late spike no longer squeezes the bulk into one
 * pixel column.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "render/exceed.h"
#include "render/html.h"
#include "render/html_noise.h"
#include "render/markup.h"
#include "render/overview.h"
#include "rtready/cpuset.h"
#include "util/sorted.h"

#define E(s) markup_escape(out, (s))

static const char css[] =
	":root{--pass:#1a7f37;--warn:#9a6700;--fail:#cf222e;--info:#0969da;--skip:#6e7781;"
	"--idle:#1f5fa8;--load:#c4471b;--line:#d0d7de;--muted:#57606a;--bg2:#f6f8fa}\n"
	"*{box-sizing:border-box}\n"
	"body{font:15px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,'DejaVu Sans',sans-serif;"
	"color:#1f2328;margin:0 auto;max-width:1400px;padding:1rem 1.5rem 3rem}\n"
	"h1{font-size:1.6rem;margin:.2rem 0}h2{font-size:1.3rem;border-bottom:1px solid var(--line);"
	"padding-bottom:.2rem;margin-top:2rem}h3{font-size:1.05rem;margin:1.2rem 0 .4rem}\n"
	"code,pre{font-family:ui-monospace,'DejaVu Sans Mono',Menlo,Consolas,monospace;"
	"font-size:.88em}\n"
	"pre{background:var(--bg2);padding:.4rem .6rem;border-radius:4px;white-space:pre-wrap;"
	"word-break:break-word;margin:.2rem 0}\n"
	".sub,.muted{color:var(--muted)}\n"
	".cols{display:grid;gap:1rem;grid-template-columns:repeat(var(--n),minmax(0,1fr))}\n"
	".plots{display:grid;gap:1rem;grid-template-columns:repeat(auto-fill,minmax(440px,1fr))}\n"
	".card{border:1px solid var(--line);border-left:6px solid var(--c);border-radius:6px;"
	"padding:.6rem .9rem}\n"
	".card .word{font-size:1.5rem;font-weight:700;color:var(--c);letter-spacing:.05em}\n"
	".s-pass{--c:var(--pass)}.s-warn{--c:var(--warn)}.s-fail{--c:var(--fail)}"
	".s-info{--c:var(--info)}.s-skip{--c:var(--skip)}\n"
	".badge{display:inline-block;min-width:3.2em;text-align:center;font-size:.75rem;"
	"font-weight:700;text-transform:uppercase;color:#fff;background:var(--c);"
	"border-radius:3px;padding:.05rem .3rem;margin-right:.3rem;"
	"-webkit-print-color-adjust:exact;print-color-adjust:exact}\n"
	".check{border-top:1px solid var(--line);padding:.45rem 0}\n"
	".check .head{display:flex;flex-wrap:wrap;gap:.2rem .5rem;align-items:baseline}\n"
	".check .title{font-weight:600}\n"
	".detail{margin:.2rem 0 .1rem 1.2rem;white-space:pre-wrap;word-break:break-word}\ndiv.detail{font-size:.9em}\n"
	".detail dt{font-weight:600;color:var(--muted);font-size:.85em}"
	".detail dd{margin:0 0 .3rem 0;white-space:pre-wrap;word-break:break-word}\n"
	".passed{font-size:.9em}\n"
	"table{border-collapse:collapse;margin:.4rem 0;font-variant-numeric:tabular-nums}\n"
	"th,td{border-bottom:1px solid var(--line);padding:.2rem .6rem;text-align:left;"
	"vertical-align:top}\n"
	"td.n,th.n{text-align:right}\n"
	"td.over{color:var(--fail);font-weight:700}\n"
	".nosamples{color:var(--warn);font-weight:600}\n"
	"figure{margin:0;border:1px solid var(--line);border-radius:6px;padding:.4rem;"
	"break-inside:avoid}\n"
	"figcaption{font-size:.9em;margin-bottom:.2rem}\n"
	"svg.hist,svg.exceed{display:block;width:100%;height:auto;max-width:640px;"
	"font:11px system-ui,sans-serif}\n"
	"svg.exceed{margin-top:.4rem}svg text{fill:#1f2328}\n"
	/* The plots' own styles, once for the page (a plot alone carries them itself). */
	"svg.hist .idle{fill:#1f5fa8;fill-opacity:.18;stroke:#1f5fa8;stroke-width:1.2}"
	"svg.hist .load{fill:#c4471b;fill-opacity:.18;stroke:#c4471b;stroke-width:1.2}"
	"svg.exceed path{fill:none;stroke-width:1.6}svg.exceed .idle{stroke:#1f5fa8}"
	"svg.exceed .load{stroke:#c4471b}svg.exceed .unk{stroke-dasharray:2 3}"
	".sw-idle{fill:#1f5fa8}.sw-load{fill:#c4471b}"
	".mx-idle,.mx-load,.lim{stroke-width:1.2;stroke-dasharray:4 3}.mx-idle{stroke:#1f5fa8}"
	".mx-load{stroke:#c4471b}svg .lim{stroke:#cf222e;stroke-dasharray:none;stroke-width:1.5}"
	"svg .mx-idle-t{fill:#1f5fa8}svg .mx-load-t{fill:#c4471b}"
	"svg .lim-t{fill:#cf222e;font-weight:700}\n"
	/* The overview: every CPU's curve muted, the worst in colour. */
	"svg.all path{stroke-width:1;stroke-opacity:.55}svg.all .rt{stroke:#7d8fa6}.sw-rt{fill:#7d8fa6}"
	"svg.all .hk{stroke:#c9a46a;stroke-dasharray:3 2}.sw-hk{fill:#c9a46a}"
	"svg.all path[class^=w]{stroke-width:2.2;stroke-opacity:1}"
	"svg.all .w0{stroke:#cf222e}svg.all .w1{stroke:#8250df}svg.all .w2{stroke:#0a7d8c}"
	"svg.all .w3{stroke:#bf3989}svg.all .w4{stroke:#1a7f37}"
	"svg .wt0{fill:#cf222e}svg .wt1{fill:#8250df}svg .wt2{fill:#0a7d8c}svg .wt3{fill:#bf3989}"
	"svg .wt4{fill:#1a7f37}svg.all text[class^=wt]{font-weight:700}\n"
	"figure.ov svg.exceed{max-width:none}\n"
	/* The heat map: a column per CPU, a sequential scale light to dark. */
	".heat{font-size:11px;line-height:1}.hb{display:flex;margin:.3rem 0 .6rem}"
	".hl,.heat a{display:flex;flex-direction:column}.hl b{height:13px;font-weight:400;"
	"padding-right:6px;text-align:right;white-space:nowrap;color:var(--muted)}"
	".heat a b{height:13px;width:var(--w);overflow:visible;white-space:nowrap;"
	"font-weight:400;color:var(--muted)}.heat i,.hleg i{display:block;width:var(--w);"
	"height:13px;-webkit-print-color-adjust:exact;print-color-adjust:exact}"
	".heat .g{margin-top:5px}.heat .rr,.heat .rh,.hl .rl{height:6px;margin-bottom:3px}"
	".hl .rl{font-size:8px}.hleg{font-size:.85em}.hleg i{display:inline-block;width:14px;"
	"height:11px;vertical-align:middle;margin:0 2px}"
	".h0{background:#fff7d1}.h1{background:#fee391}.h2{background:#fec44f}"
	".h3{background:#fe9929}.h4{background:#ec7014}.h5{background:#cc4c02}"
	".h6{background:#993404}.h7{background:#662506}.h8{background:#3b1203}"
	".hx{background:#d0d7de}.heat i.o,.hleg i.o{box-shadow:inset 0 0 0 2px #000}"
	".rr{background:#57606a}.rh{background:#c9a46a}"
	".heat a:hover i,.heat a:focus i{filter:brightness(.8)}"
	".heat a{text-decoration:none}.heat a:focus{outline:2px solid #0969da}\n"
	"svg.defs{position:absolute;width:0;height:0;overflow:hidden}"
	"svg.all{font:11px system-ui,sans-serif}\n"
	"table.cpus th.grp{text-align:center;border-bottom:2px solid var(--line)}"
	"table.cpus caption{text-align:left;color:var(--muted);font-size:.9em;padding:.2rem 0}"
	"th button{font:inherit;font-weight:700;background:none;border:0;padding:0;"
	"cursor:pointer;color:inherit;text-decoration:underline dotted}"
	"th[aria-sort=descending] button::after{content:' \\25BC'}"
	"th[aria-sort=ascending] button::after{content:' \\25B2'}\n"
	"details.cpu{border-top:1px solid var(--line);padding:.25rem 0}"
	"details.cpu>summary{cursor:pointer}details.cpu[open]>summary{margin-bottom:.4rem}"
	"details.cpu .over{color:var(--fail);font-weight:700}"
	"details.passed>summary{cursor:pointer;color:var(--muted);margin:.6rem 0}\n"
	".wrap{overflow-x:auto}\n"
	"@media print{body{font-size:10pt;max-width:none;padding:0}th button{text-decoration:none}"
	"h2{break-after:avoid}h3{break-after:avoid}.check,figure,tr{break-inside:avoid}"
	".plots{grid-template-columns:repeat(2,minmax(0,1fr))}.wrap{overflow:visible}}\n"
	"@page{size:A4;margin:12mm}\n";

static int n_cols(size_t n)
{
	return n > 6 ? 6 : (int)n;
}

static void badge(FILE *out, enum rtr_status s)
{
	fprintf(out, "<span class=\"badge s-%s\">%s</span>", rtr_status_name(s),
		rtr_status_name(s));
}

/* "12.3" µs with the precision a latency deserves. */
static void fmt_us(char *buf, size_t len, double ns)
{
	double us = ns / 1000.0;

	if (us >= 1000)
		snprintf(buf, len, "%.0f", us);
	else
		snprintf(buf, len, "%.1f", us);
}

/* ---- histogram plot ------------------------------------------------------------------- */

/* The size of the exceedance plots it stands next to. */
enum { PW = EXCEED_W, PH = EXCEED_H, ML = EXCEED_ML, MR = EXCEED_MR, MT = EXCEED_MT,
       MB = EXCEED_MB };

/* The smallest "nice" number (1, 2, 2.5, 5 times a power of ten) >= @x. */
static double nice_ceil(double x)
{
	static const double steps[] = { 1, 2, 2.5, 5, 10 };
	double p;

	if (!(x > 0))
		return 1;
	p = pow(10, floor(log10(x)));
	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++)
		if (steps[i] * p >= x * (1 - 1e-9))
			return steps[i] * p;
	return 10 * p;
}

static bool has_hist(const struct result_thread *t)
{
	return t && t->bucket_ns && t->n_counts;
}

/* End of the last non-empty bucket, in ns (0 when none). */
static double hist_end_ns(const struct result_thread *t)
{
	if (!has_hist(t))
		return 0;
	for (size_t i = t->n_counts; i > 0; i--)
		if (t->counts[i - 1])
			return (double)i * (double)t->bucket_ns;
	return 0;
}

static uint64_t hist_max_count(const struct result_thread *t, size_t merge)
{
	uint64_t m = 0;

	if (!has_hist(t))
		return 0;
	for (size_t i = 0; i < t->n_counts; i += merge) {
		uint64_t s = 0;

		for (size_t k = i; k < i + merge && k < t->n_counts; k++)
			s += t->counts[k];
		if (s > m)
			m = s;
	}
	return m;
}

struct plot {
	double xmax_ns;		/* right edge of the x axis */
	double ylo, yhi;	/* log10 range of the y axis */
};

static double px_x(const struct plot *p, double ns)
{
	double x = ns / p->xmax_ns;

	if (x > 1)
		x = 1;
	return ML + x * (PW - ML - MR);
}

static double px_y(const struct plot *p, double count)
{
	if (count < 1)
		return PH - MB;
	return (PH - MB) - (log10(count) - p->ylo) / (p->yhi - p->ylo) * (PH - MB - MT);
}

/* Buckets per drawn step, so that a step is at least one pixel wide. */
static size_t merge_of(const struct plot *p, const struct result_thread *t)
{
	double px = (double)t->bucket_ns / p->xmax_ns * (PW - ML - MR);

	return px >= 1 ? 1 : (size_t)ceil(1 / px);
}

/*
 * The steps of @t as one path. A run of steps of one height is one
 * horizontal segment (most of a shared axis is empty buckets), so the path
 * costs what the shape has turns, not what the axis has pixels.
 */
static void plot_steps(FILE *out, const struct plot *p, const struct result_thread *t,
		       const char *cls)
{
	size_t merge = merge_of(p, t);
	double base = PH - MB, prev = base, x = px_x(p, 0);

	fprintf(out, "<path class=\"%s\" d=\"M%.1f %.1f", cls, x, base);
	for (size_t i = 0; i < t->n_counts; i += merge) {
		double x0 = (double)i * (double)t->bucket_ns, y;
		uint64_t s = 0;

		if (x0 >= p->xmax_ns)
			break;
		for (size_t k = i; k < i + merge && k < t->n_counts; k++)
			s += t->counts[k];
		y = px_y(p, (double)s);
		if (y != prev) {
			fprintf(out, "H%.1fV%.1f", px_x(p, x0), y);
			prev = y;
		}
		x = px_x(p, (double)(i + merge) * (double)t->bucket_ns);
	}
	fprintf(out, "H%.1fV%.1fZ\"/>\n", x, base);
}

static void vline(FILE *out, const struct plot *p, double ns, const char *cls, const char *label,
		  int row)
{
	double x = px_x(p, ns);

	fprintf(out, "<line class=\"%s\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\"/>\n", cls, x, x,
		MT, PH - MB);
	fprintf(out, "<text class=\"%s-t\" x=\"%.1f\" y=\"%d\" text-anchor=\"%s\">%s</text>\n", cls,
		x > PW - MR - 90 ? x - 3 : x + 3, MT + 12 + row * 13,
		x > PW - MR - 90 ? "end" : "start", label);
}

static void axes(FILE *out, const struct plot *p)
{
	double step = nice_ceil(p->xmax_ns / 6);

	fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" "
		     "stroke=\"#8c959f\"/>\n", ML, MT, PW - ML - MR, PH - MB - MT);
	for (int d = (int)ceil(p->ylo); d <= (int)p->yhi; d++) {
		static const char *const names[] = { "1", "10", "100", "1k", "10k", "100k",
						     "1M", "10M", "100M", "1G" };
		double y = px_y(p, pow(10, d));

		fprintf(out, "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#eaeef2\"/>"
			     "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">", ML, PW - MR, y, y,
			ML - 5, y + 4);
		if (d >= 0 && d < (int)(sizeof(names) / sizeof(names[0])))
			fputs(names[d], out);
		else
			fprintf(out, "1e%d", d);
		fputs("</text>\n", out);
	}
	for (int i = 0; i * step <= p->xmax_ns * (1 + 1e-9) && i <= 20; i++) {
		double x = px_x(p, i * step);

		fprintf(out, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" stroke=\"#8c959f\"/>"
			     "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%g</text>\n", x, x,
			PH - MB, PH - MB + 4, x, PH - MB + 17, i * step / 1000.0);
	}
	fprintf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">latency (\xc2\xb5s)</text>\n",
		ML + (PW - ML - MR) / 2, PH - 8);
	fprintf(out, "<text x=\"14\" y=\"%d\" text-anchor=\"middle\" transform=\"rotate(-90 14 %d)\">"
		     "samples (log scale)</text>\n", MT + (PH - MB - MT) / 2, MT + (PH - MB - MT) / 2);
}

/* Above the plot area, so it never hides a bar or a marker. */
static void legend(FILE *out, const struct result_thread *idle, const struct result_thread *load)
{
	int x = ML;

	if (has_hist(idle)) {
		fprintf(out, "<rect class=\"idle\" x=\"%d\" y=\"%d\" width=\"14\" height=\"9\"/>"
			     "<text x=\"%d\" y=\"%d\">idle</text>\n", x, MT - 16, x + 18, MT - 7);
		x += 60;
	}
	if (has_hist(load))
		fprintf(out, "<rect class=\"load\" x=\"%d\" y=\"%d\" width=\"14\" height=\"9\"/>"
			     "<text x=\"%d\" y=\"%d\">under load</text>\n", x, MT - 16, x + 18,
			MT - 7);
}

/* Grow @end_ns to cover @t: its last non-empty bucket and its maximum. */
static void cover_end(double *end_ns, const struct result_thread *t)
{
	if (!t)
		return;
	*end_ns = fmax(*end_ns, hist_end_ns(t));
	if (t->samples)
		*end_ns = fmax(*end_ns, t->max_ns);
}

static void cover_count(const struct plot *p, uint64_t *maxc, const struct result_thread *t)
{
	uint64_t m;

	if (!has_hist(t))
		return;
	m = hist_max_count(t, merge_of(p, t));
	*maxc = m > *maxc ? m : *maxc;
}

/*
 * Axes covering @end_ns (a round number a little past it, at least 1 us);
 * the y axis starts below 1 sample so a single late wake-up shows as a bar.
 * plot_set_count() then sets the top decade from the highest step.
 */
static struct plot plot_scale(double end_ns)
{
	struct plot p = { nice_ceil(fmax(end_ns * 1.05, 1000)), log10(0.5), 1 };

	return p;
}

static void plot_set_count(struct plot *p, uint64_t maxc)
{
	p->yhi = maxc > 1 ? ceil(log10((double)maxc) + 1e-9) : 1;
}

static void plot_histogram(FILE *out, const struct result_thread *idle,
			   const struct result_thread *load, double limit_ns, const char *title,
			   const struct plot *shared, const char *axes_id);

void html_write_histogram(FILE *out, const struct result_thread *idle,
			  const struct result_thread *load, double limit_ns, const char *title)
{
	plot_histogram(out, idle, load, limit_ns, title, NULL, NULL);
}

/*
 * With @shared, use its axes (plots side by side compare at one scale); with
 * @axes_id too, they are the page's <use href="#@axes_id"/> and the page's
 * style sheet styles the plot.
 */
static void plot_histogram(FILE *out, const struct result_thread *idle,
			   const struct result_thread *load, double limit_ns, const char *title,
			   const struct plot *shared, const char *axes_id)
{
	const struct result_thread *th[2] = { idle, load };
	struct plot p;
	double end = limit_ns > 0 ? limit_ns : 0;
	uint64_t maxc = 0;
	char buf[32];
	int row = 0;

	cover_end(&end, idle);
	cover_end(&end, load);
	p = plot_scale(end);
	cover_count(&p, &maxc, idle);
	cover_count(&p, &maxc, load);
	plot_set_count(&p, maxc);
	if (shared)
		p = *shared;

	fprintf(out, "<svg class=\"hist\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %d %d\" "
		     "width=\"%d\" height=\"%d\" role=\"img\"%s><title>", PW, PH, PW, PH,
		shared && axes_id ? "" : " font-size=\"11\" font-family=\"system-ui,sans-serif\"");
	E(title);
	fputs("</title>\n", out);
	if (shared && axes_id) {
		fprintf(out, "<use href=\"#%s\"/>\n", axes_id);
	} else {
		fputs("<style>.idle{fill:#1f5fa8;fill-opacity:.18;stroke:#1f5fa8;"
		      "stroke-width:1.2}.load{fill:#c4471b;fill-opacity:.18;stroke:#c4471b;"
		      "stroke-width:1.2}.mx-idle,.mx-load,.lim{stroke-width:1.2;"
		      "stroke-dasharray:4 3}.mx-idle{stroke:#1f5fa8}.mx-load{stroke:#c4471b}"
		      ".lim{stroke:#cf222e;stroke-dasharray:none;stroke-width:1.5}"
		      ".mx-idle-t{fill:#1f5fa8}.mx-load-t{fill:#c4471b}"
		      ".lim-t{fill:#cf222e;font-weight:700}text{fill:#1f2328}</style>\n", out);
		axes(out, &p);
	}
	if (!maxc)
		exceed_write_empty(out, idle, load);
	for (int i = 0; i < 2; i++)
		if (has_hist(th[i]))
			plot_steps(out, &p, th[i], i ? "load" : "idle");
	for (int i = 0; i < 2; i++) {
		if (!th[i] || !th[i]->samples)
			continue;
		fmt_us(buf, sizeof(buf), th[i]->max_ns);
		/* Label text is built from numbers only: nothing to escape. */
		{
			char label[64];

			snprintf(label, sizeof(label), "max %s %s \xc2\xb5s", i ? "loaded" : "idle",
				 buf);
			vline(out, &p, th[i]->max_ns, i ? "mx-load" : "mx-idle", label, row++);
		}
	}
	if (limit_ns > 0) {
		char label[48];

		fmt_us(buf, sizeof(buf), limit_ns);
		snprintf(label, sizeof(label), "limit %s \xc2\xb5s", buf);
		vline(out, &p, limit_ns, "lim", label, row++);
	}
	legend(out, idle, load);
	fputs("</svg>\n", out);
}

/* ---- checks ---------------------------------------------------------------------------- */

/* One check of one result, for grouping the same check across results. */
struct entry {
	const struct finding *c;
	size_t res;		/* index of its result */
	size_t seq;		/* position in its result (stable order for duplicates) */
};

/* A line of the page: the same check (id, tid, occurrence) in each result. */
struct row {
	const struct finding **cells;	/* [n results], NULL where absent */
	const char *id, *area;
	long tid;
	int rank;		/* worst status over the results */
	int area_rank;		/* worst status over the area */
};

static int cmp_entry(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;
	int c = strcmp(x->c->id, y->c->id);

	if (c)
		return c;
	if (x->c->tid != y->c->tid)
		return x->c->tid < y->c->tid ? -1 : 1;
	if (x->res != y->res)
		return x->res < y->res ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int cmp_row_area(const void *a, const void *b)
{
	const struct row *x = a, *y = b;

	return strcmp(x->area, y->area);
}

static int cmp_row(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	int c;

	if (x->area_rank != y->area_rank)
		return x->area_rank - y->area_rank;
	c = strcmp(x->area, y->area);
	if (c)
		return c;
	if (x->rank != y->rank)
		return x->rank - y->rank;
	c = strcmp(x->id, y->id);
	if (c)
		return c;
	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

/*
 * Rows of the checks table over all results, in page order. The cells of
 * all rows are one block (*cells_out); free it and *rows_out.
 */
static int build_rows(const struct result **rs, size_t n, struct row **rows_out,
		      const struct finding ***cells_out, size_t *n_rows)
{
	struct entry *e;
	struct row *rows = NULL;
	const struct finding **cells = NULL;
	size_t total = 0, k = 0, nr = 0;

	for (size_t i = 0; i < n; i++)
		total += rs[i]->n_checks;
	*rows_out = NULL;
	*cells_out = NULL;
	*n_rows = 0;
	if (!total)
		return 0;
	e = calloc(total, sizeof(*e));
	if (!e)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < rs[i]->n_checks; j++)
			e[k++] = (struct entry){ &rs[i]->checks[j], i, j };
	qsort(e, total, sizeof(*e), cmp_entry);
	/* At most one row per entry. */
	rows = calloc(total, sizeof(*rows));
	cells = calloc(total * n, sizeof(*cells));
	if (!rows || !cells) {
		free(e);
		free(rows);
		free(cells);
		return -ENOMEM;
	}
	for (size_t i = 0; i < total;) {
		size_t j = i, first = nr;

		/* The group of one (id, tid): its k-th entry in a result goes to row first + k. */
		while (j < total && strcmp(e[j].c->id, e[i].c->id) == 0 && e[j].c->tid == e[i].c->tid)
			j++;
		for (size_t g = i; g < j;) {
			size_t h = g, occ = 0;

			while (h < j && e[h].res == e[g].res) {
				size_t r = first + occ++;

				if (r == nr) {
					rows[nr].cells = cells + nr * n;
					rows[nr].id = e[h].c->id;
					rows[nr].tid = e[h].c->tid;
					rows[nr].area = e[h].c->area;
					rows[nr].rank = 5;
					nr++;
				}
				rows[r].cells[e[h].res] = e[h].c;
				if (report_status_rank(e[h].c->status) < rows[r].rank)
					rows[r].rank = report_status_rank(e[h].c->status);
				h++;
			}
			g = h;
		}
		i = j;
	}
	free(e);
	/* Worst status of each area, so the areas with failures come first. */
	qsort(rows, nr, sizeof(*rows), cmp_row_area);
	for (size_t i = 0; i < nr;) {
		size_t j = i;
		int worst = 5;

		while (j < nr && strcmp(rows[j].area, rows[i].area) == 0) {
			worst = rows[j].rank < worst ? rows[j].rank : worst;
			j++;
		}
		for (size_t m = i; m < j; m++)
			rows[m].area_rank = worst;
		i = j;
	}
	qsort(rows, nr, sizeof(*rows), cmp_row);
	*rows_out = rows;
	*cells_out = cells;
	*n_rows = nr;
	return 0;
}

static const char *row_title(const struct row *r, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (r->cells[i] && r->cells[i]->title[0])
			return r->cells[i]->title;
	return r->id;
}

static void detail(FILE *out, const struct finding *c, const char *label)
{
	bool full = c->status == RTR_FAIL || c->status == RTR_WARN || c->status == RTR_SKIP;

	if (!full) {
		/* A pass or an info: what was read, on one muted line. */
		if (!c->evidence[0])
			return;
		fputs("<div class=\"detail muted\">", out);
		if (label) {
			E(label);
			fputs(": ", out);
		}
		E(c->evidence);
		fputs("</div>\n", out);
		return;
	}
	fputs("<dl class=\"detail\">", out);
	if (label) {
		markup_put(out, "<dt>", label, "</dt><dd>");
		badge(out, c->status);
		fputs("</dd>", out);
	}
	if (c->evidence[0])
		markup_put(out, "<dt>Evidence</dt><dd>", c->evidence, "</dd>");
	if (c->why[0])
		markup_put(out, "<dt>Why it matters</dt><dd>", c->why, "</dd>");
	if (c->fix[0])
		markup_put(out, "<dt>Fix</dt><dd><pre>", c->fix, "</pre></dd>");
	fputs("</dl>\n", out);
}

static void write_row(FILE *out, const struct row *r, const struct result **rs, size_t n)
{
	fputs("<div class=\"check\"><div class=\"head\">", out);
	for (size_t i = 0; i < n; i++) {
		if (r->cells[i])
			badge(out, r->cells[i]->status);
		else
			fputs("<span class=\"badge s-skip\" title=\"not in this result\">\xe2\x80\x94"
			      "</span>", out);
	}
	fputs("<span class=\"title\">", out);
	E(row_title(r, n));
	fputs("</span> <code>", out);
	E(r->id);
	fputs("</code>", out);
	if (r->tid)
		fprintf(out, " <span class=\"muted\">thread %ld</span>", r->tid);
	fputs("</div>\n", out);
	for (size_t i = 0; i < n; i++) {
		if (!r->cells[i])
			continue;
		/* With several results, show each result's details under its name. */
		if (n > 1 && i > 0 && r->cells[i - 1] &&
		    r->cells[i - 1]->status == r->cells[i]->status &&
		    strcmp(r->cells[i - 1]->evidence, r->cells[i]->evidence) == 0)
			continue;	/* same as the previous result: say it once */
		detail(out, r->cells[i], n > 1 ? rs[i]->label : NULL);
	}
	fputs("</div>\n", out);
}

/* The rows that failed or warned (@attention), or the others, under their areas. */
static void write_areas(FILE *out, const struct row *rows, size_t nr, const struct result **rs,
			size_t n, bool attention)
{
	for (size_t i = 0; i < nr;) {
		size_t j = i;
		bool head = false;

		while (j < nr && strcmp(rows[j].area, rows[i].area) == 0) {
			if ((rows[j].rank < 2) == attention) {
				if (!head) {
					markup_put(out, "<h3>", rows[i].area, "</h3>\n");
					head = true;
				}
				write_row(out, &rows[j], rs, n);
			}
			j++;
		}
		i = j;
	}
}

static int write_checks(FILE *out, const struct result *const *all, size_t n_all)
{
	const struct finding **cells;
	const struct result **rs;
	struct row *rows;
	size_t nr, n = 0, counts[2] = { 0, 0 };
	int err;

	/* Columns only for the results that have checks (a latency run has none). */
	rs = calloc(n_all ? n_all : 1, sizeof(*rs));
	if (!rs)
		return -ENOMEM;
	for (size_t i = 0; i < n_all; i++)
		if (all[i]->has_checks)
			rs[n++] = all[i];
	err = build_rows(rs, n, &rows, &cells, &nr);
	if (err) {
		free(rs);
		return err;
	}
	fputs("<section id=\"checks\"><h2>Checks</h2>\n", out);
	if (!nr)
		fputs("<p class=\"muted\">No checks in these results.</p>\n", out);
	if (n > 1 && nr) {
		fputs("<p class=\"muted\">Badges in result order: ", out);
		for (size_t i = 0; i < n; i++) {
			if (i)
				fputs(" \xe2\x86\x92 ", out);
			E(rs[i]->label);
		}
		fputs(".</p>\n", out);
	}
	/* What failed or warned (in any result) first; the rest folded. */
	for (size_t i = 0; i < nr; i++)
		counts[rows[i].rank < 2 ? 0 : 1]++;
	if (nr && !counts[0])
		fputs("<p>No check failed or warned.</p>\n", out);
	write_areas(out, rows, nr, rs, n, true);
	if (counts[1]) {
		unsigned by[5] = { 0 };

		for (size_t i = 0; i < nr; i++)
			if (rows[i].rank >= 2 && rows[i].rank < 5)
				by[rows[i].rank]++;
		fprintf(out, "<details class=\"passed\"><summary>%zu other check%s: %u skipped, "
			     "%u info, %u passed</summary>\n", counts[1], counts[1] == 1 ? "" : "s",
			by[2], by[3], by[4]);
		write_areas(out, rows, nr, rs, n, false);
		fputs("</details>\n", out);
	}
	fputs("</section>\n", out);
	free(cells);
	free(rows);
	free(rs);
	return 0;
}

/* ---- verdict, latency, facts ----------------------------------------------------------- */

static bool has_latency(const struct result *r);

static int write_verdicts(FILE *out, const struct result *const *rs, size_t n)
{
	int err = 0;

	fprintf(out, "<section id=\"verdict\"><h2>Verdict</h2>\n<div class=\"cols\" "
		     "style=\"--n:%d\">\n", n_cols(n));
	for (size_t i = 0; i < n; i++) {
		const struct result *r = rs[i];
		struct summary s = findings_summary(r->checks, r->n_checks);

		if (r->verdict.present)
			fprintf(out, "<div class=\"card s-%s\"><div class=\"word\">%s</div>",
				rtr_status_name(r->verdict.status),
				r->verdict.status == RTR_FAIL	? "FAIL" :
				r->verdict.status == RTR_WARN	? "PASS WITH WARNINGS" :
								  "PASS");
		else
			fputs("<div class=\"card s-info\"><div class=\"word\">NO VERDICT</div>", out);
		fputs("<div><strong>", out);
		E(r->label);
		fputs("</strong> <span class=\"muted\">(rtready ", out);
		E(r->command);
		if (r->hostname[0]) {
			fputs(" on ", out);
			E(r->hostname);
		}
		fputs(")</span></div>\n", out);
		if (r->interrupted)
			fputs("<p><strong>Interrupted:</strong> the run was stopped early; these "
			      "results are partial.</p>\n", out);
		if (r->verdict.present && r->verdict.reason)
			markup_put(out, "<p>", r->verdict.reason, "</p>\n");
		/* Which CPUs are bad, in the first screen. */
		if (has_latency(r))
			err = err ?: overview_write_worst(out, r);
		if (r->has_checks)
			fprintf(out, "<p class=\"muted\">checks: %u fail, %u warn, %u skip, %u info, "
				     "%u pass</p>\n", s.fail, s.warn, s.skip, s.info, s.pass);
		fputs("</div>\n", out);
	}
	fputs("</div></section>\n", out);
	return err;
}

static bool has_latency(const struct result *r)
{
	return r->lat[PHASE_IDLE].present || r->lat[PHASE_LOAD].present;
}

/* The sorted union of measured CPUs over all results. */
static int cpu_union(const struct result *const *rs, size_t n, int **cpus, size_t *nc)
{
	size_t total = 0, k = 0, u = 0;
	int *c;

	for (size_t i = 0; i < n; i++)
		for (int p = 0; p < PHASE_COUNT; p++)
			total += rs[i]->lat[p].n_threads;
	c = calloc(total ? total : 1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		for (int p = 0; p < PHASE_COUNT; p++)
			for (size_t t = 0; t < rs[i]->lat[p].n_threads; t++)
				c[k++] = rs[i]->lat[p].threads[t].cpu;
	qsort(c, total, sizeof(*c), sorted_cmp_int);
	for (size_t i = 0; i < total; i++)
		if (u == 0 || c[u - 1] != c[i])
			c[u++] = c[i];
	*cpus = c;
	*nc = u;
	return 0;
}

static void figure(FILE *out, const struct result *r, int cpu, bool label,
		   const struct plot *shared, const struct exceed_scale *ex)
{
	const struct result_thread *idle = result_thread_of(&r->lat[PHASE_IDLE], cpu);
	const struct result_thread *load = result_thread_of(&r->lat[PHASE_LOAD], cpu);
	char title[96];

	fputs("<figure><figcaption>", out);
	if (label) {
		E(r->label);
		fputs(": ", out);
	}
	fprintf(out, "<strong>CPU %d</strong>", cpu);
	for (int p = 0; p < PHASE_COUNT; p++) {
		const struct result_thread *t = p ? load : idle;
		char a[32], b[32];

		if (!t)
			continue;
		if (!t->samples) {
			fprintf(out, " <span class=\"nosamples\">\xc2\xb7 %s: no samples (not "
				     "measured)</span>", p ? "loaded" : "idle");
			continue;
		}
		fmt_us(a, sizeof(a), t->max_ns);
		fmt_us(b, sizeof(b), t->p99_ns);
		fprintf(out, " <span class=\"muted\">\xc2\xb7 %s: max %s \xc2\xb5s, p99 %s \xc2\xb5s"
			     "%s</span>", p ? "loaded" : "idle", a, b,
			t->overflows ? ", some past the histogram" : "");
	}
	fputs("</figcaption>\n", out);
	snprintf(title, sizeof(title), "Wake-up latency histogram of CPU %d", cpu);
	if (!idle && !load) {
		fputs("<p class=\"muted\">not measured in this result</p>", out);
	} else {
		plot_histogram(out, idle, load, r->verdict.max_latency_us * 1000.0, title, shared,
			       "ax-h");
		snprintf(title, sizeof(title), "Exceedance plot of CPU %d: fraction of wake-ups "
			 "later than each latency, log-log", cpu);
		exceed_write_plot(out, ex, idle, load, r->verdict.max_latency_us * 1000.0, title,
				  "ax-e");
	}
	fputs("</figure>\n", out);
}

/*
 * One scale for every plot of the page, so CPUs and results (before and
 * after) compare at a glance, as on the OSADL plots.
 */
static struct plot shared_scale(const struct result *const *lr, size_t nl, const int *cpus,
				size_t nc)
{
	double end = 0;
	uint64_t maxc = 0;
	struct plot p;

	for (size_t i = 0; i < nl; i++) {
		end = fmax(end, lr[i]->verdict.max_latency_us * 1000.0);
		for (size_t c = 0; c < nc; c++)
			for (int ph = 0; ph < PHASE_COUNT; ph++)
				cover_end(&end, result_thread_of(&lr[i]->lat[ph], cpus[c]));
	}
	p = plot_scale(end);
	for (size_t i = 0; i < nl; i++)
		for (size_t c = 0; c < nc; c++)
			for (int ph = 0; ph < PHASE_COUNT; ph++)
				cover_count(&p, &maxc, result_thread_of(&lr[i]->lat[ph], cpus[c]));
	plot_set_count(&p, maxc);
	return p;
}

/* The same for the exceedance plots. */
static struct exceed_scale shared_exceed(const struct result *const *lr, size_t nl,
					 const int *cpus, size_t nc)
{
	struct exceed_scale s = EXCEED_SCALE_INIT;

	for (size_t i = 0; i < nl; i++)
		for (size_t c = 0; c < nc; c++)
			for (int ph = 0; ph < PHASE_COUNT; ph++)
				exceed_scale_cover(&s, result_thread_of(&lr[i]->lat[ph], cpus[c]),
						   lr[i]->verdict.max_latency_us * 1000.0);
	return s;
}

/* The axes every plot of the page shares, drawn once and used by reference. */
static void write_axes(FILE *out, const struct plot *hist, const struct exceed_scale *ex)
{
	fputs("<svg class=\"defs\" xmlns=\"http://www.w3.org/2000/svg\" aria-hidden=\"true\">"
	      "<defs><g id=\"ax-h\">\n", out);
	axes(out, hist);
	fputs("</g><g id=\"ax-e\">\n", out);
	exceed_write_axes(out, ex);
	fputs("</g></defs></svg>\n", out);
}

/* The folded line of one CPU: its role and each run's maximum, per result. */
static void cpu_summary(FILE *out, const struct result *const *lr, size_t nl, int cpu)
{
	const char *role = NULL;
	char buf[32];

	fprintf(out, "<summary><strong>CPU %d</strong>", cpu);
	for (size_t i = 0; i < nl && !role; i++) {
		struct rtr_cpuset rt = RTR_CPUSET_INIT;

		if (lr[i]->rt_cpus && lr[i]->rt_cpus[0] &&
		    rtr_cpuset_parse_list(&rt, lr[i]->rt_cpus) == 0 && !rtr_cpuset_is_empty(&rt))
			role = rtr_cpuset_test(&rt, cpu) ? "RT" : "housekeeping";
		rtr_cpuset_free(&rt);
	}
	if (role)
		fprintf(out, " <span class=\"muted\">(%s)</span>", role);
	for (size_t i = 0; i < nl; i++) {
		for (int p = 0; p < PHASE_COUNT; p++) {
			const struct result_thread *t = result_thread_of(&lr[i]->lat[p], cpu);
			bool over;

			if (!t)
				continue;
			fputs(" \xc2\xb7 ", out);
			if (nl > 1) {
				E(lr[i]->label);
				fputs(" ", out);
			}
			if (!t->samples) {
				fprintf(out, "<span class=\"nosamples\">%s: no samples</span>",
					p ? "loaded" : "idle");
				continue;
			}
			fmt_us(buf, sizeof(buf), t->max_ns);
			over = result_over_limit(lr[i], p, cpu);
			fprintf(out, "%s max <span%s>%s \xc2\xb5s</span>", p ? "loaded" : "idle",
				over ? " class=\"over\"" : "", buf);
		}
	}
	fputs("</summary>\n", out);
}

static int write_latency(FILE *out, const struct result *const *rs, size_t n)
{
	const struct result *lr[64];
	struct exceed_scale ex;
	struct plot shared;
	size_t nl = 0, nc;
	int *cpus, err = 0;

	for (size_t i = 0; i < n && nl < sizeof(lr) / sizeof(lr[0]); i++)
		if (has_latency(rs[i]))
			lr[nl++] = rs[i];
	if (!nl)
		return 0;
	err = cpu_union(lr, nl, &cpus, &nc);
	if (err)
		return err;
	shared = shared_scale(lr, nl, cpus, nc);
	ex = shared_exceed(lr, nl, cpus, nc);
	write_axes(out, &shared, &ex);
	fputs("<section id=\"overview\"><h2>All CPUs</h2>\n<p class=\"muted\">How late a "
	      "realtime thread woke up after its timer, on every CPU at once. The exceedance "
	      "plots show the fraction of wake-ups later than x, with both axes logarithmic, so "
	      "the bulk and the tail read at once (a point at 100 \xc2\xb5s and 1e-4 means one "
	      "wake-up in ten thousand was later than 100 \xc2\xb5s); each curve ends at its "
	      "CPU's maximum. The heat map gives each CPU a column: darker is later, on a "
	      "logarithmic scale. Every CPU links to its own plots below.</p>\n", out);
	for (size_t i = 0; i < nl && !err; i++) {
		if (nl > 1)
			markup_put(out, "<h3>", lr[i]->label, "</h3>\n");
		err = overview_write(out, lr[i], &ex, "ax-e");
	}
	fputs("</section>\n", out);
	if (err) {
		free(cpus);
		return err;
	}
	fputs("<section id=\"plots\"><h2>Per-CPU plots</h2>\n<p class=\"muted\">Each CPU "
	      "folded: open it for its histogram (counts on a logarithmic scale, so the rare "
	      "late wake-ups stay visible; blue: idle machine, orange: under load; dashed lines "
	      "mark each run's maximum) and its exceedance plot (a dotted stretch holds samples "
	      "past the histogram whose exact values were not kept). All plots share their "
	      "axes.</p>\n", out);
	for (size_t c = 0; c < nc; c++) {
		fputs("<details class=\"cpu\">", out);
		cpu_summary(out, lr, nl, cpus[c]);
		/* The id inside the fold: following a link to it opens the fold. */
		if (nl == 1) {
			fprintf(out, "<div class=\"plots\" id=\"cpu-%d\">\n", cpus[c]);
			figure(out, lr[0], cpus[c], false, &shared, &ex);
		} else {
			/* Side by side: one column per result. */
			fprintf(out, "<div class=\"cols\" style=\"--n:%d\" id=\"cpu-%d\">\n",
				n_cols(nl), cpus[c]);
			for (size_t i = 0; i < nl; i++)
				figure(out, lr[i], cpus[c], true, &shared, &ex);
		}
		fputs("</div></details>\n", out);
	}
	fputs("</section>\n", out);
	free(cpus);
	return 0;
}

static void fact_row(FILE *out, const char *name, const struct result *const *rs, size_t n,
		     size_t off)
{
	fprintf(out, "<tr><th>%s</th>", name);
	for (size_t i = 0; i < n; i++) {
		const char *v = *(char *const *)((const char *)rs[i] + off);

		fputs("<td>", out);
		if (v && v[0])
			E(v);
		else
			fputs("<span class=\"muted\">\xe2\x80\x94</span>", out);
		fputs("</td>", out);
	}
	fputs("</tr>\n", out);
}

static void write_facts(FILE *out, const struct result *const *rs, size_t n)
{
	fputs("<section id=\"system\"><h2>System</h2>\n<div class=\"wrap\"><table>\n", out);
	fact_row(out, "result", rs, n, offsetof(struct result, label));
	fact_row(out, "command", rs, n, offsetof(struct result, command));
	fact_row(out, "rtready", rs, n, offsetof(struct result, version));
	fact_row(out, "host", rs, n, offsetof(struct result, hostname));
	fact_row(out, "kernel", rs, n, offsetof(struct result, kernel));
	fact_row(out, "CPUs online", rs, n, offsetof(struct result, cpus_online));
	fact_row(out, "realtime CPUs", rs, n, offsetof(struct result, rt_cpus));
	fact_row(out, "root", rs, n, offsetof(struct result, root));
	for (int p = 0; p < PHASE_COUNT; p++) {
		fprintf(out, "<tr><th>%s run</th>", p ? "loaded" : "idle");
		for (size_t i = 0; i < n; i++) {
			const struct result_latency *l = &rs[i]->lat[p];

			fputs("<td>", out);
			if (!l->present) {
				fputs("<span class=\"muted\">\xe2\x80\x94</span></td>", out);
				continue;
			}
			fprintf(out, "%zu CPU%s", l->n_threads, l->n_threads == 1 ? "" : "s");
			if (l->interval_us > 0)
				fprintf(out, ", every %g \xc2\xb5s", l->interval_us);
			if (l->duration_s > 0)
				fprintf(out, ", %g s", l->duration_s);
			markup_put(out, ", load: ", l->load, "</td>");
		}
		fputs("</tr>\n", out);
	}
	fputs("<tr><th>latency limit</th>", out);
	for (size_t i = 0; i < n; i++) {
		if (rs[i]->verdict.max_latency_us > 0)
			fprintf(out, "<td>%g \xc2\xb5s</td>", rs[i]->verdict.max_latency_us);
		else
			fputs("<td><span class=\"muted\">none given</span></td>", out);
	}
	fputs("</tr>\n</table></div></section>\n", out);
}

/*
 * The page's one script, inline: headings of the CPU table become sort
 * buttons, and a link to a CPU opens its fold in browsers that do not do so
 * themselves. With scripts off the table stays in its written order (worst
 * first) and everything else works. The Content-Security-Policy allows this
 * script by its hash and nothing else: change one, change the other (the
 * browser test fails otherwise); the hash is
 * base64(sha256(text between <script> and </script>)).
 */
static const char script[] =
	"(function(){\n"
	"function key(r,c){var t=r.cells[c];t=t?t.textContent:\"\";var v=parseFloat(t);\n"
	"return isNaN(v)?t:v}\n"
	"function cmp(a,b){var x=typeof a==\"number\",y=typeof b==\"number\";if(x&&y)return a-b;\n"
	"if(x)return 1;if(y)return -1;return a<b?-1:a>b?1:0}\n"
	"document.querySelectorAll(\"table.sortable\").forEach(function(t){\n"
	"var hs=t.tHead.querySelectorAll(\"th[data-col]\");\n"
	"t.querySelectorAll(\".js\").forEach(function(e){e.hidden=false});\n"
	"hs.forEach(function(h){\n"
	"var b=document.createElement(\"button\");b.type=\"button\";b.textContent=h.textContent;\n"
	"h.textContent=\"\";h.appendChild(b);\n"
	"b.addEventListener(\"click\",function(){\n"
	"var c=+h.getAttribute(\"data-col\"),d=h.getAttribute(\"aria-sort\")!=\"descending\",s=d?-1:1,\n"
	"body=t.tBodies[0],rows=Array.prototype.slice.call(body.rows);\n"
	"hs.forEach(function(o){o.removeAttribute(\"aria-sort\")});\n"
	"h.setAttribute(\"aria-sort\",d?\"descending\":\"ascending\");\n"
	"rows.sort(function(x,y){var a=key(x,c),b=key(y,c),p=typeof a==\"number\",\n"
	"q=typeof b==\"number\";return p!=q?(p?-1:1):s*cmp(a,b)});\n"
	"rows.forEach(function(r){body.appendChild(r)})})})});\n"
	"function reveal(){var e=location.hash&&\n"
	"document.getElementById(decodeURIComponent(location.hash.slice(1))),d=e&&e.closest(\"details\");\n"
	"if(d&&!d.open){d.open=true;e.scrollIntoView()}}\n"
	"window.addEventListener(\"hashchange\",reveal);reveal()})();\n";

#define SCRIPT_HASH "sha256-rRL/SWabJiyqFhOagAoSb3v/qycDiQrnUW8nXvJE+2s="

/* Few enough CPUs in every run that printing all their plots makes sense. */
static bool few_cpus(const struct result *const *rs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		for (int p = 0; p < PHASE_COUNT; p++)
			if (rs[i]->lat[p].n_threads > 16)
				return false;
	return true;
}

int html_write(FILE *out, const struct result *const *rs, size_t n)
{
	int err;

	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
	      "style-src 'unsafe-inline'; img-src data:; script-src '" SCRIPT_HASH "'\">\n"
	      "<meta name=\"generator\" content=\"rtready " RTR_VERSION "\">\n<title>rtready report",
	      out);
	for (size_t i = 0; i < n && i < 4; i++) {
		fputs(i ? ", " : ": ", out);
		E(rs[i]->hostname[0] ? rs[i]->hostname : rs[i]->label);
	}
	fprintf(out, "</title>\n<style>\n%s%s</style>\n</head>\n<body>\n<header><h1>rtready report</h1>"
		     "<p class=\"sub\">", css, few_cpus(rs, n) ?
		/* A small machine's plots fit on paper: print them unfolded. */
		"@media print{details.cpu::details-content{content-visibility:visible;"
		"display:block}}\n" : "");
	fprintf(out, "%zu result%s: ", n, n == 1 ? "" : "s");
	for (size_t i = 0; i < n; i++) {
		if (i)
			fputs(", ", out);
		markup_put(out, "<code>", rs[i]->label, "</code>");
	}
	fputs("</p></header>\n<main>\n", out);
	fputs("<nav class=\"muted\"><a href=\"#verdict\">Verdict</a> \xc2\xb7 <a href=\"#checks\">"
	      "Checks</a>", out);
	for (size_t i = 0; i < n; i++) {
		if (has_latency(rs[i])) {
			fputs(" \xc2\xb7 <a href=\"#overview\">All CPUs</a> \xc2\xb7 "
			      "<a href=\"#plots\">Per-CPU plots</a>", out);
			break;
		}
	}
	if (html_noise_any(rs, n))
		fputs(" \xc2\xb7 <a href=\"#noise\">Noise</a>", out);
	fputs(" \xc2\xb7 <a href=\"#system\">System</a></nav>\n", out);
	/* The answer first: the verdict, what failed, then which CPUs are bad. */
	err = write_verdicts(out, rs, n);
	err = err ?: write_checks(out, rs, n);
	err = err ?: write_latency(out, rs, n);
	if (err)
		return err;
	html_noise_write(out, rs, n);
	write_facts(out, rs, n);
	fprintf(out, "</main>\n<footer><p class=\"muted\">Written by rtready " RTR_VERSION
		". Self-contained: nothing is fetched; one inline script sorts the CPU table, and "
		"the page reads the same without it.</p></footer>\n<script>%s</script>\n"
		"</body>\n</html>\n", script);
	return ferror(out) ? -EIO : 0;
}
