/* SPDX-License-Identifier: MIT */
/*
 * Parser of /proc/interrupts. The header names the online CPUs (columns),
 * then one row per interrupt: a numbered IRQ or a per-CPU architecture
 * interrupt (NMI, LOC, ...), its counts per column, and for numbered IRQs
 * the interrupt chip, the hardware IRQ / trigger and the device actions:
 *
 *            CPU0       CPU1
 *   36:          0      32740 PCI-MSIX-0000:00:02.0   1-edge      virtio1-req.0
 *  LOC:      34024      30996   Local timer interrupts
 *  ERR:          0
 *
 * A pure function of a buffer (a snapshot may hold anything): NUL bytes,
 * over-long lines, missing columns and absurd numbers give skipped rows,
 * never a crash; memory grows with the input size, not with the product
 * of the CPU and row counts a hostile header could claim.
 */
#ifndef RTR_PROBE_INTERRUPTS_H
#define RTR_PROBE_INTERRUPTS_H

#include <stddef.h>
#include <stdint.h>

#include "rtready/cpuset.h"

/* Bounds far above real machines (NR_CPUS <= 8192, a few 10k IRQs). */
#define INTERRUPTS_MAX_COLS 8192
#define INTERRUPTS_MAX_ROWS (1u << 20)
#define INTERRUPTS_MAX_IRQ (1 << 24)

struct interrupt_row {
	int irq;		/* the IRQ number, -1 for a named row (NMI, LOC, ...) */
	char name[16];		/* as printed before ':' ("36", "LOC") */
	char chip[48];		/* "IO-APIC", "GICv3"; "" for named rows */
	char hwirq[32];		/* "1-edge", "27 Level"; may be "" */
	char actions[96];	/* "virtio1-req.0", "eth0, eth1"; named rows: the description */
	size_t counts_off;	/* first count in interrupts_table.counts */
	unsigned int n_counts;	/* counts present (<= n_cols; ERR and MIS have one) */
	uint64_t total;		/* sum of the counts (saturating) */
};

struct interrupts_table {
	int *col_cpu;			/* column -> CPU number, from the "CPUn" header */
	size_t n_cols;
	struct interrupt_row *rows;	/* in file order */
	size_t n_rows;
	uint64_t *counts;		/* all rows' counts, row after row */
	size_t n_counts;
	size_t *by_irq;			/* row indexes of numbered rows, sorted by irq */
	size_t n_by_irq;
	size_t bad_lines;		/* lines that could not be parsed (skipped) */
};

/*
 * Parse @len bytes of /proc/interrupts text into @out (zeroed first).
 * Return: 0 (bad rows are skipped and counted), -EINVAL when there is no
 * CPU header, -ENOMEM. Free with interrupts_free() whatever the result.
 */
int interrupts_parse(const char *buf, size_t len, struct interrupts_table *out)
	__attribute__((warn_unused_result));
void interrupts_free(struct interrupts_table *t);

/* The row of IRQ @irq (binary search), or NULL. */
const struct interrupt_row *interrupts_find(const struct interrupts_table *t, int irq);

/*
 * The sum of @row's counts on the CPUs of @cpus (saturating); CPUs that
 * have no column (offline) count nothing.
 */
uint64_t interrupts_sum_on(const struct interrupts_table *t, const struct interrupt_row *row,
			   const struct rtr_cpuset *cpus);

#endif
