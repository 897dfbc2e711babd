/* SPDX-License-Identifier: MIT */
/*
 * Why the kernel refused `rtready run --policy deadline` with EBUSY: its
 * admission test found that the program's runtime/period does not fit in
 * what the root domain has left of sched_rt_runtime_us/sched_rt_period_us
 * per CPU. This reads the live machine (the knobs, the CPUs, the DEADLINE
 * threads and the 6.12+ fair servers, through the probes) and writes the
 * bandwidth asked for, the bandwidth left and the limit that applies.
 */
#ifndef RTR_RUN_DEADLINE_H
#define RTR_RUN_DEADLINE_H

#include <stddef.h>
#include <stdint.h>

/*
 * run_deadline_admission() - the sentence for an EBUSY of a DEADLINE task
 * asking @runtime_ns every @period_ns, written to @buf.
 */
void run_deadline_admission(uint64_t runtime_ns, uint64_t period_ns, char *buf, size_t len);

#endif
