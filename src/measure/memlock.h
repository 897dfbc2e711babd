/* SPDX-License-Identifier: MIT */
/* The memory setup of every measuring process (latency, noise): locked and prefaulted. */
#ifndef RTR_MEASURE_MEMLOCK_H
#define RTR_MEASURE_MEMLOCK_H

#include <stddef.h>

/*
 * mallopt, mlockall and a prefaulted heap and stack (rtr_mem_setup()), so
 * that no page fault lands in a measurement; a C library without mallopt
 * (musl) is no reason to stop. Return: 0, or -errno with why in @why: the
 * library's own words, or the RLIMIT_MEMLOCK in force and the ways out.
 */
int measure_lock_memory(char *why, size_t whylen);

#endif
