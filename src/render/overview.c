// SPDX-License-Identifier: MIT
/*
 * The overview of all CPUs; see overview.h. Sizes matter here: a 256-CPU
 * verify result makes 512 curves, 1,536 heat cells and 256 table rows, and
 * the whole page must stay under 2 MB and render in a browser within 2 s.
 * So the curves are drawn to the whole pixel (exceed_curve with a coarse
 * step), colours come from the page's style sheet by class, and the axes
 * are the page's shared ones.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "render/markup.h"
#include "render/overview.h"
#include "rtready/cpuset.h"

#define E(s) markup_escape(out, (s))

enum role { ROLE_UNKNOWN, ROLE_RT, ROLE_HOUSE };

/* One CPU of the result, with both runs. */
struct ocpu {
	int cpu;
	enum role role;
	const struct result_thread *t[PHASE_COUNT];	/* NULL: not in that run */
	bool over[PHASE_COUNT];				/* its maximum failed the limit */
	bool silent;		/* in a run without a single sample */
	double worst_ns;	/* highest maximum over the runs */
};

/* The worst CPUs emphasised in an exceedance plot. */
#define N_WORST 5
/* CPUs per row of the heat map. */
#define HEAT_PER_ROW 128

static const char *const phase_word[PHASE_COUNT] = { "idle", "under load" };

/* "12.3" us, or "1234" past a millisecond. */
static void fmt_us(char *buf, size_t len, double ns)
{
	double us = ns / 1000.0;

	snprintf(buf, len, us >= 1000 ? "%.0f" : "%.1f", us);
}

static int cmp_cpu(const void *a, const void *b)
{
	const struct ocpu *x = a, *y = b;

	return (x->cpu > y->cpu) - (x->cpu < y->cpu);
}

/* Worst first: CPUs that took no sample, then the highest maximum, then by number. */
static int cmp_worst(const void *a, const void *b)
{
	const struct ocpu *x = *(const struct ocpu *const *)a, *y = *(const struct ocpu *const *)b;

	if (x->silent != y->silent)
		return x->silent ? -1 : 1;
	if (x->worst_ns != y->worst_ns)
		return x->worst_ns > y->worst_ns ? -1 : 1;
	return (x->cpu > y->cpu) - (x->cpu < y->cpu);
}

/* The CPUs of @r in number order (*out: free it). Return: 0 or -ENOMEM. */
static int collect(const struct result *r, struct ocpu **out, size_t *n_out)
{
	struct rtr_cpuset rt = RTR_CPUSET_INIT;
	bool rt_known = r->rt_cpus && r->rt_cpus[0] &&
			rtr_cpuset_parse_list(&rt, r->rt_cpus) == 0 && !rtr_cpuset_is_empty(&rt);
	size_t total = r->lat[PHASE_IDLE].n_threads + r->lat[PHASE_LOAD].n_threads, n = 0;
	struct ocpu *c = calloc(total ? total : 1, sizeof(*c));

	if (!c) {
		rtr_cpuset_free(&rt);
		return -ENOMEM;
	}
	for (int p = 0; p < PHASE_COUNT; p++) {
		for (size_t i = 0; i < r->lat[p].n_threads; i++) {
			const struct result_thread *t = &r->lat[p].threads[i];
			size_t k = 0;

			/* A CPU appears once per run; linear search is fine for what is sorted later. */
			while (k < n && c[k].cpu != t->cpu)
				k++;
			if (k == n) {
				c[n].cpu = t->cpu;
				c[n].role = !rt_known ? ROLE_UNKNOWN :
					    rtr_cpuset_test(&rt, t->cpu) ? ROLE_RT : ROLE_HOUSE;
				n++;
			}
			if (c[k].t[p])
				continue;	/* a second thread on one CPU: the first is shown */
			c[k].t[p] = t;
			c[k].over[p] = result_over_limit(r, p, t->cpu);
			if (!t->samples)
				c[k].silent = true;
			else if (t->max_ns > c[k].worst_ns)
				c[k].worst_ns = t->max_ns;
		}
	}
	rtr_cpuset_free(&rt);
	qsort(c, n, sizeof(*c), cmp_cpu);
	*out = c;
	*n_out = n;
	return 0;
}

