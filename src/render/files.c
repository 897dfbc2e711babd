// SPDX-License-Identifier: MIT
/* The report files of some results; see files.h. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "render/files.h"
#include "render/html.h"
#include "render/junit.h"
#include "render/prometheus.h"
#include "util/output.h"

enum kind { KIND_HTML, KIND_JUNIT, KIND_PROM };

static int write_one(const char *path, enum kind k, bool strict, const struct result *const *rs,
		     size_t n, char *err, size_t errlen)
{
	char stamp[32] = "";
	struct junit_style st = { strict, stamp };
	time_t now = time(NULL);
	struct output out;
	struct tm tm;
	int e;

	if (localtime_r(&now, &tm))
		strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%S", &tm);
	e = output_open(&out, path);
	if (!e) {
		switch (k) {
		case KIND_HTML:
			e = html_write(out.fp, rs, n);
			break;
		case KIND_JUNIT:
			e = junit_write(out.fp, rs, n, &st);
			break;
		case KIND_PROM:
			e = prom_write(out.fp, rs, n);
			break;
		}
		e = output_close(&out, e == 0) ?: e;
	}
	if (e)
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(-e));
	return e;
}

int render_result_files(const struct result_files *f, const struct result *const *rs, size_t n,
			char *err, size_t errlen)
{
	int e = 0;

	if (f->html)
		e = write_one(f->html, KIND_HTML, f->strict, rs, n, err, errlen);
	if (!e && f->junit)
		e = write_one(f->junit, KIND_JUNIT, f->strict, rs, n, err, errlen);
	if (!e && f->prometheus)
		e = write_one(f->prometheus, KIND_PROM, f->strict, rs, n, err, errlen);
	return e;
}
