// SPDX-License-Identifier: MIT
/*
 * Prometheus text exposition renderer; see prometheus.h. The format wants
 * every sample of a family together after its # HELP and # TYPE lines, so
 * the loops run family first, then result, then CPU. Latency figures are
 * exported in seconds (the base unit Prometheus asks for); counts of a
 * finished run are gauges, not counters (they do not grow between scrapes).
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "render/prometheus.h"

void prom_escape_label(FILE *out, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '\\': fputs("\\\\", out); break;
		case '"': fputs("\\\"", out); break;
		case '\n': fputs("\\n", out); break;
		default: fputc(*s, out);
		}
	}
}

/* A series being written: its label set is open until series_value(). */
struct series {
	FILE *out;
	bool first;
};

static void label(struct series *se, const char *key, const char *value)
{
	fprintf(se->out, "%s%s=\"", se->first ? "" : ",", key);
	prom_escape_label(se->out, value);
	fputc('"', se->out);
	se->first = false;
}

/*
 * Start a series of @name with the labels every series of a result carries:
 * host (when known) and, with several results, result.
 */
static struct series series_open(FILE *out, const char *name, const struct result *r,
				 bool several)
{
	struct series se = { out, true };

	fprintf(out, "%s{", name);
	if (r->hostname[0])
		label(&se, "host", r->hostname);
	if (several)
		label(&se, "result", r->label);
	return se;
}

static void family(FILE *out, const char *name, const char *help)
{
	fprintf(out, "# HELP %s %s\n# TYPE %s gauge\n", name, help, name);
}

static void write_info(FILE *out, const struct result *const *rs, size_t n)
{
	family(out, "rtready_info", "Which rtready run produced these figures (always 1).");
	for (size_t i = 0; i < n; i++) {
		const struct result *r = rs[i];

		struct series se = series_open(out, "rtready_info", r, n > 1);

		label(&se, "command", r->command);
		label(&se, "version", r->version);
		label(&se, "kernel", r->kernel);
		label(&se, "rt_cpus", r->rt_cpus);
		fputs("} 1\n", out);
	}
}

static void write_verdict(FILE *out, const struct result *const *rs, size_t n)
{
	static const enum rtr_status states[] = { RTR_PASS, RTR_WARN, RTR_FAIL };
	bool any = false;

	for (size_t i = 0; i < n; i++)
		any |= rs[i]->verdict.present;
	if (!any)
		return;
	family(out, "rtready_verdict",
	       "Verdict of the run: 1 for its status (pass, warn or fail), 0 for the others.");
	for (size_t i = 0; i < n; i++) {
		if (!rs[i]->verdict.present)
			continue;
		for (size_t s = 0; s < sizeof(states) / sizeof(states[0]); s++) {
			struct series se = series_open(out, "rtready_verdict", rs[i], n > 1);

			label(&se, "status", rtr_status_name(states[s]));
			fprintf(out, "} %d\n", rs[i]->verdict.status == states[s]);
		}
	}
	any = false;
	for (size_t i = 0; i < n; i++)
		any |= rs[i]->verdict.max_latency_us > 0;
	if (!any)
		return;
	family(out, "rtready_latency_limit_seconds",
	       "Latency limit the verdict judged the maxima against.");
	for (size_t i = 0; i < n; i++) {
		if (!(rs[i]->verdict.max_latency_us > 0))
			continue;
		series_open(out, "rtready_latency_limit_seconds", rs[i], n > 1);
		fprintf(out, "} %.9g\n", rs[i]->verdict.max_latency_us / 1e6);
	}
}

static void write_checks(FILE *out, const struct result *const *rs, size_t n)
{
	static const enum rtr_status states[] = { RTR_PASS, RTR_WARN, RTR_FAIL, RTR_INFO,
						  RTR_SKIP };
	bool any = false;

	for (size_t i = 0; i < n; i++)
		any |= rs[i]->has_checks;
	if (!any)
		return;
	family(out, "rtready_check_status",
	       "Status of each checklist item: 1 for its current status, 0 for the others.");
	for (size_t i = 0; i < n; i++) {
		for (size_t c = 0; c < rs[i]->n_checks; c++) {
			const struct finding *k = &rs[i]->checks[c];

			for (size_t s = 0; s < sizeof(states) / sizeof(states[0]); s++) {
				struct series se =
					series_open(out, "rtready_check_status", rs[i], n > 1);
				char tid[24];

				label(&se, "id", k->id);
				label(&se, "area", k->area);
				if (k->tid) {
					snprintf(tid, sizeof(tid), "%ld", k->tid);
					label(&se, "tid", tid);
				}
				label(&se, "status", rtr_status_name(states[s]));
				fprintf(out, "} %d\n", k->status == states[s]);
			}
		}
	}
	family(out, "rtready_checks", "Number of checks with each status.");
	for (size_t i = 0; i < n; i++) {
		struct summary s = findings_summary(rs[i]->checks, rs[i]->n_checks);
		const unsigned v[] = { s.pass, s.warn, s.fail, s.info, s.skip };

		if (!rs[i]->has_checks)
			continue;
		for (size_t k = 0; k < sizeof(states) / sizeof(states[0]); k++) {
			struct series se = series_open(out, "rtready_checks", rs[i], n > 1);

			label(&se, "status", rtr_status_name(states[k]));
			fprintf(out, "} %u\n", v[k]);
		}
	}
}

/* One latency figure of a thread, as it is printed. */
struct figure {
	const char *name, *help;
	bool seconds;		/* ns figure printed in seconds; else a count */
	size_t off;		/* of a double (seconds) or a uint64_t (count) */
};