static const char *role_name(enum role r)
{
	return r == ROLE_RT ? "RT" : r == ROLE_HOUSE ? "housekeeping" : "";
}

/* ---- exceedance plot of every CPU ------------------------------------------------------ */

struct label {
	double x, y;
};

/* A label's y that does not overlap one already placed near it. */
static double place(const struct label *placed, size_t n, double x, double y)
{
	for (int tries = 0; tries < 12; tries++) {
		bool clash = false;

		for (size_t i = 0; i < n; i++)
			if (fabs(placed[i].x - x) < 70 && fabs(placed[i].y - y) < 12)
				clash = true;
		if (!clash)
			break;
		y -= 12;
	}
	return y < EXCEED_MT + 10 ? EXCEED_MT + 10 : y;
}

static void exceed_all(FILE *out, const struct result *r, const struct ocpu *c, size_t n,
		       const struct ocpu *const *worst, enum result_phase p,
		       const struct exceed_scale *s, const char *axes_id)
{
	const struct ocpu *w[N_WORST];
	struct label placed[N_WORST];
	size_t nw = 0, drawn = 0;
	bool roles = n && c[0].role != ROLE_UNKNOWN;
	char buf[32];
	int x;

	/* The worst of this run: the page's worst-first order, restricted to curves. */
	for (size_t i = 0; i < n && nw < N_WORST; i++)
		if (exceed_has_curve(worst[i]->t[p]))
			w[nw++] = worst[i];
	fputs("<figure class=\"ov\"><figcaption><strong>", out);
	fputs(p ? "Under load" : "Idle", out);
	fprintf(out, "</strong>: one curve per CPU%s; the %zu worst by maximum in colour and "
		     "labelled</figcaption>\n", roles ? " (RT and housekeeping CPUs told apart)" : "",
		nw);
	fprintf(out, "<svg class=\"exceed all\" xmlns=\"http://www.w3.org/2000/svg\" "
		     "viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\" role=\"img\">"
		     "<title>Exceedance plot of every CPU %s: "
		     "fraction of wake-ups later than each latency, log-log, one curve per CPU",
		EXCEED_W, EXCEED_H, EXCEED_W, EXCEED_H, phase_word[p]);
	for (size_t i = 0; i < nw; i++) {
		fmt_us(buf, sizeof(buf), w[i]->t[p]->max_ns);
		fprintf(out, "%s CPU %d (max %s \xc2\xb5s)", i ? "," : "; worst:", w[i]->cpu, buf);
	}
	fprintf(out, "</title>\n<use href=\"#%s\"/>\n", axes_id);
	/* The others first, so the worst are drawn over them. */
	for (size_t i = 0; i < n; i++) {
		bool is_worst = false;

		for (size_t k = 0; k < nw; k++)
			is_worst |= w[k] == &c[i];
		if (is_worst || !exceed_has_curve(c[i].t[p]))
			continue;
		exceed_curve(out, s, c[i].t[p], c[i].role == ROLE_HOUSE ? "hk" : "rt", 1.2);
		drawn++;
	}
	for (size_t i = nw; i > 0; i--) {
		char cls[8];

		snprintf(cls, sizeof(cls), "w%zu", i - 1);
		exceed_curve(out, s, w[i - 1]->t[p], cls, 0.7);
	}
	if (r->verdict.max_latency_us > 0) {
		double lx, ly;

		exceed_point(s, r->verdict.max_latency_us * 1000, 1, &lx, &ly);
		fprintf(out, "<line class=\"lim\" x1=\"%.0f\" x2=\"%.0f\" y1=\"%d\" y2=\"%d\"/>\n", lx,
			lx, EXCEED_MT, EXCEED_H - EXCEED_MB);
	}
	/* Labels at each worst curve's end (its maximum), kept apart. */
	for (size_t i = 0; i < nw; i++) {
		const struct result_thread *t = w[i]->t[p];
		double lx, ly;
		bool right;

		exceed_point(s, t->max_ns, exceed_end_fraction(t), &lx, &ly);
		right = lx > EXCEED_W - EXCEED_MR - 60;
		ly = place(placed, i, lx, ly - 4);
		placed[i] = (struct label){ lx, ly };
		fprintf(out, "<text class=\"wt%zu\" x=\"%.0f\" y=\"%.0f\" text-anchor=\"%s\">CPU %d"
			     "</text>\n", i, right ? lx - 3 : lx + 3, ly, right ? "end" : "start",
			w[i]->cpu);
	}
	/* Legend above the plot area. */
	x = EXCEED_ML;
	if (roles) {
		fprintf(out, "<rect class=\"sw-rt\" x=\"%d\" y=\"%d\" width=\"14\" height=\"3\"/>"
			     "<text x=\"%d\" y=\"%d\">RT CPU</text>"
			     "<rect class=\"sw-hk\" x=\"%d\" y=\"%d\" width=\"14\" height=\"3\"/>"
			     "<text x=\"%d\" y=\"%d\">housekeeping CPU</text>\n", x, EXCEED_MT - 13,
			x + 18, EXCEED_MT - 7, x + 80, EXCEED_MT - 13, x + 98, EXCEED_MT - 7);
		x += 210;
	} else if (drawn) {
		fprintf(out, "<rect class=\"sw-rt\" x=\"%d\" y=\"%d\" width=\"14\" height=\"3\"/>"
			     "<text x=\"%d\" y=\"%d\">other CPUs</text>\n", x, EXCEED_MT - 13, x + 18,
			EXCEED_MT - 7);
		x += 100;
	}
	if (r->verdict.max_latency_us > 0)
		fprintf(out, "<text class=\"lim-t\" x=\"%d\" y=\"%d\">| limit %g \xc2\xb5s</text>\n", x,
			EXCEED_MT - 7, r->verdict.max_latency_us);
	if (!nw)
		fprintf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">no samples: not "
			     "measured</text>\n", EXCEED_ML + (EXCEED_W - EXCEED_ML - EXCEED_MR) / 2,
			EXCEED_MT + (EXCEED_H - EXCEED_MB - EXCEED_MT) / 2);
	fputs("</svg>\n</figure>\n", out);
}

