// SPDX-License-Identifier: MIT
/*
 * The program of pass_waits.c, paced by the wait that argv[1] names, but
 * each period's work allocates (argv[2] "alloc") or touches a page never
 * touched before (argv[2] "fault"). Expected: app.alloc_in_rt only, or
 * app.page_fault_in_rt only: whatever the wait, the checker sees the
 * periods between two waits.
 */
#include "waits.h"

#define PACE_NAME "fail_waits"
#define PACE_INIT waits_init
#define PACE_RUN run_waits
#include "fail_paced.h"
