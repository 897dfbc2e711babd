/* SPDX-License-Identifier: MIT */
/* librtready: the realtime Linux checklist's recipes. Include this for all of it. */
#ifndef RTREADY_RTREADY_H
#define RTREADY_RTREADY_H

#include "rtready/cpuset.h"
#include "rtready/error.h"
#include "rtready/hist.h"
#include "rtready/mem.h"
#include "rtready/period.h"
#include "rtready/selfcheck.h"
#include "rtready/sync.h"
#include "rtready/thread.h"
#include "rtready/timespec.h"

#endif
