// SPDX-License-Identifier: MIT
/*
 * CPU sets in the kernel's list and mask syntaxes. Parsers are strict (the
 * whole string must be consumed, ranges must be ascending, numbers bounded)
 * because their input is often a file from an untrusted snapshot.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rtready/cpuset.h"
#include "internal.h"

#define WORD_BITS (sizeof(unsigned long) * CHAR_BIT)

static size_t words_of(size_t nbits)
{
	return (nbits + WORD_BITS - 1) / WORD_BITS;
}

static int grow(struct rtr_cpuset *set, size_t nbits)
{
	size_t old_words = words_of(set->nbits), new_words;
	unsigned long *bits;

	if (nbits <= set->nbits)
		return 0;
	if (nbits > RTR_CPUSET_MAX_CPUS)
		return -ERANGE;
	/* Grow geometrically so that setting CPUs one by one stays linear. */
	new_words = old_words ? old_words : 1;
	while (new_words * WORD_BITS < nbits)
		new_words *= 2;
	bits = realloc(set->bits, new_words * sizeof(*bits));
	if (!bits)
		return -ENOMEM;
	memset(bits + old_words, 0, (new_words - old_words) * sizeof(*bits));
	set->bits = bits;
	set->nbits = new_words * WORD_BITS;
	return 0;
}

RTR_EXPORT void rtr_cpuset_free(struct rtr_cpuset *set)
{
	if (!set)
		return;
	free(set->bits);
	set->bits = NULL;
	set->nbits = 0;
}

RTR_EXPORT void rtr_cpuset_clear(struct rtr_cpuset *set)
{
	if (set->bits)
		memset(set->bits, 0, words_of(set->nbits) * sizeof(*set->bits));
}

RTR_EXPORT int rtr_cpuset_set(struct rtr_cpuset *set, int cpu)
{
	int err;

	if (cpu < 0 || cpu >= RTR_CPUSET_MAX_CPUS)
		return -ERANGE;
	err = grow(set, (size_t)cpu + 1);
	if (err)
		return err;
	set->bits[cpu / WORD_BITS] |= 1UL << (cpu % WORD_BITS);
	return 0;
}

RTR_EXPORT void rtr_cpuset_unset(struct rtr_cpuset *set, int cpu)
{
	if (cpu >= 0 && (size_t)cpu < set->nbits)
		set->bits[cpu / WORD_BITS] &= ~(1UL << (cpu % WORD_BITS));
}

RTR_EXPORT bool rtr_cpuset_test(const struct rtr_cpuset *set, int cpu)
{
	if (cpu < 0 || (size_t)cpu >= set->nbits)
		return false;
	return set->bits[cpu / WORD_BITS] & (1UL << (cpu % WORD_BITS));
}

RTR_EXPORT size_t rtr_cpuset_count(const struct rtr_cpuset *set)
{
	size_t n = 0;

	for (size_t i = 0; i < words_of(set->nbits); i++)
		n += (size_t)__builtin_popcountl(set->bits[i]);
	return n;
}

RTR_EXPORT bool rtr_cpuset_is_empty(const struct rtr_cpuset *set)
{
	for (size_t i = 0; i < words_of(set->nbits); i++)
		if (set->bits[i])
			return false;
	return true;
}

RTR_EXPORT int rtr_cpuset_next(const struct rtr_cpuset *set, int prev)
{
	size_t cpu = prev < 0 ? 0 : (size_t)prev + 1;

	while (cpu < set->nbits) {
		unsigned long w = set->bits[cpu / WORD_BITS] >> (cpu % WORD_BITS);

		if (w)
			return (int)(cpu + (size_t)__builtin_ctzl(w));
		cpu = (cpu / WORD_BITS + 1) * WORD_BITS;
	}
	return -1;
}

RTR_EXPORT int rtr_cpuset_copy(struct rtr_cpuset *dst, const struct rtr_cpuset *src)
{
	int err;

	if (dst == src)
		return 0;
	rtr_cpuset_clear(dst);
	err = grow(dst, src->nbits);
	if (err)
		return err;
	if (src->nbits)
		memcpy(dst->bits, src->bits, words_of(src->nbits) * sizeof(*src->bits));
	return 0;
}

static unsigned long word_at(const struct rtr_cpuset *set, size_t i)
{
	return i < words_of(set->nbits) ? set->bits[i] : 0;
}

RTR_EXPORT void rtr_cpuset_and(struct rtr_cpuset *dst, const struct rtr_cpuset *src)
{
	for (size_t i = 0; i < words_of(dst->nbits); i++)
		dst->bits[i] &= word_at(src, i);
}

