// SPDX-License-Identifier: MIT
/* The platform probe; see platform.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "probe/knob.h"
#include "probe/platform.h"

int platform_parse_cpuinfo(const char *buf, size_t len, bool *flag)
{
	const char *p = buf, *end = buf + len;

	*flag = false;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end, *colon;

		/* x86: "flags\t\t: fpu vme ... hypervisor ..." */
		if (eol - p > 5 && memcmp(p, "flags", 5) == 0 && (p[5] == '\t' || p[5] == ' ' ||
								    p[5] == ':') &&
		    (colon = memchr(p, ':', (size_t)(eol - p)))) {
			for (const char *w = colon + 1; w < eol;) {
				const char *s;

				while (w < eol && (*w == ' ' || *w == '\t'))
					w++;
				s = w;
				while (w < eol && *w != ' ' && *w != '\t')
					w++;
				if (w - s == 10 && memcmp(s, "hypervisor", 10) == 0)
					*flag = true;
			}
			return 0;
		}
		if (!nl)
			break;
		p = nl + 1;
	}
	return -ENOENT;
}

int platform_parse_compatible(const char *buf, size_t len, char *first, size_t first_len,
			      bool *virt)
{
	const char *p = buf, *end = buf + len;

	*virt = false;
	if (first_len)
		first[0] = '\0';
	while (p < end) {
		const char *z = memchr(p, '\0', (size_t)(end - p));
		size_t n = z ? (size_t)(z - p) : (size_t)(end - p);

		if (n && first_len && !first[0]) {
			size_t k = n < first_len - 1 ? n : first_len - 1;

			memcpy(first, p, k);
			first[k] = '\0';
			knob_sanitize(first);
		}
		if ((n == 16 && memcmp(p, "linux,dummy-virt", 16) == 0) ||
		    (n > 5 && memcmp(p, "qemu,", 5) == 0))
			*virt = true;
		p += n + 1;
	}
	return first_len && first[0] ? 0 : -EINVAL;
}

static int read_text(const struct rootfs *fs, const char *path, char *buf, size_t len)
{
	int err = rootfs_read_text(fs, path, buf, len);

	if (err)
		buf[0] = '\0';
	knob_sanitize(buf);
	return err;
}

void probe_platform(const struct rootfs *fs, struct platform_facts *p)
{
	char *buf = NULL;
	size_t len;

	memset(p, 0, sizeof(*p));
	p->clocksource_err = read_text(fs,
		"/sys/devices/system/clocksource/clocksource0/current_clocksource",
		p->clocksource, sizeof(p->clocksource));
	p->clocksources_err = read_text(fs,
		"/sys/devices/system/clocksource/clocksource0/available_clocksource",
		p->clocksources, sizeof(p->clocksources));
	p->hypervisor_type_err = read_text(fs, "/sys/hypervisor/type", p->hypervisor_type,
					   sizeof(p->hypervisor_type));
	p->sys_vendor_err = read_text(fs, "/sys/class/dmi/id/sys_vendor", p->sys_vendor,
				      sizeof(p->sys_vendor));
	p->product_name_err = read_text(fs, "/sys/class/dmi/id/product_name", p->product_name,
					sizeof(p->product_name));
	p->cpuinfo_err = rootfs_read(fs, "/proc/cpuinfo", ROOTFS_CAP_LARGE, &buf, &len);
	if (!p->cpuinfo_err)
		p->cpuinfo_err = platform_parse_cpuinfo(buf, len, &p->cpu_hypervisor_flag);
	free(buf);
	buf = NULL;
	p->dt_err = rootfs_read(fs, "/sys/firmware/devicetree/base/compatible", 4096, &buf, &len);
	if (!p->dt_err)
		p->dt_err = platform_parse_compatible(buf, len, p->dt_compatible,
						      sizeof(p->dt_compatible), &p->dt_virtual);
	free(buf);
}

void probe_platform_free(struct platform_facts *p)
{
	(void)p;
}
