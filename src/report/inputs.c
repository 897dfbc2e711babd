// SPDX-License-Identifier: MIT
/* The inputs of `rtready report`: result files loaded, merged and judged; see result.h. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "report/result.h"

int result_load_all(const char *const *paths, size_t n, double max_latency_us, struct result *res,
		    char *err, size_t errlen)
{
	int k = 0, e = 0;

	for (size_t i = 0; i < n && !e; i++) {
		struct result r;

		e = result_load_file(paths[i], &r, err, errlen);
		if (e) {
			result_free(&r);
			break;
		}
		e = k ? result_merge(&res[k - 1], &r, err, errlen) : -EEXIST;
		if (e == -EEXIST) {
			res[k++] = r;
			e = 0;
			continue;
		}
		result_free(&r);
		if (e && e != -EXDEV)
			snprintf(err, errlen, "%s", strerror(-e));
	}
	/* Files without a verdict (check, latency) are judged here, as verify would. */
	for (int i = 0; i < k && !e; i++) {
		if (res[i].verdict.present && !(max_latency_us > 0))
			continue;
		e = result_judge(&res[i], max_latency_us, &res[i].verdict);
		if (e)
			snprintf(err, errlen, "%s", strerror(-e));
	}
	if (!e)
		return k;
	for (int i = 0; i < k; i++)
		result_free(&res[i]);
	return e;
}
