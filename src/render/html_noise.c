// SPDX-License-Identifier: MIT
/*
 * The noise section of the HTML report; see html_noise.h. Written like the
 * rest of the page: one pass of fprintf, every string of a result through
 * markup_escape(), numbers formatted here.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "render/html_noise.h"
#include "render/markup.h"

#define E(s) markup_escape(out, (s))

/* Cause tables of at most this many CPUs are written open. */
#define OPEN_CPUS 8

/* A gap in µs: 0.1 µs below a millisecond, whole µs above. */
static void us(FILE *out, uint64_t ns)
{
	double v = (double)ns / 1000.0;

	fprintf(out, v >= 1000 ? "%.0f" : "%.1f", v);
}

static bool over(const struct result_noise *n, const struct result_noise_cpu *c)
{
	return n->max_noise_us > 0 && (double)c->max_ns / 1000.0 > n->max_noise_us;
}

/* The name as `rtready noise` prints it: "comm/pid" for a thread, "24 eth0" for an IRQ. */
static void cause_name(FILE *out, const struct result_noise_cause *k)
{
	if (k->id >= 0 && strcmp(k->kind, "irq") == 0)
		fprintf(out, "%lld ", (long long)k->id);
	E(k->name);
	if (k->id >= 0 && strcmp(k->kind, "thread") == 0)
		fprintf(out, "/%lld", (long long)k->id);
}

static void availability(FILE *out, const struct result_noise_cpu *c)
{
	if (c->has_availability)
		fprintf(out, "%.5f", c->availability_pct);
	else
		fputs("\xe2\x80\x94", out);
}

/* The line of @c in the table of every CPU, linking to its cause table. */
static void cpu_row(FILE *out, const struct result_noise *n, const struct result_noise_cpu *c,
		   size_t ri)
{
	fprintf(out, "<tr><td><a href=\"#noise-%zu-cpu-%d\">CPU %d</a></td><td class=\"n\">", ri,
		c->cpu, c->cpu);
	availability(out, c);
	fprintf(out, "</td><td class=\"n\">%llu</td><td class=\"n\">",
		(unsigned long long)c->events);
	us(out, c->noise_ns);
	fprintf(out, "</td><td class=\"n%s\">", over(n, c) ? " over" : "");
	us(out, c->max_ns);
	fputs("</td><td>", out);
	if (c->n_causes) {
		E(c->causes[0].kind);
		fputs(" ", out);
		cause_name(out, &c->causes[0]);
	} else {
		fputs("<span class=\"muted\">\xe2\x80\x94</span>", out);
	}
	fputs("</td></tr>\n", out);
}

/* One CPU's cause table, folded under a line with its figures. */
static void cpu_causes(FILE *out, const struct result_noise *n, const struct result_noise_cpu *c,
		       size_t ri)
{
	fprintf(out, "<details class=\"cpu\"%s id=\"noise-%zu-cpu-%d\"><summary><strong>CPU %d"
		     "</strong> \xc2\xb7 availability ", n->n_cpus <= OPEN_CPUS ? " open" : "", ri,
		c->cpu, c->cpu);
	availability(out, c);
	fprintf(out, " %% \xc2\xb7 %llu event%s \xc2\xb7 largest gap <span%s>",
		(unsigned long long)c->events, c->events == 1 ? "" : "s",
		over(n, c) ? " class=\"over\"" : "");
	us(out, c->max_ns);
	fputs(" \xc2\xb5s</span></summary>\n", out);
	if (!c->n_causes) {
		fprintf(out, "<p class=\"muted\">%s</p>", c->events ?
			"This result has no cause table for this CPU." :
			"No gap over the threshold.");
		fputs("</details>\n", out);
		return;
	}
	fprintf(out, "<div class=\"wrap\"><table class=\"causes\"><caption>What took CPU %d from "
		     "the loop, largest total first</caption>\n<thead><tr><th scope=\"col\">kind"
		     "</th><th scope=\"col\">name</th><th class=\"n\" scope=\"col\">count</th>"
		     "<th class=\"n\" scope=\"col\">total \xc2\xb5s</th><th class=\"n\" "
		     "scope=\"col\">max \xc2\xb5s</th></tr></thead><tbody>\n", c->cpu);
	for (size_t k = 0; k < c->n_causes; k++) {
		const struct result_noise_cause *q = &c->causes[k];

		markup_put(out, "<tr><td>", q->kind, "</td><td>");
		cause_name(out, q);
		fprintf(out, "</td><td class=\"n\">%llu</td><td class=\"n\">",
			(unsigned long long)q->count);
		us(out, q->total_ns);
		fputs("</td><td class=\"n\">", out);
		us(out, q->max_ns);
		fputs("</td></tr>\n", out);
	}
	fputs("</tbody></table></div></details>\n", out);
}

