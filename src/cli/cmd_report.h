/* SPDX-License-Identifier: MIT */
/* Options of `rtready report`, parsed without side effects (unit-tested). */
#ifndef RTR_CLI_CMD_REPORT_H
#define RTR_CLI_CMD_REPORT_H

#include <stddef.h>

#include "job/report.h"


#endif
