// SPDX-License-Identifier: MIT
/*
 * A child killed with SIGKILL cannot write its records (issue 25): the
 * parent forks an RT child whose work allocates, lets it wait through
 * many periods and kills it, as stress-ng does with its stressors. The
 * committed records survive in rtready's shared table. Expected:
 * app.alloc_in_rt in the child, named at work_alloc, and no app.checker.
 *
 * With the argument "untabled" the child is exec'd with an environment
 * that keeps the checker but drops RTREADY_CHECK_TABLE: nothing of it
 * survives the kill, and the report must say so (app.checker naming its
 * pid) rather than look clean.
 */

#include "rtprog.h"

extern char **environ;

/* Never freed: a free() here is a tail call, named at rt_loop. The child is killed anyway. */
static void work_alloc(struct rt_job *job, int period)
{
	char *volatile p = malloc(32);

	p[0] = (char)period;
	job->sum += (unsigned char)p[0];
}

static void child(void)
{
	rt_run_until_killed(work_alloc);
}

/* exec this program again as the child, without RTREADY_CHECK_TABLE. */
static void exec_untabled(const char *self)
{
	char *env[256];
	size_t k = 0;

	for (size_t i = 0; environ[i] && k + 1 < sizeof(env) / sizeof(env[0]); i++)
		if (strncmp(environ[i], "RTREADY_CHECK_TABLE=", 20) != 0)
			env[k++] = environ[i];
	env[k] = NULL;
	execve(self, (char *[]){ (char *)self, "child", NULL }, env);
	die("execve", errno);
}

int main(int argc, char **argv)
{
	pid_t pid;

	if (argc > 1 && strcmp(argv[1], "child") == 0)
		child();
	set_mallopt();
	lock_memory(MCL_CURRENT | MCL_FUTURE);
	pid = fork();
	if (pid < 0)
		die("fork", errno);
	if (pid == 0) {
		if (argc > 1 && strcmp(argv[1], "untabled") == 0)
			exec_untabled("/proc/self/exe");
		child();
	}
	kill_after_300ms(pid);
	return 0;
}