/* ---- heat map ------------------------------------------------------------------------- */

/*
 * HTML, not SVG: a column of coloured cells per CPU, each column a link,
 * in blocks of HEAT_PER_ROW CPUs. Colours are classes of the page's style
 * sheet (h0 lightest to h8 darkest, hx no samples, o over the limit).
 */
enum { HEAT_STEPS = 9 };

struct heat {
	double lo, hi;		/* log10 of the colour scale's ends, in ns */
	bool roles;
	bool phase[PHASE_COUNT];
};

static double metric(const struct result_thread *t, int m)
{
	return m == 0 ? t->p50_ns : m == 1 ? t->p99_ns : t->max_ns;
}

static int heat_class(const struct heat *h, double ns)
{
	double f = (log10(fmax(ns, 1)) - h->lo) / (h->hi - h->lo);
	int k = (int)floor(f * HEAT_STEPS);

	return k < 0 ? 0 : k >= HEAT_STEPS ? HEAT_STEPS - 1 : k;
}

/* The column's name: its CPU, role and every figure it shows (a tooltip and its link text). */
static void heat_title(FILE *out, const struct ocpu *c)
{
	static const char *const names[] = { "p50", "p99", "max" };
	char buf[32];

	fprintf(out, " title=\"CPU %d", c->cpu);
	if (c->role != ROLE_UNKNOWN)
		fprintf(out, " (%s)", role_name(c->role));
	for (int p = 0; p < PHASE_COUNT; p++) {
		const struct result_thread *t = c->t[p];

		if (!t)
			continue;
		fprintf(out, "%s %s", p && c->t[PHASE_IDLE] ? ";" : ":", phase_word[p]);
		if (!t->samples) {
			fputs(" no samples", out);
			continue;
		}
		for (int m = 0; m < 3; m++) {
			fmt_us(buf, sizeof(buf), metric(t, m));
			fprintf(out, "%s %s %s", m ? "," : "", names[m], buf);
		}
		fputs(" \xc2\xb5s", out);
		if (c->over[p])
			fputs(" (over the limit)", out);
	}
	fputs("\"", out);
}

