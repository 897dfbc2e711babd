// SPDX-License-Identifier: MIT
/* The run of `rtready pi` (job/pi.h). */
#include <errno.h>
#include <signal.h>
#include <string.h>

#include "job/pi.h"
#include "report/pi.h"
#include "render/json.h"
#include "render/pi.h"

struct pi_view {
	const struct pi_opts *o;
	const struct pi_result *res;
	const struct report *r;
};

static int pi_write(FILE *fp, const void *ctx)
{
	const struct pi_view *v = ctx;

	if (v->o->format == FORMAT_JSON)
		return json_write_free(fp, pi_to_json(v->res, v->r));
	return pi_text_write(fp, v->res);
}

static int last_allowed_cpu(void)
{
	struct rtr_cpuset set = RTR_CPUSET_INIT;
	int last = -1;

	if (rtr_cpuset_get_affinity(&set) == 0)
		for (int c = rtr_cpuset_next(&set, -1); c >= 0; c = rtr_cpuset_next(&set, c))
			last = c;
	rtr_cpuset_free(&set);
	return last;
}

int pi_job_run(void *opts, const struct job_ui *ui)
{
	struct pi_opts *o = opts;
	const volatile sig_atomic_t *stop;
	struct pi_result res;
	struct report r;
	char err[512] = "";
	int rc;

	if (o->config.cpu < 0)
		o->config.cpu = last_allowed_cpu();
	stop = ui->stop_catch(NULL);
	rc = pi_run(&o->config, &res, stop, err, sizeof(err));
	if (rc) {
		say(&ui->say, false, "%s", err);
		pi_result_free(&res);
		return JOB_FAILED;
	}
	report_init(&r, "pi");
	rc = target_host_live(&r.host) ?: pi_finding_add(&r, &res);
	if (rc)
		say(&ui->say, false, "%s", strerror(-rc));
	else
		rc = job_write(ui, o->output, pi_write, &(struct pi_view){ o, &res, &r });
	if (!rc)
		rc = res.verdict == PI_WORKS ? JOB_OK : JOB_FINDINGS;
	else
		rc = JOB_FAILED;
	report_free(&r);
	pi_result_free(&res);
	return rc;
}