RTR_EXPORT int rtr_cpuset_or(struct rtr_cpuset *dst, const struct rtr_cpuset *src)
{
	int err = grow(dst, src->nbits);

	if (err)
		return err;
	for (size_t i = 0; i < words_of(src->nbits); i++)
		dst->bits[i] |= src->bits[i];
	return 0;
}

RTR_EXPORT void rtr_cpuset_andnot(struct rtr_cpuset *dst, const struct rtr_cpuset *src)
{
	for (size_t i = 0; i < words_of(dst->nbits); i++)
		dst->bits[i] &= ~word_at(src, i);
}

static size_t max_words(const struct rtr_cpuset *a, const struct rtr_cpuset *b)
{
	size_t wa = words_of(a->nbits), wb = words_of(b->nbits);

	return wa > wb ? wa : wb;
}

RTR_EXPORT bool rtr_cpuset_equal(const struct rtr_cpuset *a, const struct rtr_cpuset *b)
{
	for (size_t i = 0; i < max_words(a, b); i++)
		if (word_at(a, i) != word_at(b, i))
			return false;
	return true;
}

RTR_EXPORT bool rtr_cpuset_intersects(const struct rtr_cpuset *a, const struct rtr_cpuset *b)
{
	for (size_t i = 0; i < max_words(a, b); i++)
		if (word_at(a, i) & word_at(b, i))
			return true;
	return false;
}

RTR_EXPORT bool rtr_cpuset_is_subset(const struct rtr_cpuset *a, const struct rtr_cpuset *b)
{
	for (size_t i = 0; i < max_words(a, b); i++)
		if (word_at(a, i) & ~word_at(b, i))
			return false;
	return true;
}

/*
 * Read a decimal CPU number at *p. Digits only (no sign, no white space in
 * the middle), bounded so that a 400-digit number cannot overflow.
 */
static int parse_cpu(const char **p, unsigned long *out)
{
	const char *s = *p;
	unsigned long v = 0;

	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	while (isdigit((unsigned char)*s)) {
		v = v * 10 + (unsigned long)(*s - '0');
		if (v >= RTR_CPUSET_MAX_CPUS)
			return -ERANGE;
		s++;
	}
	*p = s;
	*out = v;
	return 0;
}

static const char *skip_space(const char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	return s;
}

/* One "A", "A-B" or "A-B:S" item of a cpu list; *p is left after it. */
static int parse_item(struct rtr_cpuset *set, const char **p)
{
	unsigned long first, last, stride = 1;
	int err;

	err = parse_cpu(p, &first);
	if (err)
		return err;
	last = first;
	if (**p == '-') {
		(*p)++;
		err = parse_cpu(p, &last);
		if (err)
			return err;
		if (last < first)
			return -EINVAL;
		if (**p == ':') {
			(*p)++;
			err = parse_cpu(p, &stride);
			if (err)
				return err;
			if (stride == 0)
				return -EINVAL;
		}
	}
	/* Bounded: last < RTR_CPUSET_MAX_CPUS. */
	err = grow(set, last + 1);
	if (err)
		return err;
	for (unsigned long c = first; c <= last; c += stride)
		set->bits[c / WORD_BITS] |= 1UL << (c % WORD_BITS);
	return 0;
}

RTR_EXPORT int rtr_cpuset_parse_list(struct rtr_cpuset *set, const char *list)
{
	const char *p = skip_space(list);
	int err = 0;

	rtr_cpuset_clear(set);
	if (*p == '\0')
		return 0;
	for (;;) {
		err = parse_item(set, &p);
		if (err)
			break;
		if (*p == ',') {
			p++;
			continue;
		}
		p = skip_space(p);
		if (*p != '\0')
			err = -EINVAL;
		break;
	}
	if (err)
		rtr_cpuset_clear(set);
	return err;
}

static int hex_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

RTR_EXPORT int rtr_cpuset_parse_mask(struct rtr_cpuset *set, const char *mask)
{
	const char *start = skip_space(mask), *end;
	size_t bit = 0;
	int err = 0;

	rtr_cpuset_clear(set);
	end = start + strlen(start);
	while (end > start && isspace((unsigned char)end[-1]))
		end--;
	if (end == start || *start == ',' || end[-1] == ',')
		return -EINVAL;
	/* The lowest CPUs are at the end of the string: walk it backwards. */
	for (const char *p = end; p > start; p--) {
		char c = p[-1];
		int v;

		if (c == ',') {
			if (p - 1 > start && p[-2] == ',')
				return -EINVAL;
			continue;
		}
		v = hex_value(c);
		if (v < 0) {
			err = -EINVAL;
			break;
		}
		for (int b = 0; b < 4; b++, bit++) {
			if (!(v & (1 << b)))
				continue;
			err = rtr_cpuset_set(set, (int)(bit < INT_MAX ? bit : INT_MAX));
			if (err)
				break;
		}
		if (err)
			break;
	}
	if (err)
		rtr_cpuset_clear(set);
	return err;
}

