// SPDX-License-Identifier: MIT
/* Checks of area 'kernel' (rows to be added). */
#include "checks/check.h"

const struct check kernel_checks[] = {
	{ NULL, NULL, NULL, NULL, NULL, NULL },
};
const size_t kernel_checks_n = 0;