static void heat_legend(FILE *out, const struct heat *h)
{
	char buf[32];

	fputs("<p class=\"hleg\"><span class=\"muted\">darker is later, \xc2\xb5s on a log "
	      "scale:</span> ", out);
	for (int k = 0; k < HEAT_STEPS; k++) {
		fmt_us(buf, sizeof(buf), pow(10, h->lo + (h->hi - h->lo) * k / HEAT_STEPS));
		fprintf(out, "<i class=\"h%d\"></i>%s ", k, k % 2 == 0 ? buf : "");
	}
	fmt_us(buf, sizeof(buf), pow(10, h->hi));
	fprintf(out, "%s \xc2\xb7 <i class=\"hx\"></i>no samples \xc2\xb7 <i class=\"h4 o\"></i>"
		     "maximum over the limit", buf);
	if (h->roles)
		fputs(" \xc2\xb7 role: <i class=\"rr\"></i>RT <i class=\"rh\"></i>housekeeping", out);
	fputs("</p>\n", out);
}

static void heatmap(FILE *out, const struct ocpu *c, size_t n)
{
	static const char *const names[] = { "p50", "p99", "max" };
	struct heat h = { INFINITY, -INFINITY, n && c[0].role != ROLE_UNKNOWN, { false, false } };
	int cell, every = 1;

	for (size_t i = 0; i < n; i++) {
		for (int p = 0; p < PHASE_COUNT; p++) {
			if (!c[i].t[p])
				continue;
			h.phase[p] = true;
			if (!c[i].t[p]->samples)
				continue;
			for (int m = 0; m < 3; m++) {
				double v = log10(fmax(metric(c[i].t[p], m), 1));

				h.lo = fmin(h.lo, v);
				h.hi = fmax(h.hi, v);
			}
		}
	}
	if (!(h.lo <= h.hi)) {
		h.lo = 3;
		h.hi = 4;
	}
	h.lo = floor(h.lo * 2) / 2;	/* half decades: round legend values */
	h.hi = fmax(ceil(h.hi * 2) / 2, h.lo + 1);
	cell = 1000 / (int)(n < HEAT_PER_ROW ? (n ? n : 1) : HEAT_PER_ROW);
	cell = cell > 40 ? 40 : cell < 4 ? 4 : cell;
	while (every * cell < 28)
		every *= 2;

	fprintf(out, "<div class=\"wrap\"><div class=\"heat\" role=\"group\" style=\"--w:%dpx\" "
		     "aria-label=\"Heat map of p50, p99 and maximum latency of every CPU; each "
		     "column links to that CPU's plots\">\n", cell);
	for (size_t first = 0; first < n; first += HEAT_PER_ROW) {
		fputs("<div class=\"hb\"><div class=\"hl\" aria-hidden=\"true\"><b></b>", out);
		if (h.roles)
			fputs("<b class=\"rl\">role</b>", out);
		for (int p = 0; p < PHASE_COUNT; p++)
			for (int m = 0; h.phase[p] && m < 3; m++)
				fprintf(out, "<b%s>%s %s</b>", m == 0 && p && h.phase[0] ? " class=\"g\"" : "",
					p ? "load" : "idle", names[m]);
		fputs("</div>\n", out);
		for (size_t i = first; i < n && i < first + HEAT_PER_ROW; i++) {
			fprintf(out, "<a href=\"#cpu-%d\"", c[i].cpu);
			heat_title(out, &c[i]);
			fputs("><b>", out);
			if ((i - first) % (size_t)every == 0)
				fprintf(out, "%d", c[i].cpu);
			fputs("</b>", out);
			if (h.roles)
				fprintf(out, "<i class=\"%s\"></i>", c[i].role == ROLE_RT ? "rr" : "rh");
			for (int p = 0; p < PHASE_COUNT; p++) {
				const struct result_thread *t = c[i].t[p];

				for (int m = 0; h.phase[p] && m < 3; m++) {
					bool gap = m == 0 && p && h.phase[0];

					if (!t || !t->samples)
						fprintf(out, "<i class=\"hx%s\"></i>", gap ? " g" : "");
					else
						fprintf(out, "<i class=\"h%d%s%s\"></i>",
							heat_class(&h, metric(t, m)),
							m == 2 && c[i].over[p] ? " o" : "",
							gap ? " g" : "");
				}
			}
			fputs("</a>\n", out);
		}
		fputs("</div>\n", out);
	}
	fputs("</div></div>\n", out);
	heat_legend(out, &h);
}

