// SPDX-License-Identifier: MIT
/* The one resolution of the RT CPU set; see rtcpus.h. */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "probe/rtcpus.h"

/*
 * What the kernel isolates is what the user meant for realtime work. The
 * order: isolated (domain isolation in effect), isolcpus= (asked for, where
 * the file is missing), the CPUs of isolated partitions (domain isolation
 * made at run time: `tune --isolate`, cpuset.cpus.isolated), nohz_full
 * (tick isolation in effect), nohz_full=. A kernel booted with only
 * nohz_full= has an empty isolated file, and its RT CPUs are the nohz_full
 * ones. The boot's isolation comes before a partition: the sysfs isolated
 * file does not list partitions, so a machine with both keeps the CPUs its
 * boot line set apart.
 */
int rtcpus_resolve(const struct cpu_facts *c, const struct rtr_cpuset *given, struct rtcpus *out)
{
	/* Each source: whether it was read (a boot parameter: only where its file is missing). */
	const struct {
		bool read;
		const struct rtr_cpuset *cpus;
		enum rtcpus_source source;
	} order[] = {
		{ !c->isolated_err, &c->isolated, RTCPUS_ISOLATED },
		{ c->isolated_err && c->isolcpus.given && !c->isolcpus.err, &c->isolcpus.cpus,
		  RTCPUS_ISOLCPUS },
		{ !c->partitioned_err, &c->partitioned, RTCPUS_PARTITION },
		{ !c->nohz_full_err, &c->nohz_full, RTCPUS_NOHZ_FULL },
		{ c->nohz_full_err && c->nohz_full_param.given && !c->nohz_full_param.err,
		  &c->nohz_full_param.cpus, RTCPUS_NOHZ_FULL_PARAM },
	};

	rtr_cpuset_clear(&out->cpus);
	out->source = RTCPUS_NONE;
	if (given) {
		out->source = RTCPUS_GIVEN;
		return rtr_cpuset_copy(&out->cpus, given);
	}
	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		if (order[i].read && !rtr_cpuset_is_empty(order[i].cpus)) {
			out->source = order[i].source;
			return rtr_cpuset_copy(&out->cpus, order[i].cpus);
		}
	}
	return 0;
}

int rtcpus_resolve_planned(const struct cpu_facts *c, const struct rtr_cpuset *given, bool planned,
			   struct rtcpus *out)
{
	int err = rtcpus_resolve(c, given, out);

	if (!err && planned && given)
		out->source = RTCPUS_PLANNED;
	return err;
}

size_t rtcpus_format(const struct rtcpus *r, char *buf, size_t len)
{
	size_t n = rtr_cpuset_format_list(&r->cpus, buf, len);
	static const char mark[] = " (planned)";

	if (r->source != RTCPUS_PLANNED)
		return n;
	if (n + sizeof(mark) <= len)
		memcpy(buf + n, mark, sizeof(mark));
	return n + sizeof(mark) - 1;
}

const char *rtcpus_source_name(enum rtcpus_source s)
{
	switch (s) {
	case RTCPUS_PLANNED:
		return "rtready plan, --rt-cpus auto";
	case RTCPUS_GIVEN:
		return "--rt-cpus";
	case RTCPUS_ISOLATED:
		return "isolated CPUs";
	case RTCPUS_ISOLCPUS:
		return "isolcpus=";
	case RTCPUS_PARTITION:
		return "isolated partition";
	case RTCPUS_NOHZ_FULL:
		return "nohz_full";
	case RTCPUS_NOHZ_FULL_PARAM:
		return "nohz_full=";
	case RTCPUS_NONE:
		break;
	}
	return NULL;
}

void rtcpus_free(struct rtcpus *r)
{
	rtr_cpuset_free(&r->cpus);
	r->source = RTCPUS_NONE;
}
