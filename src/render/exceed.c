// SPDX-License-Identifier: MIT
/*
 * The exceedance plot; see exceed.h. The curve is the complementary
 * cumulative distribution P(latency > x), read from the histogram: above
 * the start of bucket j lie the samples of buckets j and later plus the
 * overflows. Within a bucket the samples' exact values are unknown, so the
 * curve falls across the bucket in a straight line (on the log axes); it is
 * flat over empty buckets. Past the histogram's range the exact outliers
 * give exact steps (the k-th largest value is exceeded by k - 1 samples);
 * overflows that were not kept exactly lie somewhere between the range and
 * the smallest kept one, and that stretch is dashed. The curve ends at the
 * maximum, which is exact, with a drop to the bottom edge (no sample later).
 */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "render/exceed.h"
#include "render/markup.h"

enum { PW = EXCEED_W, PH = EXCEED_H, ML = EXCEED_ML, MR = EXCEED_MR, MT = EXCEED_MT,
       MB = EXCEED_MB };

/* The smallest 1, 2 or 5 times a power of ten that is >= @x (> 0). */
static double nice_up(double x)
{
	double p = pow(10, floor(log10(x)));

	if (p >= x * (1 - 1e-9))
		return p;
	if (2 * p >= x * (1 - 1e-9))
		return 2 * p;
	if (5 * p >= x * (1 - 1e-9))
		return 5 * p;
	return 10 * p;
}

/* Samples in the histogram and past it, and the count fractions are taken of. */
static uint64_t total_of(const struct result_thread *t)
{
	uint64_t n = t->overflows;

	for (size_t i = 0; i < t->n_counts; i++)
		n += t->counts[i];
	return n > t->samples ? n : t->samples;
}

static bool has_curve(const struct result_thread *t)
{
	return t && t->samples && t->bucket_ns && (t->n_counts || t->overflows);
}

void exceed_scale_cover(struct exceed_scale *s, const struct result_thread *t, double limit_ns)
{
	double lo, hi, ylo;

	if (!has_curve(t))
		return;
	lo = floor(log10(t->min_ns >= 1 ? t->min_ns : (double)t->bucket_ns));
	hi = log10(nice_up(fmax(fmax(t->max_ns, limit_ns), 1) * 1.1));
	ylo = log10(0.5 / (double)total_of(t));
	if (!s->any) {
		*s = (struct exceed_scale){ lo, hi, ylo, true };
		return;
	}
	s->xlo = fmin(s->xlo, lo);
	s->xhi = fmax(s->xhi, hi);
	s->ylo = fmin(s->ylo, ylo);
}

/* The axes actually drawn: at least one decade wide, a default when empty. */
static struct exceed_scale drawn_scale(const struct exceed_scale *s)
{
	struct exceed_scale d = s->any ? *s : (struct exceed_scale){ 3, 6, -1, false };

	if (d.xhi < d.xlo + 1)
		d.xhi = d.xlo + 1;
	if (d.ylo > -1)
		d.ylo = -1;
	return d;
}

static double px_x(const struct exceed_scale *s, double ns)
{
	double l = ns > 0 ? log10(ns) : s->xlo;

	l = fmin(fmax(l, s->xlo), s->xhi);
	return ML + (l - s->xlo) / (s->xhi - s->xlo) * (PW - ML - MR);
}

/* A fraction of 0 (nothing later) is the bottom edge. */
static double px_y(const struct exceed_scale *s, double frac)
{
	double l = frac > 0 ? log10(frac) : s->ylo;

	l = fmin(fmax(l, s->ylo), 0);
	return (PH - MB) - (l - s->ylo) / -s->ylo * (PH - MB - MT);
}

/*
 * A path being drawn in pixels. A point within 0.4 px of the last one
 * drawn is held back (a million buckets make a few hundred points), and
 * drawn when the path moves on or ends, so no turn is lost.
 */
