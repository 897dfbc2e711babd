// SPDX-License-Identifier: MIT
/* Checks of area 'mem' (rows to be added). */
#include "checks/check.h"

const struct check mem_checks[] = {
	{ NULL, NULL, NULL, NULL, NULL, NULL },
};
const size_t mem_checks_n = 0;
