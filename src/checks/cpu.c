// SPDX-License-Identifier: MIT
/* Checks of area 'cpu' (rows to be added). */
#include "checks/check.h"

const struct check cpu_checks[] = {
	{ NULL, NULL, NULL, NULL, NULL, NULL },
};
const size_t cpu_checks_n = 0;
