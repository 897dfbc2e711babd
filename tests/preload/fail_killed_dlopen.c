// SPDX-License-Identifier: MIT
/*
 * A plugin loaded with dlopen() in a child that is then killed (JACK and
 * audio hosts load their drivers and plugins so; stress-ng kills its
 * stressors): the child's RT loop runs the plugin's work, which allocates.
 * The record survives in rtready's shared table as raw addresses, and the
 * plugin was not loaded when the checker listed the program's objects at
 * start. Expected: app.alloc_in_rt in the child, named at plugin_work in
 * killed_plugin.so. argv[1]: the plugin's path.
 */
#include <dlfcn.h>

#include "rtprog.h"

static void child(const char *plugin)
{
	void (*work)(struct rt_job *, int);
	void *h;

	h = dlopen(plugin, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		fprintf(stderr, "dlopen %s: %s\n", plugin, dlerror());
		exit(3);
	}
	*(void **)&work = dlsym(h, "plugin_work");
	if (!work) {
		fprintf(stderr, "dlsym plugin_work: %s\n", dlerror());
		exit(3);
	}
	rt_run_until_killed(work);
}

int main(int argc, char **argv)
{
	pid_t pid;

	if (argc < 2) {
		fprintf(stderr, "usage: fail_killed_dlopen PLUGIN.so\n");
		return 2;
	}
	set_mallopt();
	lock_memory(MCL_CURRENT | MCL_FUTURE);
	pid = fork();
	if (pid < 0)
		die("fork", errno);
	if (pid == 0)
		child(argv[1]);
	kill_after_300ms(pid);
	return 0;
}