static void write_figure(FILE *out, const struct figure *f, const struct result *const *rs,
			 size_t n)
{
	family(out, f->name, f->help);
	for (size_t i = 0; i < n; i++) {
		for (int p = 0; p < PHASE_COUNT; p++) {
			const struct result_latency *l = &rs[i]->lat[p];

			for (size_t t = 0; t <= l->n_threads; t++) {
				const struct result_thread *th;
				struct series se;
				const char *base;
				char cpu[16];

				if (t == l->n_threads && !l->has_summary)
					break;
				th = t < l->n_threads ? &l->threads[t] : &l->summary;
				base = (const char *)th + f->off;
				se = series_open(out, f->name, rs[i], n > 1);
				if (th->cpu >= 0)
					snprintf(cpu, sizeof(cpu), "%d", th->cpu);
				else
					snprintf(cpu, sizeof(cpu), "all");
				label(&se, "cpu", cpu);
				label(&se, "phase", result_phase_name(p));
				fputs("} ", out);
				/* No sample, no latency: NaN, never a 0 s that reads as perfect. */
				if (f->seconds && !th->samples)
					fputs("NaN\n", out);
				else if (f->seconds)
					fprintf(out, "%.9g\n", *(const double *)base / 1e9);
				else
					fprintf(out, "%llu\n",
						(unsigned long long)*(const uint64_t *)base);
			}
		}
	}
}

static void write_latency(FILE *out, const struct result *const *rs, size_t n)
{
	static const struct figure figs[] = {
		{ "rtready_latency_min_seconds", "Smallest wake-up latency measured.", true,
		  offsetof(struct result_thread, min_ns) },
		{ "rtready_latency_avg_seconds", "Mean wake-up latency.", true,
		  offsetof(struct result_thread, avg_ns) },
		{ "rtready_latency_p50_seconds", "Median wake-up latency.", true,
		  offsetof(struct result_thread, p50_ns) },
		{ "rtready_latency_p99_seconds", "99th percentile of the wake-up latency.", true,
		  offsetof(struct result_thread, p99_ns) },
		{ "rtready_latency_p999_seconds", "99.9th percentile of the wake-up latency.",
		  true, offsetof(struct result_thread, p999_ns) },
		{ "rtready_latency_max_seconds", "Largest wake-up latency measured.", true,
		  offsetof(struct result_thread, max_ns) },
		{ "rtready_latency_samples", "Wake-ups measured.", false,
		  offsetof(struct result_thread, samples) },
		{ "rtready_latency_overflows", "Wake-ups later than the histogram's range.", false,
		  offsetof(struct result_thread, overflows) },
	};
	bool any = false;

	for (size_t i = 0; i < n; i++)
		any |= rs[i]->lat[PHASE_IDLE].present || rs[i]->lat[PHASE_LOAD].present;
	if (!any)
		return;
	for (size_t f = 0; f < sizeof(figs) / sizeof(figs[0]); f++)
		write_figure(out, &figs[f], rs, n);
}

/* The noise figures per CPU (rtready noise, verify --max-noise). */
static void write_noise(FILE *out, const struct result *const *rs, size_t n)
{
	static const struct {
		const char *name, *help;
		int which;
	} figs[] = {
		{ "rtready_noise_max_seconds", "Largest gap of a spinning loop on the CPU.", 0 },
		{ "rtready_noise_seconds", "Sum of the gaps over the threshold (noise time).", 1 },
		{ "rtready_noise_events", "Gaps over the threshold.", 2 },
		{ "rtready_noise_availability_ratio",
		  "Share of the run the loop had the CPU (1 - noise / duration).", 3 },
	};
	bool any = false, limit = false;

	for (size_t i = 0; i < n; i++) {
		any |= rs[i]->noise.present;
		limit |= rs[i]->noise.max_noise_us > 0;
	}
	if (!any)
		return;
	for (size_t f = 0; f < sizeof(figs) / sizeof(figs[0]); f++) {
		family(out, figs[f].name, figs[f].help);
		for (size_t i = 0; i < n; i++) {
			for (size_t c = 0; c < rs[i]->noise.n_cpus; c++) {
				const struct result_noise_cpu *nc = &rs[i]->noise.cpus[c];
				struct series se = series_open(out, figs[f].name, rs[i], n > 1);
				char cpu[16];

				snprintf(cpu, sizeof(cpu), "%d", nc->cpu);
				label(&se, "cpu", cpu);
				fputs("} ", out);
				switch (figs[f].which) {
				case 0: fprintf(out, "%.9g\n", (double)nc->max_ns / 1e9); break;
				case 1: fprintf(out, "%.9g\n", (double)nc->noise_ns / 1e9); break;
				case 2: fprintf(out, "%llu\n", (unsigned long long)nc->events); break;
				default: fprintf(out, "%.9g\n", nc->availability_pct / 100.0); break;
				}
			}
		}
	}
	if (!limit)
		return;
	family(out, "rtready_noise_limit_seconds", "Largest gap allowed (verify --max-noise).");
	for (size_t i = 0; i < n; i++) {
		if (!(rs[i]->noise.max_noise_us > 0))
			continue;
		series_open(out, "rtready_noise_limit_seconds", rs[i], n > 1);
		fprintf(out, "} %.9g\n", rs[i]->noise.max_noise_us / 1e6);
	}
}

int prom_write(FILE *out, const struct result *const *rs, size_t n)
{
	write_info(out, rs, n);
	write_verdict(out, rs, n);
	write_checks(out, rs, n);
	write_latency(out, rs, n);
	write_noise(out, rs, n);
	return ferror(out) ? -EIO : 0;
}
