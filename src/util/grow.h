/* SPDX-License-Identifier: MIT */
/* A growing array: the event logs the main thread keeps while a run goes on, tasks, tune plans. */
#ifndef RTR_UTIL_GROW_H
#define RTR_UTIL_GROW_H

#include <stddef.h>

/*
 * Make room in *@p (capacity *@cap elements of @size bytes) for element @n:
 * double the capacity (from 256), never past @max.
 * Return: 0, -ENOSPC at @max, -ENOMEM (*@p unchanged).
 */
int grow_array(void **p, size_t *cap, size_t n, size_t size, size_t max);

#endif
