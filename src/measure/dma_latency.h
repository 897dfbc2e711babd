/* SPDX-License-Identifier: MIT */
/*
 * /dev/cpu_dma_latency, the CPU latency QoS request of PM QoS. While a file
 * descriptor on it holds a value, the CPUs avoid idle states that take
 * longer than that to leave; closing the descriptor (or dying) withdraws
 * the request, so "restore" is simply close(). Reading it returns the
 * effective limit (the smallest active request) as a native 32-bit integer
 * in microseconds, without adding a constraint: the request an open adds
 * is the "no constraint" default. cyclictest writes 0 there by default;
 * rtready only reads it unless asked to hold a value.
 */
#ifndef RTR_MEASURE_DMA_LATENCY_H
#define RTR_MEASURE_DMA_LATENCY_H

#include <stdbool.h>
#include <stdint.h>

#define DMA_LATENCY_DEV "/dev/cpu_dma_latency"
/* The kernel's "no request" value (PM_QOS_CPU_LATENCY_DEFAULT_VALUE): 2000 s. */
#define DMA_LATENCY_NONE_US 2000000000

struct dma_latency_state {
	bool present;		/* the device exists */
	int read_err;		/* 0, or -errno of the read */
	int32_t current_us;	/* the effective limit when read_err == 0 */
	bool held;		/* this run holds a request */
	int32_t held_us;	/* ... of this value */
};

/*
 * dma_latency_read() - read the effective limit of @path (DMA_LATENCY_DEV)
 * into @st without changing it. A missing device is not an error
 * (present = false). Return: 0 or -errno (also kept in st->read_err).
 */
int dma_latency_read(const char *path, struct dma_latency_state *st);

/* A held request: the open descriptor. */
struct dma_latency_hold {
	int fd;			/* -1 when nothing is held */
	int32_t us;
};

#define DMA_LATENCY_HOLD_INIT { -1, 0 }

/*
 * dma_latency_hold() - open @path and write @us; the request lasts until
 * dma_latency_release(). Return: 0 or -errno (-EACCES without root).
 */
int dma_latency_hold(const char *path, int32_t us, struct dma_latency_hold *h)
	__attribute__((warn_unused_result));

/* Withdraw the request (close); a no-op when nothing is held. */
void dma_latency_release(struct dma_latency_hold *h);

/*
 * dma_latency_describe() - one line for people: "no request (default)",
 * "held at 0 us by this run", "10 us (requested by another process)",
 * "absent", "unreadable: Permission denied".
 */
void dma_latency_describe(const struct dma_latency_state *st, char *buf, unsigned long len);

#endif
