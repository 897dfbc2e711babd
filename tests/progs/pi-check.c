// SPDX-License-Identifier: MIT
/*
 * The priority-inversion measurement of `rtready pi` as a bare program on
 * librtready alone, so that it can be built with musl (where the tool's
 * JSON dependency is missing) and prove the PI mutex works there too.
 *   pi-check [ROUNDS]    exit 0 when priority inheritance works
 */
#include <stdio.h>
#include <stdlib.h>

#include "measure/pi.h"
#include "rtready/cpuset.h"

int main(int argc, char **argv)
{
	struct rtr_cpuset set = RTR_CPUSET_INIT;
	struct pi_config c;
	struct pi_result r;
	char err[512] = "";
	int rc;

	pi_config_default(&c);
	if (argc > 1)
		c.rounds = (unsigned)atoi(argv[1]);
	if (rtr_cpuset_get_affinity(&set) == 0)
		for (int cpu = rtr_cpuset_next(&set, -1); cpu >= 0; cpu = rtr_cpuset_next(&set, cpu))
			c.cpu = cpu;
	rtr_cpuset_free(&set);
	rc = pi_run(&c, &r, NULL, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "pi-check: %s\n", err);
		return 2;
	}
	printf("pi-check: priority inheritance %s: PI median wait %.2f ms, plain %.2f ms\n",
	       pi_verdict_name(r.verdict), rtr_hist_percentile(&r.with_pi.wait, 0.5) / 1e6,
	       rtr_hist_percentile(&r.plain.wait, 0.5) / 1e6);
	rc = r.verdict == PI_WORKS ? 0 : 1;
	pi_result_free(&r);
	return rc;
}
