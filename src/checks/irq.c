// SPDX-License-Identifier: MIT
/* Checks of area 'irq' (rows to be added). */
#include "checks/check.h"

const struct check irq_checks[] = {
	{ NULL, NULL, NULL, NULL, NULL, NULL },
};
const size_t irq_checks_n = 0;
