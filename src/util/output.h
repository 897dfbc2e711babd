/* SPDX-License-Identifier: MIT */
/*
 * The user's output files (--output, --histfile, --report, ...): written to
 * a temporary file and renamed over the final name, so that an error half
 * way never leaves a truncated result. Never prints.
 */
#ifndef RTR_UTIL_OUTPUT_H
#define RTR_UTIL_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/*
 * Output files (--output, --histfile, --report, ...). NULL, "-", and the
 * file that standard output already is, go to stdout. A device, a FIFO or a
 * file reached through /proc is written in place and never replaced. A
 * regular file or a new name is written to a temporary file beside it and
 * renamed over it by output_close(), keeping the old mode and owner, so
 * an error half way never leaves a truncated result and a link stays a link.
 */
struct output {
	FILE *fp;
	char *path;	/* final name (links resolved); NULL when not renamed */
	char *tmp;	/* temporary name */
	bool in_place;	/* fp is our own stream on a device, FIFO or /proc file */
	char *pending;	/* output_reserve(): the name, until output_ready() */
};
/* Return: 0 or -errno. */
int output_open(struct output *o, const char *path);
/*
 * For a result that takes long to make: standard output and outputs written
 * in place are opened now (as output_open()); for a file to be replaced
 * or created, only check that it can be written (output_check()) and
 * leave fp NULL, so that no temporary file waits beside it for the whole
 * run (a kill -9 would leave it behind). output_ready() then opens it.
 * output_close() of an output never made ready is a no-op.
 * Return: 0 or -errno.
 */
int output_reserve(struct output *o, const char *path);
/* Open what output_reserve() put off (no-op when open). Return: 0 or -errno. */
int output_ready(struct output *o);
/* Return: 0 or -errno; with @ok false the temporary file is removed. */
int output_close(struct output *o, bool ok);
/*
 * Would output_open(@path) work? Checked before a long job starts, so
 * that an hour of measurement is not lost to an unwritable path at its end.
 * Leaves nothing behind. Return: 0 or -errno.
 */
int output_check(const char *path);
/* True when @out names the same file as the existing input @in. */
int output_is_input(const char *out, const char *in);

/*
 * A file a command reads or writes, for output_collisions(): @what names
 * it in a message ("--json", "the program"), @path as the user gave it (NULL
 * when not used).
 */
struct output_file {
	const char *what;
	const char *path;
};

/*
 * Before anything is written: refuse an output that names one of the inputs
 * (the result would replace it) or the same file as another output (only the
 * last one written would be kept). Names are compared after resolution: the
 * same inode where the file exists (links, "./x" and "x"), else the same
 * real directory and name. Standard output ("-", NULL) and outputs written
 * in place (devices, FIFOs, /proc files) take any number of writers and are
 * left out. Return: 0, or -EINVAL with the two names in @err.
 */
int output_collisions(const struct output_file *outs, size_t n_outs,
		      const struct output_file *ins, size_t n_ins, char *err, size_t errlen);

#endif
