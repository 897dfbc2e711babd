// SPDX-License-Identifier: MIT
/* cyclictest's histogram file format; see histfile.h for the layout. */
#include <errno.h>
#include <inttypes.h>

#include "measure/histfile.h"

#define NS_PER_US 1000u

bool histfile_bucket_ok(uint64_t bucket_ns)
{
	if (bucket_ns == 0)
		return false;
	if (bucket_ns <= NS_PER_US)
		return NS_PER_US % bucket_ns == 0;
	return bucket_ns % NS_PER_US == 0;
}

/*
 * The rows: for narrow buckets, row u sums buckets [u*k, u*k + k) with
 * k = 1000 / bucket; for wide ones, row i is bucket i, at i * bucket / 1000.
 */
static size_t row_count(const struct rtr_hist *h)
{
	if (h->bucket_ns <= NS_PER_US) {
		size_t k = NS_PER_US / h->bucket_ns;

		return (h->nbuckets + k - 1) / k;
	}
	return h->nbuckets;
}

static uint64_t row_index_us(const struct rtr_hist *h, size_t row)
{
	if (h->bucket_ns <= NS_PER_US)
		return row;
	return (uint64_t)row * (h->bucket_ns / NS_PER_US);
}

static uint64_t row_value(const struct rtr_hist *h, size_t row)
{
	size_t k, from, to;
	uint64_t sum = 0;

	if (h->bucket_ns > NS_PER_US)
		return h->counts[row];
	k = NS_PER_US / h->bucket_ns;
	from = row * k;
	to = from + k < h->nbuckets ? from + k : h->nbuckets;
	for (size_t i = from; i < to; i++)
		sum += h->counts[i];
	return sum;
}

static void stat_line(FILE *out, const char *title, const struct latency_result *r,
		      size_t field, bool in_ns, bool sum)
{
	const uint64_t div = in_ns ? 1 : NS_PER_US;
	uint64_t top = 0;

	fprintf(out, "# %s:", title);
	for (size_t t = 0; t < r->n_cpus; t++) {
		const struct latency_stats *s = &r->cpus[t].stats;
		uint64_t v = field == 0 ? s->min_ns : field == 1 ? s->avg_ns : s->max_ns;

		fprintf(out, " %05" PRIu64, v / div);
		if (v > top)
			top = v;
	}
	if (sum)
		fprintf(out, " %05" PRIu64, top / div);
	fputc('\n', out);
}

int histfile_write(FILE *out, const struct latency_result *r, const struct histfile_opts *opt)
{
	const struct histfile_opts plain = { 0 };
	bool sum;
	uint64_t all;
	size_t rows;

	if (!opt)
		opt = &plain;
	if (r->n_cpus == 0)
		return -EINVAL;
	for (size_t t = 0; t < r->n_cpus; t++)
		if (!histfile_bucket_ok(r->cpus[t].hist.bucket_ns) ||
		    r->cpus[t].hist.nbuckets != r->cpus[0].hist.nbuckets ||
		    r->cpus[t].hist.bucket_ns != r->cpus[0].hist.bucket_ns)
			return -EINVAL;
	rows = row_count(&r->cpus[0].hist);
	/* cyclictest adds the column only when there is more than one to sum. */
	sum = opt->sum_column && r->n_cpus > 1;

	fputs("# Histogram\n", out);
	for (size_t row = 0; row < rows; row++) {
		all = 0;
		fprintf(out, "%06" PRIu64 " ", row_index_us(&r->cpus[0].hist, row));
		for (size_t t = 0; t < r->n_cpus; t++) {
			uint64_t v = row_value(&r->cpus[t].hist, row);

			fprintf(out, "%s%06" PRIu64, t ? "\t" : "", v);
			all += v;
		}
		if (sum)
			fprintf(out, "\t%06" PRIu64, all);
		fputc('\n', out);
	}
	fputs("# Total:", out);
	all = 0;
	for (size_t t = 0; t < r->n_cpus; t++) {
		const struct rtr_hist *h = &r->cpus[t].hist;

		fprintf(out, " %09" PRIu64, h->samples - h->overflows);
		all += h->samples - h->overflows;
	}
	if (sum)
		fprintf(out, " %09" PRIu64, all);
	fputc('\n', out);
	stat_line(out, "Min Latencies", r, 0, opt->in_ns, false);
	stat_line(out, "Avg Latencies", r, 1, opt->in_ns, false);
	stat_line(out, "Max Latencies", r, 2, opt->in_ns, sum);
	fputs("# Histogram Overflows:", out);
	all = 0;
	for (size_t t = 0; t < r->n_cpus; t++) {
		fprintf(out, " %05" PRIu64, r->cpus[t].hist.overflows);
		all += r->cpus[t].hist.overflows;
	}
	if (sum)
		fprintf(out, " %05" PRIu64, all);
	fputc('\n', out);
	fputs("# Histogram Overflow at cycle number:\n", out);
	for (size_t t = 0; t < r->n_cpus; t++) {
		const struct latency_cpu_result *c = &r->cpus[t];

		fprintf(out, "# Thread %zu:", t);
		for (size_t i = 0; i < c->n_ovf_cycles; i++)
			fprintf(out, " %05" PRIu64, c->ovf_cycles[i]);
		if (c->hist.overflows > c->n_ovf_cycles)
			fprintf(out, " # %05" PRIu64 " others", c->hist.overflows - c->n_ovf_cycles);
		fputc('\n', out);
	}
	fputc('\n', out);
	return ferror(out) ? -EIO : 0;
}
