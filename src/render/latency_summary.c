// SPDX-License-Identifier: MIT
/*
 * The end of `rtready latency`: its text summary as cyclictest's options
 * shape it (-q, -h, -H, -N), and its JSON, compact or indented.
 */
#include <errno.h>

#include "measure/histfile.h"
#include "render/json.h"
#include "render/latency.h"

int latency_text_summary(FILE *fp, const struct latency_result *r,
			 const struct latency_text_shape *s)
{
	struct histfile_opts ho = { .sum_column = s->sum_column, .in_ns = s->in_ns };
	int err = 0;

	if (s->quiet && s->hist)
		return histfile_write(fp, r, &ho);
	if (s->quiet) {
		err = latency_text_tlines(fp, r, s->in_ns);
		fputc('\n', fp);
	}
	err = err ?: latency_text_write(fp, r, s->color, s->in_ns);
	if (!err && s->hist) {
		fputc('\n', fp);
		err = histfile_write(fp, r, &ho);
	}
	return err;
}

int latency_json_write(FILE *fp, const struct latency_result *r, const struct host_info *host,
		       bool pretty)
{
	json_t *j = latency_to_json(r, host);
	int err = !j ? -ENOMEM : pretty ? json_write(fp, j) : json_write_compact(fp, j);

	json_decref(j);
	return err;
}