struct pen {
	FILE *out;
	const struct exceed_scale *s;
	double min_px;		/* points closer than this are held back */
	int decimals;		/* of the coordinates written (0 or 1) */
	bool open, held;
	double x, y, hx, hy;
};

static void pen_open(struct pen *p, const char *cls)
{
	fprintf(p->out, "<path class=\"%s\" d=\"", cls);
	p->open = true;
	p->held = false;
	p->x = p->y = -1e9;
}

static void pen_emit(struct pen *p, double x, double y)
{
	fprintf(p->out, "%c%.*f %.*f", p->x < -1e8 ? 'M' : 'L', p->decimals, x, p->decimals, y);
	p->x = x;
	p->y = y;
	p->held = false;
}

/* Move on to @ns, @frac. */
static void pen_to(struct pen *p, double ns, double frac)
{
	double x = px_x(p->s, ns), y = px_y(p->s, frac);

	if (p->x > -1e8 && fabs(x - p->x) < p->min_px && fabs(y - p->y) < p->min_px) {
		p->hx = x;
		p->hy = y;
		p->held = true;
		return;
	}
	pen_emit(p, x, y);
}

static void pen_close(struct pen *p)
{
	if (!p->open)
		return;
	if (p->held)
		pen_emit(p, p->hx, p->hy);
	fputs("\"/>\n", p->out);
	p->open = false;
}

static void curve(FILE *out, const struct exceed_scale *s, const struct result_thread *t,
		  const char *cls, double min_px)
{
	const double n = (double)total_of(t), b = (double)t->bucket_ns;
	struct pen p = { out, s, min_px, min_px >= 0.5 ? 0 : 1, false, false, 0, 0, 0, 0 };
	uint64_t above = t->overflows;	/* samples at or above the next bucket */
	size_t last = t->n_counts;
	char dashed[32];

	for (size_t i = 0; i < t->n_counts; i++)
		above += t->counts[i];
	for (size_t i = t->n_counts; i > 0; i--) {
		if (t->counts[i - 1]) {
			last = i - 1;
			break;
		}
	}
	pen_open(&p, cls);
	pen_to(&p, pow(10, s->xlo), (double)above / n);
	for (size_t j = 0; j < t->n_counts; j++) {
		double x0 = (double)j * b, x1 = x0 + b;

		if (!t->counts[j])
			continue;
		pen_to(&p, x0, (double)above / n);
		above -= t->counts[j];
		if (j == last && !t->overflows) {
			/* The maximum lies in the last bucket: one sample there, none later. */
			double xe = fmin(fmax(t->max_ns, x0), x1);

			pen_to(&p, xe, 1 / n);
			pen_to(&p, xe, 0);
		} else {
			pen_to(&p, x1, (double)above / n);
		}
	}
	if (t->overflows) {
		double range = fmax((double)t->range_ns, (double)t->n_counts * b);
		uint64_t kept = t->n_outliers, unknown = t->overflows - kept;

		pen_to(&p, range, (double)t->overflows / n);
		if (unknown) {
			/* Somewhere between the range and the smallest exact value. */
			double end = kept ? (double)t->outliers[kept - 1] : t->max_ns;

			pen_close(&p);
			snprintf(dashed, sizeof(dashed), "%s unk", cls);
			pen_open(&p, dashed);
			pen_to(&p, range, (double)t->overflows / n);
			pen_to(&p, end, (double)(kept ? kept : 1) / n);
			if (!kept)
				pen_to(&p, end, 0);
			pen_close(&p);
			if (kept)
				pen_open(&p, cls);
		}
		/* Exact values, smallest first: the k-th largest is exceeded by k - 1. */
		for (size_t k = kept; k > 0; k--) {
			pen_to(&p, (double)t->outliers[k - 1], (double)k / n);
			pen_to(&p, (double)t->outliers[k - 1], (double)(k - 1) / n);
		}
	}
	pen_close(&p);
}

