// SPDX-License-Identifier: MIT
/* Names of finding statuses, as the JSON contract spells them. */
#include "rtready/selfcheck.h"
#include "internal.h"

RTR_EXPORT const char *rtr_status_name(enum rtr_status status)
{
	switch (status) {
	case RTR_PASS: return "pass";
	case RTR_WARN: return "warn";
	case RTR_FAIL: return "fail";
	case RTR_INFO: return "info";
	case RTR_SKIP: return "skip";
	}
	return "unknown";
}
