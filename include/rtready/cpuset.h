/* SPDX-License-Identifier: MIT */
/*
 * CPU sets of any size, in the kernel's cpu-list syntax ("0-3,8,10-11") and
 * its hex mask syntax ("ff,00000001"). A zeroed struct is a valid empty set;
 * sets grow on demand up to RTR_CPUSET_MAX_CPUS, so machines with more than
 * CPU_SETSIZE (1024) CPUs work.
 */
#ifndef RTREADY_CPUSET_H
#define RTREADY_CPUSET_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Largest CPU number + 1 that a set may hold (the kernel's NR_CPUS max is 8192). */
#define RTR_CPUSET_MAX_CPUS 65536

struct rtr_cpuset {
	size_t nbits;		/* capacity in CPUs, a multiple of the word size */
	unsigned long *bits;	/* NULL while nbits is 0 */
};

#define RTR_CPUSET_INIT { 0, NULL }

/**
 * rtr_cpuset_free() - release the storage of @set and leave it empty.
 * @set: the set, or NULL (a no-op).
 */
void rtr_cpuset_free(struct rtr_cpuset *set);

/**
 * rtr_cpuset_clear() - remove every CPU from @set, keeping its storage.
 */
void rtr_cpuset_clear(struct rtr_cpuset *set);

/**
 * rtr_cpuset_set() - add @cpu to @set, growing it if needed.
 * Return: 0, -ERANGE when @cpu is negative or >= RTR_CPUSET_MAX_CPUS, -ENOMEM.
 */
int rtr_cpuset_set(struct rtr_cpuset *set, int cpu);

/** rtr_cpuset_unset() - remove @cpu from @set (no-op if absent). */
void rtr_cpuset_unset(struct rtr_cpuset *set, int cpu);

/** rtr_cpuset_test() - Return: true when @cpu is in @set. */
bool rtr_cpuset_test(const struct rtr_cpuset *set, int cpu);

/** rtr_cpuset_count() - Return: the number of CPUs in @set. */
size_t rtr_cpuset_count(const struct rtr_cpuset *set);

/** rtr_cpuset_is_empty() - Return: true when @set holds no CPU. */
bool rtr_cpuset_is_empty(const struct rtr_cpuset *set);

/**
 * rtr_cpuset_next() - iterate: the first CPU in @set that is > @prev.
 * Start with @prev = -1.
 * Return: the CPU number, or -1 when there is none.
 */
int rtr_cpuset_next(const struct rtr_cpuset *set, int prev);

/** rtr_cpuset_copy() - make @dst equal to @src. Return: 0 or -ENOMEM. */
int rtr_cpuset_copy(struct rtr_cpuset *dst, const struct rtr_cpuset *src);

/** rtr_cpuset_and() - @dst &= @src. */
void rtr_cpuset_and(struct rtr_cpuset *dst, const struct rtr_cpuset *src);

/** rtr_cpuset_or() - @dst |= @src. Return: 0 or -ENOMEM. */
int rtr_cpuset_or(struct rtr_cpuset *dst, const struct rtr_cpuset *src);

/** rtr_cpuset_andnot() - @dst &= ~@src. */
void rtr_cpuset_andnot(struct rtr_cpuset *dst, const struct rtr_cpuset *src);

/** rtr_cpuset_equal() - Return: true when both sets hold the same CPUs. */
bool rtr_cpuset_equal(const struct rtr_cpuset *a, const struct rtr_cpuset *b);

/** rtr_cpuset_intersects() - Return: true when @a and @b share a CPU. */
bool rtr_cpuset_intersects(const struct rtr_cpuset *a, const struct rtr_cpuset *b);

/** rtr_cpuset_is_subset() - Return: true when every CPU of @a is in @b. */
bool rtr_cpuset_is_subset(const struct rtr_cpuset *a, const struct rtr_cpuset *b);

/**
 * rtr_cpuset_parse_list() - parse a kernel cpu list into @set (replacing it).
 * @set: the destination.
 * @list: "0-3,8,10-11"; also "0-15:2" strides (as the kernel accepts) and
 *        surrounding white space; an empty or blank string is the empty set.
 *
 * Rejects trailing garbage, reversed or open ranges, and CPU numbers at or
 * above RTR_CPUSET_MAX_CPUS. On error @set is left empty.
 * Return: 0, -EINVAL (syntax), -ERANGE (number too large), -ENOMEM.
 */
int rtr_cpuset_parse_list(struct rtr_cpuset *set, const char *list);

/**
 * rtr_cpuset_parse_mask() - parse a kernel hex mask ("ff,00000001", as in
 * /proc/irq/N/smp_affinity) into @set (replacing it).
 * Return: 0, -EINVAL, -ERANGE, -ENOMEM. On error @set is left empty.
 */
int rtr_cpuset_parse_mask(struct rtr_cpuset *set, const char *mask);

/**
 * rtr_cpuset_format_list() - write @set as a kernel cpu list ("0-3,8").
 * The empty set is written as "".
 * Return: the length it needs (excluding the NUL), like snprintf; the
 *         output is truncated (and NUL-terminated) when @len is too small.
 */
size_t rtr_cpuset_format_list(const struct rtr_cpuset *set, char *buf, size_t len);

/**
 * rtr_cpuset_format_mask() - write @set as a kernel hex mask covering at
 * least @ncpus CPUs (comma every 32 bits, as /proc/irq/N/smp_affinity).
 * Return: the length it needs, like rtr_cpuset_format_list().
 */
size_t rtr_cpuset_format_mask(const struct rtr_cpuset *set, size_t ncpus, char *buf,
			      size_t len);

/*
 * cpu_set_t: glibc's <sched.h> always declares it, musl's only under
 * _GNU_SOURCE. These two are declared where the type exists, so the header
 * never forces a feature macro on its users.
 */
#if defined(__GLIBC__) || defined(_GNU_SOURCE)
/**
 * rtr_cpuset_to_sched() - allocate a cpu_set_t (CPU_ALLOC) equal to @set,
 * for sched_setaffinity() and pthread_setaffinity_np().
 * @out: receives the set; free it with CPU_FREE().
 * @size: receives its size in bytes.
 * Return: 0, -EINVAL for an empty set, -ENOMEM.
 */
int rtr_cpuset_to_sched(const struct rtr_cpuset *set, cpu_set_t **out, size_t *size);

/**
 * rtr_cpuset_from_sched() - fill @set from a cpu_set_t of @size bytes.
 * Return: 0 or -ENOMEM.
 */
int rtr_cpuset_from_sched(struct rtr_cpuset *set, const cpu_set_t *cs, size_t size);
#endif

/**
 * rtr_cpuset_get_affinity() - the CPUs the calling thread may run on,
 * asking the kernel with growing masks until it fits.
 * Return: 0 or -errno.
 */
int rtr_cpuset_get_affinity(struct rtr_cpuset *set);

#ifdef __cplusplus
}
#endif

#endif