static void decade_label(char *buf, size_t len, int d)
{
	static const char *const unit[] = { "ns", "\xc2\xb5s", "ms", "s" };
	int u = d < 0 ? 0 : d / 3 > 3 ? 3 : d / 3;

	snprintf(buf, len, "%g %s", pow(10, d - 3 * u), unit[u]);
}

static void axes(FILE *out, const struct exceed_scale *s)
{
	int step = -s->ylo > 12 ? 2 : 1;
	char buf[32];

	fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" "
		     "stroke=\"#8c959f\"/>\n", ML, MT, PW - ML - MR, PH - MB - MT);
	for (int d = 0; d >= (int)ceil(s->ylo); d -= step) {
		double y = px_y(s, pow(10, d));

		if (d >= -2)
			snprintf(buf, sizeof(buf), "%g", pow(10, d));
		else
			snprintf(buf, sizeof(buf), "1e-%d", -d);
		fprintf(out, "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#eaeef2\"/>"
			     "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n", ML,
			PW - MR, y, y, ML - 5, y + 4, buf);
	}
	for (int d = (int)floor(s->xlo); d <= (int)ceil(s->xhi); d++) {
		static const int minor[] = { 2, 5 };

		if (d >= s->xlo - 1e-9 && d <= s->xhi + 1e-9) {
			double x = px_x(s, pow(10, d));

			decade_label(buf, sizeof(buf), d);
			fprintf(out, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" "
				     "stroke=\"#eaeef2\"/><text x=\"%.1f\" y=\"%d\" "
				     "text-anchor=\"middle\">%s</text>\n", x, x, MT, PH - MB, x,
				PH - MB + 17, buf);
		}
		for (size_t m = 0; m < sizeof(minor) / sizeof(minor[0]); m++) {
			double l = d + log10(minor[m]), x;

			if (l <= s->xlo || l >= s->xhi)
				continue;
			x = px_x(s, pow(10, l));
			fprintf(out, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" "
				     "stroke=\"#8c959f\"/>\n", x, x, PH - MB, PH - MB + 4);
		}
	}
	fprintf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">latency x (log scale)"
		     "</text>\n", ML + (PW - ML - MR) / 2, PH - 8);
	fprintf(out, "<text x=\"14\" y=\"%d\" text-anchor=\"middle\" transform=\"rotate(-90 14 %d)\">"
		     "fraction later than x (log)</text>\n", MT + (PH - MB - MT) / 2,
		MT + (PH - MB - MT) / 2);
}

static void vline(FILE *out, const struct exceed_scale *s, double ns, const char *cls,
		  const char *label, int row)
{
	double x = px_x(s, ns);
	bool right = x > PW - MR - 110;

	fprintf(out, "<line class=\"%s\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\"/>\n", cls, x, x,
		MT, PH - MB);
	fprintf(out, "<text class=\"%s-t\" x=\"%.1f\" y=\"%d\" text-anchor=\"%s\">%s</text>\n", cls,
		right ? x - 3 : x + 3, MT + 12 + row * 13, right ? "end" : "start", label);
}

/* "12.3" µs, or "1234" past a millisecond. */
static void fmt_us(char *buf, size_t len, double ns)
{
	snprintf(buf, len, ns >= 1e6 ? "%.0f" : "%.1f", ns / 1000.0);
}

bool exceed_has_curve(const struct result_thread *t)
{
	return has_curve(t);
}

void exceed_curve(FILE *out, const struct exceed_scale *scale, const struct result_thread *t,
		  const char *cls, double min_px)
{
	const struct exceed_scale s = drawn_scale(scale);

	if (has_curve(t))
		curve(out, &s, t, cls, min_px);
}

void exceed_point(const struct exceed_scale *scale, double ns, double frac, double *x, double *y)
{
	const struct exceed_scale s = drawn_scale(scale);

	*x = px_x(&s, ns);
	*y = px_y(&s, frac);
}

double exceed_end_fraction(const struct result_thread *t)
{
	return has_curve(t) ? 1 / (double)total_of(t) : 0;
}

