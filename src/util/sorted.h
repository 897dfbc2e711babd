/* SPDX-License-Identifier: MIT */
/* Lookup in an array of structs kept sorted by an int member (a CPU, an IRQ number). */
#ifndef RTR_UTIL_SORTED_H
#define RTR_UTIL_SORTED_H

#include <stddef.h>

/*
 * The element of @base (@n elements of @size bytes, in ascending order of
 * the int at @key_offset in each) whose key is @key, or NULL. Pure.
 */
const void *sorted_find_int(const void *base, size_t n, size_t size, size_t key_offset, int key);

/* The qsort() order of ints, ascending. */
int sorted_cmp_int(const void *a, const void *b);

#endif
