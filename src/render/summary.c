// SPDX-License-Identifier: MIT
/*
 * Text summary of a result; see summary.h. Checks are listed worst first,
 * each on one line cut to the terminal's usual width (the HTML report has
 * the evidence and the fix in full); the latency table puts the idle and
 * the loaded figures of a CPU on one row so the effect of load reads
 * across.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "render/summary.h"
#include "render/text.h"

/* @s on one line: newlines become spaces, cut at @width with "...". */
static void one_line(FILE *out, const char *s, int width)
{
	int n = 0;

	for (; *s && n < width; s++, n++) {
		if (n == width - 3 && strlen(s) > 3) {
			fputs("...", out);
			return;
		}
		fputc(*s == '\n' || *s == '\t' ? ' ' : *s, out);
	}
}

static void checks(FILE *out, const struct result *r, bool color)
{
	struct summary s = findings_summary(r->checks, r->n_checks);
	const struct text_style st = { .color = color };

	fprintf(out, "Checks: %u fail, %u warn, %u skip, %u info, %u pass\n", s.fail, s.warn, s.skip,
		s.info, s.pass);
	for (int rank = 0; rank < 3; rank++) {
		for (size_t i = 0; i < r->n_checks; i++) {
			const struct finding *c = &r->checks[i];

			if (report_status_rank(c->status) != rank)
				continue;
			fprintf(out, "  %s%-4s%s %-24s ", text_status_color(&st, c->status),
				rtr_status_name(c->status), text_reset(&st), c->id);
			one_line(out, c->evidence[0] ? c->evidence : c->title, 72);
			fputc('\n', out);
		}
	}
	if (s.fail + s.warn + s.skip)
		fputs("  (evidence, reasons and fixes: 'rtready check', or the HTML report)\n", out);
}

static void cells(FILE *out, const struct result_thread *t)
{
	if (!t) {
		fprintf(out, "  %8s %7s %7s %8s", "-", "-", "-", "-");
		return;
	}
	if (!t->samples) {
		/* Not measured: zeros would read as a perfect run. */
		fprintf(out, "  %8d %7s %7s %8s", 0, "-", "-", "-");
		return;
	}
	fprintf(out, "  %8llu %7.1f %7.1f %8.1f", (unsigned long long)t->samples, t->p50_ns / 1e3,
		t->p99_ns / 1e3, t->max_ns / 1e3);
}

static void latency(FILE *out, const struct result *r)
{
	const struct result_latency *idle = &r->lat[PHASE_IDLE], *load = &r->lat[PHASE_LOAD];
	const struct result_latency *rows = idle->n_threads ? idle : load;

	if (!idle->present && !load->present)
		return;
	fprintf(out, "\nLatency (us)\n%8s%-35s", "", "idle");
	if (load->present)
		fprintf(out, "under load (%s)", load->load ? load->load : "");
	fputc('\n', out);
	fprintf(out, "  CPU ");
	for (int p = 0; p < (load->present ? 2 : 1); p++)
		fprintf(out, "  %8s %7s %7s %8s", "samples", "p50", "p99", "max");
	fputc('\n', out);
	for (size_t i = 0; i < rows->n_threads; i++) {
		int cpu = rows->threads[i].cpu;

		fprintf(out, "  %3d ", cpu);
		cells(out, result_thread_of(idle, cpu));
		if (load->present)
			cells(out, result_thread_of(load, cpu));
		fputc('\n', out);
	}
	/* CPUs measured only under load (not expected, but never hidden). */
	for (size_t i = 0; rows == idle && i < load->n_threads; i++) {
		if (result_thread_of(idle, load->threads[i].cpu))
			continue;
		fprintf(out, "  %3d ", load->threads[i].cpu);
		cells(out, NULL);
		cells(out, &load->threads[i]);
		fputc('\n', out);
	}
	if (idle->has_summary || load->has_summary) {
		fprintf(out, "  all ");
		cells(out, idle->has_summary ? &idle->summary : NULL);
		if (load->present)
			cells(out, load->has_summary ? &load->summary : NULL);
		fputc('\n', out);
	}
}

int summary_write(FILE *out, const struct result *r, bool color)
{
	const struct text_style st = { .color = color };

	if (r->has_checks)
		checks(out, r, color);
	latency(out, r);
	if (r->verdict.present)
		fprintf(out, "\nVerdict: %s%s%s: %s\n", text_status_color(&st, r->verdict.status),
			r->verdict.status == RTR_FAIL	? "FAIL" :
			r->verdict.status == RTR_WARN	? "PASS WITH WARNINGS" :
							  "PASS",
			text_reset(&st), r->verdict.reason ? r->verdict.reason : "");
	return ferror(out) ? -EIO : 0;
}