void exceed_write_axes(FILE *out, const struct exceed_scale *scale)
{
	const struct exceed_scale s = drawn_scale(scale);

	axes(out, &s);
}

static const char exceed_style[] =
	".idle,.load{fill:none;stroke-width:1.6}.idle{stroke:#1f5fa8}"
	".load{stroke:#c4471b}.unk{stroke-dasharray:2 3}.sw-idle{fill:#1f5fa8}"
	".sw-load{fill:#c4471b}.mx-idle,.mx-load,.lim{stroke-width:1.2;"
	"stroke-dasharray:4 3}.mx-idle{stroke:#1f5fa8}.mx-load{stroke:#c4471b}"
	".lim{stroke:#cf222e;stroke-dasharray:none;stroke-width:1.5}.mx-idle-t{fill:#1f5fa8}"
	".mx-load-t{fill:#c4471b}.lim-t{fill:#cf222e;font-weight:700}"
	"text{fill:#1f2328}";

void exceed_write_empty(FILE *out, const struct result_thread *idle,
			const struct result_thread *load)
{
	fprintf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s</text>\n",
		ML + (PW - ML - MR) / 2, MT + (PH - MB - MT) / 2,
		(idle && !idle->samples) || (load && !load->samples) ?
		"no samples: not measured" : "no histogram in this result");
}

void exceed_write(FILE *out, const struct exceed_scale *scale, const struct result_thread *idle,
		  const struct result_thread *load, double limit_ns, const char *title)
{
	exceed_write_plot(out, scale, idle, load, limit_ns, title, NULL);
}

void exceed_write_plot(FILE *out, const struct exceed_scale *scale,
		       const struct result_thread *idle, const struct result_thread *load,
		       double limit_ns, const char *title, const char *axes_id)
{
	const struct result_thread *th[2] = { idle, load };
	const struct exceed_scale s = drawn_scale(scale);
	char label[64], buf[32];
	int row = 0, x = ML;

	fprintf(out, "<svg class=\"exceed\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %d %d\" "
		     "width=\"%d\" height=\"%d\" role=\"img\"%s><title>", PW, PH, PW, PH,
		axes_id ? "" : " font-size=\"11\" font-family=\"system-ui,sans-serif\"");
	markup_escape(out, title);
	fputs("</title>\n", out);
	if (axes_id) {
		/* On a page: its style sheet styles the plot, the axes are drawn once. */
		fprintf(out, "<use href=\"#%s\"/>\n", axes_id);
	} else {
		fprintf(out, "<style>%s</style>\n", exceed_style);
		axes(out, &s);
	}
	if (!has_curve(idle) && !has_curve(load))
		exceed_write_empty(out, idle, load);
	for (int i = 0; i < 2; i++)
		if (has_curve(th[i]))
			curve(out, &s, th[i], i ? "load" : "idle", axes_id ? 0.7 : 0.4);
	for (int i = 0; i < 2; i++) {
		if (!th[i] || !th[i]->samples)
			continue;
		fmt_us(buf, sizeof(buf), th[i]->max_ns);
		snprintf(label, sizeof(label), "max %s %s \xc2\xb5s", i ? "loaded" : "idle", buf);
		vline(out, &s, th[i]->max_ns, i ? "mx-load" : "mx-idle", label, row++);
	}
	if (limit_ns > 0) {
		fmt_us(buf, sizeof(buf), limit_ns);
		snprintf(label, sizeof(label), "limit %s \xc2\xb5s", buf);
		vline(out, &s, limit_ns, "lim", label, row++);
	}
	for (int i = 0; i < 2; i++) {
		if (!has_curve(th[i]))
			continue;
		fprintf(out, "<rect class=\"sw-%s\" x=\"%d\" y=\"%d\" width=\"14\" height=\"3\"/>"
			     "<text x=\"%d\" y=\"%d\">%s</text>\n", i ? "load" : "idle", x, MT - 13,
			x + 18, MT - 7, i ? "under load" : "idle");
		x += i ? 90 : 60;
	}
	fputs("</svg>\n", out);
}