static void one(FILE *out, const struct result *r, size_t ri, bool label)
{
	const struct result_noise *n = &r->noise;

	if (label)
		markup_put(out, "<h3>", r->label, "</h3>\n");
	fputs("<p class=\"muted\">", out);
	if (n->threshold_ns)
		fprintf(out, "Gaps over %.1f \xc2\xb5s count. ", (double)n->threshold_ns / 1000.0);
	if (n->source && strcmp(n->source, "trace") == 0)
		fputs("Each gap was matched to what ran in it, from the kernel trace. ", out);
	else if (n->source && strcmp(n->source, "window") == 0)
		fputs("Without a kernel trace, the gaps of each 100 ms window share what the "
		      "/proc counters of that window show: the causes are per window, not per "
		      "gap. ", out);
	if (n->max_noise_us > 0)
		fprintf(out, "Limit on the largest gap: %g \xc2\xb5s.", n->max_noise_us);
	fputs("</p>\n", out);
	if (!n->n_cpus) {
		fputs("<p class=\"muted\">No CPU measured.</p>\n", out);
		return;
	}
	fputs("<div class=\"wrap\"><table class=\"noise\"><caption>Every measured CPU</caption>\n"
	      "<thead><tr><th scope=\"col\">CPU</th><th class=\"n\" scope=\"col\">availability %"
	      "</th><th class=\"n\" scope=\"col\">events</th><th class=\"n\" scope=\"col\">noise "
	      "\xc2\xb5s</th><th class=\"n\" scope=\"col\">largest gap \xc2\xb5s</th>"
	      "<th scope=\"col\">first cause</th></tr></thead><tbody>\n", out);
	for (size_t c = 0; c < n->n_cpus; c++)
		cpu_row(out, n, &n->cpus[c], ri);
	fputs("</tbody></table></div>\n", out);
	for (size_t c = 0; c < n->n_cpus; c++)
		cpu_causes(out, n, &n->cpus[c], ri);
}

bool html_noise_any(const struct result *const *rs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (rs[i]->noise.present)
			return true;
	return false;
}

void html_noise_write(FILE *out, const struct result *const *rs, size_t n)
{
	size_t with = 0;

	for (size_t i = 0; i < n; i++)
		with += rs[i]->noise.present;
	if (!with)
		return;
	fputs("<section id=\"noise\"><h2>Noise on spinning CPUs</h2>\n<p class=\"muted\">A loop "
	      "that never sleeps ran on each CPU and read the clock without pause: every gap "
	      "between two reads over the threshold is an event, a time the CPU was taken from "
	      "the loop. Availability is the share of the run the loop had the CPU (as rtla "
	      "osnoise gives it); each event has one cause (an interrupt, a softirq, a thread "
	      "that ran, an NMI, RT throttling, the hypervisor, or hardware when nothing in the "
	      "kernel ran), and the table of each CPU adds them up.</p>\n", out);
	for (size_t i = 0; i < n; i++)
		if (rs[i]->noise.present)
			one(out, rs[i], i, n > 1);
	fputs("</section>\n", out);
}