/* ---- the table ------------------------------------------------------------------------ */

static void table_cells(FILE *out, const struct result_thread *t, bool over)
{
	const double v[] = { t->p50_ns, t->p99_ns, t->p999_ns, t->max_ns };
	char buf[32];

	if (!t->samples) {
		/* Zeros would read as a perfect run: say it was not measured. */
		fprintf(out, "<td class=\"n nosamples\">0: not measured</td><td class=\"n\">\xe2\x80\x94"
			     "</td><td class=\"n\">\xe2\x80\x94</td><td class=\"n\">\xe2\x80\x94</td>"
			     "<td class=\"n\">\xe2\x80\x94</td><td class=\"n\">%llu</td>",
			(unsigned long long)t->overflows);
		return;
	}
	fprintf(out, "<td class=\"n\">%llu</td>", (unsigned long long)t->samples);
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		fmt_us(buf, sizeof(buf), v[i]);
		fprintf(out, "<td class=\"n%s\">%s</td>", i == 3 && over ? " over" : "", buf);
	}
	fprintf(out, "<td class=\"n\">%llu</td>", (unsigned long long)t->overflows);
}

static void table(FILE *out, const struct result *r, const struct ocpu *const *worst, size_t n)
{
	static const char *const cols[] = { "samples", "p50", "p99", "p99.9", "max",
					    "past range" };
	bool roles = n && worst[0]->role != ROLE_UNKNOWN, phase[PHASE_COUNT] = { false, false };
	int col = roles ? 2 : 1;

	for (size_t i = 0; i < n; i++)
		for (int p = 0; p < PHASE_COUNT; p++)
			phase[p] |= worst[i]->t[p] != NULL;
	fputs("<div class=\"wrap\"><table class=\"cpus sortable\"><caption>Every CPU, worst first: "
	      "CPUs that took no sample, then the highest maximum of either run. Latencies in "
	      "\xc2\xb5s; a CPU's number links to its plots.<span class=\"js\" hidden> Click a "
	      "heading to sort by it.</span></caption>\n<thead><tr>"
	      "<th rowspan=\"2\" scope=\"col\" data-col=\"0\">CPU</th>", out);
	if (roles)
		fputs("<th rowspan=\"2\" scope=\"col\" data-col=\"1\">role</th>", out);
	for (int p = 0; p < PHASE_COUNT; p++)
		if (phase[p])
			fprintf(out, "<th colspan=\"6\" scope=\"colgroup\" class=\"grp\">%s</th>",
				phase_word[p]);
	fputs("</tr>\n<tr>", out);
	for (int p = 0; p < PHASE_COUNT; p++) {
		if (!phase[p])
			continue;
		for (size_t k = 0; k < sizeof(cols) / sizeof(cols[0]); k++)
			fprintf(out, "<th class=\"n\" scope=\"col\" data-col=\"%d\">%s</th>", col++,
				cols[k]);
	}
	fputs("</tr></thead>\n<tbody>\n", out);
	for (size_t i = 0; i < n; i++) {
		const struct ocpu *c = worst[i];

		fprintf(out, "<tr><td><a href=\"#cpu-%d\">%d</a></td>", c->cpu, c->cpu);
		if (roles)
			fprintf(out, "<td>%s</td>", role_name(c->role));
		for (int p = 0; p < PHASE_COUNT; p++) {
			if (!phase[p])
				continue;
			if (c->t[p])
				table_cells(out, c->t[p], c->over[p]);
			else	/* one cell per column, so sorting keeps columns aligned */
				for (int k = 0; k < 6; k++)
					fputs("<td class=\"n muted\">\xe2\x80\x94</td>", out);
		}
		fputs("</tr>\n", out);
	}
	fputs("</tbody>\n", out);
	if ((phase[PHASE_IDLE] && r->lat[PHASE_IDLE].has_summary) ||
	    (phase[PHASE_LOAD] && r->lat[PHASE_LOAD].has_summary)) {
		fprintf(out, "<tfoot><tr><th scope=\"row\"%s>all CPUs</th>",
			roles ? " colspan=\"2\"" : "");
		for (int p = 0; p < PHASE_COUNT; p++) {
			if (!phase[p])
				continue;
			if (r->lat[p].has_summary)
				table_cells(out, &r->lat[p].summary, false);
			else
				fputs("<td></td><td></td><td></td><td></td><td></td><td></td>", out);
		}
		fputs("</tr></tfoot>\n", out);
	}
	fputs("</table></div>\n", out);
}

