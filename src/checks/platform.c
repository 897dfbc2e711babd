// SPDX-License-Identifier: MIT
/* Checks of area 'platform' (rows to be added). */
#include "checks/check.h"

const struct check platform_checks[] = {
	{ NULL, NULL, NULL, NULL, NULL, NULL },
};
const size_t platform_checks_n = 0;
