// SPDX-License-Identifier: MIT
/* The verify document; see verify.h. */
#include "render/json.h"
#include "render/latency.h"
#include "render/noise.h"
#include "render/verify.h"

static json_t *config_json(const struct verify_view *v)
{
	char cpus[4096], load_cpus[4096] = "";
	json_t *c;

	rtr_cpuset_format_list(v->measured_cpus, cpus, sizeof(cpus));
	if (v->load_cpus)
		rtr_cpuset_format_list(v->load_cpus, load_cpus, sizeof(load_cpus));
	c = json_pack("{s:I, s:I, s:s, s:s, s:s}", "duration_ns", (json_int_t)v->duration_ns,
		      "interval_ns", (json_int_t)v->interval_ns, "measured_cpus", cpus, "load",
		      v->load, "load_cpus", v->load_cpus ? load_cpus : v->online);
	if (c && v->max_latency_us > 0)
		json_object_set_new(c, "max_latency_us", json_real(v->max_latency_us));
	if (c && v->noise)
		json_object_set_new(c, "max_noise_us", json_real(v->max_noise_us));
	return c;
}

json_t *verify_to_json(const struct verify_view *v)
{
	static const char *const keys[PHASE_COUNT] = { "latency_idle", "latency_load" };
	json_t *j = json_envelope("verify", v->host), *h;

	if (!j)
		return NULL;
	/* It holds latency documents, whose histograms became sparse in version 2. */
	json_object_set_new(j, "schema_version", json_integer(RTR_JSON_SCHEMA_VERSION_LATENCY));
	/* An addition to the envelope: the reports label hosts by name. */
	h = json_object_get(j, "host");
	if (v->hostname[0] && h)
		json_object_set_new(h, "hostname", json_text(v->hostname));
	json_object_set_new(j, "config", config_json(v));
	json_object_set_new(j, "check", report_to_json(v->check, "checks"));
	for (int p = 0; p < PHASE_COUNT; p++)
		json_object_set_new(j, keys[p], v->lat[p] ? latency_to_json(v->lat[p], v->host)
							  : json_null());
	/* --max-noise: the noise document of the phase (absent when it did not run). */
	if (v->noise)
		json_object_set_new(j, "noise", noise_to_json(v->noise, v->host));
	if (v->interrupted)
		json_object_set_new(j, "interrupted", json_true());
	/* A run that failed says so in its result, and claims no phase it did not finish. */
	if (v->error[0])
		json_object_set_new(j, "error", json_text(v->error));
	return j;
}
