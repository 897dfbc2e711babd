// SPDX-License-Identifier: MIT
/*
 * Counts the SIGINT and SIGTERM it receives: waits for the first, then
 * 300 ms more for a duplicate, prints "signals N" and exits 0. Used to
 * prove that `rtready run` passes a signal on exactly once (issue 25:
 * under `timeout -s INT`, ptp4l's handler ran twice).
 */
#include <signal.h>
#include <stdio.h>
#include <time.h>

static volatile sig_atomic_t count;

static void on_signal(int sig)
{
	(void)sig;
	count++;
}

int main(void)
{
	struct sigaction sa = { .sa_handler = on_signal };
	struct timespec tick = { 0, 10000000 };

	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	puts("ready");
	fflush(stdout);
	for (int i = 0; i < 3000 && !count; i++)
		nanosleep(&tick, NULL);
	for (int i = 0; i < 30; i++)
		nanosleep(&tick, NULL);
	printf("signals %d\n", (int)count);
	return 0;
}
