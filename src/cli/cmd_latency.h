/* SPDX-License-Identifier: MIT */
/*
 * rtready latency: options parsed into a struct by a function that never
 * exits, so that the parser is unit-tested apart from the measurement.
 */
#ifndef RTR_CLI_CMD_LATENCY_H
#define RTR_CLI_CMD_LATENCY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cli/cli.h"
#include "job/latency.h"

void latency_opts_free(void *opts);

#endif
