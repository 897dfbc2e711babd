// SPDX-License-Identifier: MIT
/*
 * rtready pi: prove that priority inheritance works on this kernel and C
 * library, by provoking the checklist's inversion with and without it.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmd_pi.h"
#include "render/json.h"
#include "render/pi.h"
#include "render/text.h"
#include "util/parse.h"

static const char usage_text[] =
	"Usage: rtready pi [OPTIONS]\n"
	"\n"
	"Run the priority-inversion scenario on one CPU: a low-priority thread holds a\n"
	"mutex, a high-priority thread waits for it, a medium-priority thread spins.\n"
	"Once with a PTHREAD_PRIO_INHERIT mutex, once with a plain one; compare how long\n"
	"the high thread waited. Needs SCHED_FIFO (root, CAP_SYS_NICE or RLIMIT_RTPRIO).\n"
	"\n"
	"  -c, --cpu N             the CPU to run on (default: the last one allowed)\n"
	"  -p, --prio N            priority of the low thread; medium N+1, high N+2\n"
	"                          (default 70, at most 96)\n"
	"  -n, --rounds N          rounds per mutex kind (default 100)\n"
	"      --cs DURATION       the low thread's critical section (default 1ms)\n"
	"      --medium DURATION   the medium thread's spin (default 3ms)\n"
	"  -f, --format FMT        text (default) or json\n"
	"  -o, --output FILE       write the result to FILE\n"
	"  -h, --help              show this help\n"
	"  -V, --version           show the version\n"
	"\n"
	"Exit status: 0 priority inheritance works, 1 it does not (or no inversion could\n"
	"be shown), 2 usage error or the threads could not run.\n";

static int parse_dur(const char *opt, const char *arg, int64_t *out, char *err, size_t errlen)
{
	int64_t v;

	if (parse_duration_ns(arg, 1000, &v) || v < 10000 || v > 100 * 1000000LL) {
		snprintf(err, errlen, "%s: '%s' is not a duration from 10us to 100ms", opt, arg);
		return -EINVAL;
	}
	*out = v;
	return 0;
}

int pi_opts_parse(int argc, char **argv, struct pi_opts *o, char *err, size_t errlen)
{
	enum { OPT_CS = 256, OPT_MEDIUM };
	static const struct option longopts[] = {
		{ "cpu", required_argument, NULL, 'c' },
		{ "prio", required_argument, NULL, 'p' },
		{ "rounds", required_argument, NULL, 'n' },
		{ "cs", required_argument, NULL, OPT_CS },
		{ "medium", required_argument, NULL, OPT_MEDIUM },
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int c, rc = 0;
	int64_t v;

	memset(o, 0, sizeof(*o));
	pi_config_default(&o->config);
	optind = 0;
	opterr = 0;
	while (rc == 0 && (c = getopt_long(argc, argv, ":c:p:n:f:o:hV", longopts, NULL)) != -1) {
		switch (c) {
		case 'c':
			rc = parse_int64(optarg, 0, RTR_CPUSET_MAX_CPUS - 1, &v);
			if (rc)
				snprintf(err, errlen, "--cpu: '%s' is not a CPU number", optarg);
			o->config.cpu = (int)v;
			break;
		case 'p':
			rc = parse_int64(optarg, 1, 96, &v);
			if (rc)
				snprintf(err, errlen, "--prio: '%s' is not 1..96 (the high thread "
					 "runs at +2, never 99)", optarg);
			o->config.prio = (int)v;
			break;
		case 'n':
			rc = parse_int64(optarg, 1, 100000, &v);
			if (rc)
				snprintf(err, errlen, "--rounds: '%s' is not 1..100000", optarg);
			o->config.rounds = (unsigned)v;
			break;
		case OPT_CS:
			rc = parse_dur("--cs", optarg, &o->config.cs_ns, err, errlen);
			break;
		case OPT_MEDIUM:
			rc = parse_dur("--medium", optarg, &o->config.medium_ns, err, errlen);
			break;
		case 'f':
			rc = cli_parse_format(optarg, &o->format, err, errlen);
			break;
		case 'o':
			o->output = optarg;
			break;
		case 'h':
			o->help = true;
			break;
		case 'V':
			o->version = true;
			break;
		case ':':
			snprintf(err, errlen, "option '%s' needs a value", argv[optind - 1]);
			rc = -EINVAL;
			break;
		default:
			snprintf(err, errlen, "unknown option '%s'", argv[optind - 1]);
			rc = -EINVAL;
			break;
		}
	}
	if (rc == 0 && optind < argc) {
		snprintf(err, errlen, "unexpected argument '%s'", argv[optind]);
		rc = -EINVAL;
	}
	return rc ? -EINVAL : 0;
}

int pi_report_add(struct report *r, const struct pi_result *res)
{
	static const char why[] =
		"A high-priority task that waits for a lock held by a low-priority one can be "
		"delayed without bound by any medium-priority task, unless the holder inherits "
		"the waiter's priority. Linux does this for futex-based mutexes created with "
		"PTHREAD_PRIO_INHERIT, and only for those.";
	static const char fix[] =
		"initialise every mutex an RT thread takes with "
		"pthread_mutexattr_setprotocol(&attr, PTHREAD_PRIO_INHERIT) (rtr_mutex_init_pi); "
		"if the PI run itself is delayed, check the C library and kernel "
		"(CONFIG_FUTEX_PI)";
	enum rtr_status st = RTR_SKIP;

	switch (res->verdict) {
	case PI_WORKS: st = RTR_PASS; break;
	case PI_BROKEN: st = RTR_FAIL; break;
	case PI_INCONCLUSIVE: st = RTR_WARN; break;
	case PI_INTERRUPTED: st = RTR_SKIP; break;
	}
	return report_add(r, "sync.priority_inheritance", "sync", st, 0,
			  "Priority inheritance bounds lock waits", res->reason, why, fix);
}

static int render(const struct pi_opts *o, const struct pi_result *res, const struct report *r)
{
	struct cli_output out;
	int err = cli_output_open(&out, o->output);

	if (err) {
		cli_error("pi", "cannot write %s: %s", o->output, strerror(-err));
		return err;
	}
	if (o->format == FORMAT_JSON) {
		json_t *j = pi_to_json(res, r);

		err = j ? json_write(out.fp, j) : -ENOMEM;
		json_decref(j);
	} else {
		err = pi_text_write(out.fp, res);
	}
	err = cli_output_close(&out, err == 0) ?: err;
	if (err)
		cli_error("pi", "cannot write the result: %s", strerror(-err));
	return err;
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

int cmd_pi(int argc, char **argv)
{
	const volatile sig_atomic_t *stop;
	struct pi_result res;
	struct pi_opts o;
	struct report r;
	char err[512] = "";
	int rc;

	rc = pi_opts_parse(argc, argv, &o, err, sizeof(err));
	rc = cli_parsed("pi", rc, err, o.help, o.version, usage_text);
	if (rc >= 0) {
		return rc;
	}
	if (o.config.cpu < 0)
		o.config.cpu = last_allowed_cpu();
	stop = cli_stop_catch(NULL);
	rc = pi_run(&o.config, &res, stop, err, sizeof(err));
	if (rc) {
		cli_error("pi", "%s", err);
		pi_result_free(&res);
		return EXIT_USAGE;
	}
	report_init(&r, "pi");
	rc = cli_host_live(&r.host) ?: pi_report_add(&r, &res);
	if (rc)
		cli_error("pi", "%s", strerror(-rc));
	else
		rc = render(&o, &res, &r);
	if (!rc)
		rc = res.verdict == PI_WORKS ? EXIT_OK : EXIT_FINDINGS;
	else
		rc = EXIT_USAGE;
	report_free(&r);
	pi_result_free(&res);
	return rc;
}
