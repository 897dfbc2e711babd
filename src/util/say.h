/* SPDX-License-Identifier: MIT */
/*
 * Where the steps of a command below src/cli send what they have to say
 * (a warning, or why they stopped): the command's own printer, which adds
 * "rtready: CMD: ". The modules never print themselves, and a step that
 * goes on after a warning can say several things, which one error buffer
 * could not hold.
 */
#ifndef RTR_UTIL_SAY_H
#define RTR_UTIL_SAY_H

#include <stdbool.h>
#include <stddef.h>

struct say {
	/* One line without its newline: a @warning, or an error. */
	void (*line)(void *ctx, bool warning, const char *line);
	void *ctx;
};

/* Format one line and hand it to @to ("Cannot allocate memory" when it cannot be). */
void say(const struct say *to, bool warning, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * say_why() - the older way, for a step that reports one error into its
 * caller's buffer: format into @why (@len bytes) when there is one (NULL or
 * 0: nothing). Return: @err, so that a step can end with
 * `return say_why(why, len, -EINVAL, ...)`.
 */
int say_why(char *why, size_t len, int err, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

#endif
