// SPDX-License-Identifier: MIT
/*
 * /dev/cpu_dma_latency: read its state, hold a value for a run, give it
 * back. The only place in rtready that opens the device; see dma_latency.h
 * for how the kernel interface behaves.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "measure/dma_latency.h"

int dma_latency_read(const char *path, struct dma_latency_state *st)
{
	int32_t v;
	ssize_t n;
	int fd, err = 0;

	memset(st, 0, sizeof(*st));
	/* O_NONBLOCK: a FIFO put there by mistake must not hang us. */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0) {
		if (errno == ENOENT)
			return 0;
		st->present = true;
		st->read_err = -errno;
		return st->read_err;
	}
	st->present = true;
	n = read(fd, &v, sizeof(v));
	if (n < 0)
		err = -errno;
	else if (n != (ssize_t)sizeof(v))
		err = -EIO;
	else
		st->current_us = v;
	close(fd);
	st->read_err = err;
	return err;
}

int dma_latency_hold(const char *path, int32_t us, struct dma_latency_hold *h)
{
	ssize_t n;
	int fd;

	h->fd = -1;
	if (us < 0)
		return -EINVAL;
	fd = open(path, O_RDWR | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return -errno;
	/* The binary form: 4 bytes, native endianness. */
	n = write(fd, &us, sizeof(us));
	if (n != (ssize_t)sizeof(us)) {
		int err = n < 0 ? -errno : -EIO;

		close(fd);
		return err;
	}
	h->fd = fd;
	h->us = us;
	return 0;
}

void dma_latency_release(struct dma_latency_hold *h)
{
	if (h->fd >= 0)
		close(h->fd);
	h->fd = -1;
}

void dma_latency_describe(const struct dma_latency_state *st, char *buf, unsigned long len)
{
	if (!st->present)
		snprintf(buf, len, "absent (no CPU latency QoS in this kernel)");
	else if (st->read_err)
		snprintf(buf, len, "unreadable: %s", strerror(-st->read_err));
	else if (st->held && st->current_us == st->held_us)
		snprintf(buf, len, "held at %d us by this run, released at the end", st->held_us);
	else if (st->held)
		snprintf(buf, len, "held at %d us by this run; %d us in force (a lower request elsewhere)",
			 st->held_us, st->current_us);
	else if (st->current_us == DMA_LATENCY_NONE_US)
		snprintf(buf, len, "no request (idle states unrestricted); left alone");
	else
		snprintf(buf, len, "%d us, requested by another process; left alone", st->current_us);
}
