// SPDX-License-Identifier: MIT
/*
 * The program of pass_blocks.c, paced by the blocking call that argv[1]
 * names, but each period's work allocates (argv[2] "alloc") or touches a
 * page never touched before (argv[2] "fault"). Expected: app.alloc_in_rt
 * only, or app.page_fault_in_rt only (with app.signal where a handler
 * paces it).
 */
#include "blocks.h"

#define PACE_NAME "fail_blocks"
#define PACE_INIT blocks_init
#define PACE_RUN run_blocks
#include "fail_paced.h"