/* ---- the overview --------------------------------------------------------------------- */

/* "CPU 5 (max 30000 us, over the limit), ..." for the N_WORST worst, each a link. */
static void worst_list(FILE *out, const struct ocpu *const *worst, size_t n)
{
	char buf[32];

	for (size_t i = 0; i < n && i < N_WORST; i++) {
		const struct ocpu *w = worst[i];

		fprintf(out, "%s <a href=\"#cpu-%d\">CPU %d</a> ", i ? "," : "", w->cpu, w->cpu);
		if (w->silent) {
			fputs("(<span class=\"nosamples\">no samples</span>)", out);
			continue;
		}
		fmt_us(buf, sizeof(buf), w->worst_ns);
		fprintf(out, "(max %s \xc2\xb5s%s)", buf,
			w->over[PHASE_IDLE] || w->over[PHASE_LOAD] ? ", over the limit" : "");
	}
}

static void summary_line(FILE *out, const struct ocpu *c, size_t n,
			 const struct ocpu *const *worst)
{
	size_t rt = 0, house = 0;

	for (size_t i = 0; i < n; i++) {
		rt += c[i].role == ROLE_RT;
		house += c[i].role == ROLE_HOUSE;
	}
	fprintf(out, "<p>%zu CPU%s measured", n, n == 1 ? "" : "s");
	if (rt || house)
		fprintf(out, ": %zu RT, %zu housekeeping", rt, house);
	fputs(". Worst:", out);
	worst_list(out, worst, n);
	fputs(".</p>\n", out);
}

/* The CPUs of @r and their worst-first order (free both). Return: 0 or -ENOMEM. */
static int ranked(const struct result *r, struct ocpu **c, const struct ocpu ***worst, size_t *n)
{
	int err = collect(r, c, n);

	if (err)
		return err;
	*worst = calloc(*n ? *n : 1, sizeof(**worst));
	if (!*worst) {
		free(*c);
		return -ENOMEM;
	}
	for (size_t i = 0; i < *n; i++)
		(*worst)[i] = &(*c)[i];
	qsort(*worst, *n, sizeof(**worst), cmp_worst);
	return 0;
}

int overview_write_worst(FILE *out, const struct result *r)
{
	const struct ocpu **worst;
	struct ocpu *c;
	size_t n;
	int err = ranked(r, &c, &worst, &n);

	if (err)
		return err;
	if (n > 1) {
		fputs("<p>Worst CPUs:", out);
		worst_list(out, worst, n);
		fputs(" \xc2\xb7 <a href=\"#overview\">all CPUs</a></p>\n", out);
	}
	free(worst);
	free(c);
	return 0;
}

int overview_write(FILE *out, const struct result *r, const struct exceed_scale *scale,
		   const char *axes_id)
{
	const struct ocpu **worst;
	struct ocpu *c;
	size_t n, np = 0;
	int err = ranked(r, &c, &worst, &n);

	if (err)
		return err;
	summary_line(out, c, n, worst);
	for (int p = 0; p < PHASE_COUNT; p++)
		np += r->lat[p].present;
	fprintf(out, "<div class=\"cols\" style=\"--n:%zu\">\n", np ? np : 1);
	for (int p = 0; p < PHASE_COUNT; p++)
		if (r->lat[p].present)
			exceed_all(out, r, c, n, worst, p, scale, axes_id);
	fputs("</div>\n", out);
	heatmap(out, c, n);
	table(out, r, worst, n);
	free(worst);
	free(c);
	return 0;
}