/* Append @tmp to buf, tracking the length the whole output needs. */
static void append(char *buf, size_t len, size_t *pos, const char *tmp)
{
	size_t n = strlen(tmp);

	if (*pos < len) {
		size_t room = len - *pos;

		memcpy(buf + *pos, tmp, n < room ? n : room);
	}
	*pos += n;
}

RTR_EXPORT size_t rtr_cpuset_format_list(const struct rtr_cpuset *set, char *buf, size_t len)
{
	size_t pos = 0;
	int cpu = rtr_cpuset_next(set, -1);

	while (cpu >= 0) {
		int last = cpu, next;

		while ((next = rtr_cpuset_next(set, last)) == last + 1)
			last = next;
		char tmp[32];

		if (last == cpu)
			snprintf(tmp, sizeof(tmp), "%s%d", pos ? "," : "", cpu);
		else
			snprintf(tmp, sizeof(tmp), "%s%d-%d", pos ? "," : "", cpu, last);
		append(buf, len, &pos, tmp);
		cpu = next;
	}
	if (len)
		buf[pos < len ? pos : len - 1] = '\0';
	return pos;
}

RTR_EXPORT size_t rtr_cpuset_format_mask(const struct rtr_cpuset *set, size_t ncpus, char *buf,
					 size_t len)
{
	size_t nbits = ncpus, pos = 0;
	int last = -1;

	for (int c = rtr_cpuset_next(set, -1); c >= 0; c = rtr_cpuset_next(set, c))
		last = c;
	if ((size_t)(last + 1) > nbits)
		nbits = (size_t)(last + 1);
	if (nbits == 0)
		nbits = 1;
	/* Groups of 32 bits, most significant first, as the kernel prints. */
	for (size_t g = (nbits + 31) / 32; g-- > 0;) {
		unsigned long v = 0;

		for (int b = 0; b < 32; b++)
			if (rtr_cpuset_test(set, (int)(g * 32 + (size_t)b)))
				v |= 1UL << b;
		char tmp[16];

		snprintf(tmp, sizeof(tmp), "%s%08lx", pos ? "," : "", v);
		append(buf, len, &pos, tmp);
	}
	if (len)
		buf[pos < len ? pos : len - 1] = '\0';
	return pos;
}

RTR_EXPORT int rtr_cpuset_to_sched(const struct rtr_cpuset *set, cpu_set_t **out, size_t *size)
{
	int last = -1;
	cpu_set_t *cs;
	size_t sz;

	for (int c = rtr_cpuset_next(set, -1); c >= 0; c = rtr_cpuset_next(set, c))
		last = c;
	if (last < 0)
		return -EINVAL;
	cs = CPU_ALLOC(last + 1);
	if (!cs)
		return -ENOMEM;
	sz = CPU_ALLOC_SIZE(last + 1);
	CPU_ZERO_S(sz, cs);
	for (int c = rtr_cpuset_next(set, -1); c >= 0; c = rtr_cpuset_next(set, c))
		CPU_SET_S((size_t)c, sz, cs);
	*out = cs;
	*size = sz;
	return 0;
}

RTR_EXPORT int rtr_cpuset_from_sched(struct rtr_cpuset *set, const cpu_set_t *cs, size_t size)
{
	size_t n = size * CHAR_BIT;

	rtr_cpuset_clear(set);
	if (n > RTR_CPUSET_MAX_CPUS)
		n = RTR_CPUSET_MAX_CPUS;
	for (size_t c = 0; c < n; c++) {
		if (CPU_ISSET_S(c, size, cs)) {
			int err = rtr_cpuset_set(set, (int)c);

			if (err)
				return err;
		}
	}
	return 0;
}

RTR_EXPORT int rtr_cpuset_get_affinity(struct rtr_cpuset *set)
{
	/* The kernel fails with EINVAL while the mask is smaller than nr_cpu_ids. */
	for (size_t ncpus = 1024; ncpus <= RTR_CPUSET_MAX_CPUS; ncpus *= 2) {
		cpu_set_t *cs = CPU_ALLOC(ncpus);
		size_t sz = CPU_ALLOC_SIZE(ncpus);
		int err;

		if (!cs)
			return -ENOMEM;
		CPU_ZERO_S(sz, cs);
		if (sched_getaffinity(0, sz, cs) == 0) {
			err = rtr_cpuset_from_sched(set, cs, sz);
			CPU_FREE(cs);
			return err;
		}
		err = -errno;
		CPU_FREE(cs);
		if (err != -EINVAL)
			return rtr__fail(err, "sched_getaffinity: %s", strerror(-err));
	}
	return rtr__fail(-EINVAL, "sched_getaffinity: more than %d CPUs", RTR_CPUSET_MAX_CPUS);
}
