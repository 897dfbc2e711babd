// SPDX-License-Identifier: MIT
/* Device placement and managed IRQs for the planner; see placement.h. */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "probe/placement.h"

/* A debugfs IRQ file is well under a page; cap it anyway. */
#define DEBUGFS_CAP (64u << 10)

/* Copy the value after "key:" on the line at @line into @buf (trimmed). */
static bool line_value(const char *line, const char *end, const char *key, char *buf, size_t len)
{
	size_t k = strlen(key), n;

	if ((size_t)(end - line) < k || strncmp(line, key, k) != 0)
		return false;
	line += k;
	while (line < end && (*line == ' ' || *line == '\t'))
		line++;
	n = (size_t)(end - line);
	while (n && (line[n - 1] == ' ' || line[n - 1] == '\t' || line[n - 1] == '\r'))
		n--;
	if (n >= len)
		n = len - 1;
	memcpy(buf, line, n);
	buf[n] = '\0';
	return true;
}

int placement_parse_irq_debugfs(const char *text, size_t len, bool *managed,
				struct rtr_cpuset *effective)
{
	const char *p = text, *end = text + len;
	char effv[1024] = "", aff[1024] = "", v[1024];
	size_t lines = 0;

	*managed = false;
	rtr_cpuset_clear(effective);
	while (p < end && lines++ < 4096) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end, *s = p;

		while (s < le && (*s == ' ' || *s == '\t'))
			s++;
		if ((size_t)(le - s) >= 21 && strncmp(s, "IRQD_AFFINITY_MANAGED", 21) == 0 &&
		    (le - s == 21 || s[21] == ' ' || s[21] == '\r'))
			*managed = true;
		else if (line_value(p, le, "effectv:", v, sizeof(v)))
			memcpy(effv, v, sizeof(v));
		else if (line_value(p, le, "affinity:", v, sizeof(v)))
			memcpy(aff, v, sizeof(v));
		p = nl ? nl + 1 : end;
	}
	if (memchr(text, '\0', len))
		return -EINVAL;
	if (effv[0])
		return rtr_cpuset_parse_list(effective, effv);
	if (aff[0])
		return rtr_cpuset_parse_list(effective, aff);
	return 0;
}

int probe_managed_irqs(const struct rootfs *fs, const struct irq_facts *irqs,
		       struct managed_irqs *out)
{
	struct rtr_cpuset eff = RTR_CPUSET_INIT;
	char path[96], *buf = NULL;
	size_t size = 0, len;
	int err = 0;

	memset(out, 0, sizeof(*out));
	if (irqs->err) {
		out->err = irqs->err;
		return 0;
	}
	for (size_t i = 0; i < irqs->n && i < PLACEMENT_MAX_IRQS; i++) {
		const struct irq_info *ii = &irqs->irqs[i];
		bool managed;
		int e;

		rootfs_path(path, sizeof(path), "/sys/kernel/debug/irq/irqs/%d", ii->irq);
		e = rootfs_read_reuse(fs, path, DEBUGFS_CAP, ROOTFS_ONE_RECORD, &buf, &size, &len);
		if (e == -ENOMEM) {
			err = e;
			break;
		}
		if (e) {
			/* No debugfs (or no right to it) shows on the first IRQ already. */
			if (i == 0 || e == -EACCES || e == -EPERM) {
				out->err = e;
				break;
			}
			continue;
		}
		e = placement_parse_irq_debugfs(buf, len, &managed, &eff);
		if (e == -ENOMEM) {
			err = e;
			break;
		}
		if (e || !managed)
			continue;
		out->n++;
		/* /proc/irq's effective affinity where the kernel shows it, else debugfs'. */
		e = rtr_cpuset_or(&out->cpus,
				  !ii->effective_err && !rtr_cpuset_is_empty(&ii->effective) ?
					  &ii->effective : &eff);
		if (e) {
			err = e;
			break;
		}
	}
	if (out->err) {
		out->n = 0;
		rtr_cpuset_clear(&out->cpus);
	}
	free(buf);
	rtr_cpuset_free(&eff);
	return err;
}

void managed_irqs_free(struct managed_irqs *m)
{
	rtr_cpuset_free(&m->cpus);
	memset(m, 0, sizeof(*m));
}

static int read_node(const struct rootfs *fs, const char *path, int *node)
{
	int64_t v;
	int err = rootfs_read_int64(fs, path, &v);

	*node = -1;
	if (err)
		return err;
	if (v < -1 || v >= 1 << 16)
		return -EINVAL;
	*node = (int)v;
	return 0;
}

int probe_irq_node(const struct rootfs *fs, int irq, int *node)
{
	char path[64];

	*node = -1;
	if (irq < 0)
		return -EINVAL;
	rootfs_path(path, sizeof(path), "/proc/irq/%d/node", irq);
	return read_node(fs, path, node);
}

static int net_node(const struct rootfs *fs, const char *iface, bool parent, int *node)
{
	char path[128];
	size_t n = strlen(iface);
	int err;

	*node = -1;
	/* IFNAMSIZ is 16 with the NUL; no '/' and not a dot name (dev_valid_name()). */
	if (!n || n >= 16 || strchr(iface, '/') || strcmp(iface, ".") == 0 ||
	    strcmp(iface, "..") == 0)
		return -EINVAL;
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)iface[i] <= ' ' || iface[i] == ':')
			return -EINVAL;
	rootfs_path(path, sizeof(path), "/sys/class/net/%s/device/numa_node", iface);
	err = read_node(fs, path, node);
	if (err != -ENOENT || !parent)
		return err;
	/* virtio-net: the device is a virtio bus device; its PCI parent has the node. */
	rootfs_path(path, sizeof(path), "/sys/class/net/%s/device/../numa_node", iface);
	return read_node(fs, path, node) ? err : 0;
}

int probe_net_node(const struct rootfs *fs, const char *iface, int *node)
{
	return net_node(fs, iface, true, node);
}

static int cmp_net(const void *a, const void *b)
{
	return strcmp(((const struct net_node *)a)->name, ((const struct net_node *)b)->name);
}

int probe_net_nodes(const struct rootfs *fs, struct net_node **out, size_t *n)
{
	DIR *d = rootfs_opendir(fs, "/sys/class/net");
	struct dirent *de;
	int err = 0;

	*out = NULL;
	*n = 0;
	if (!d)
		return errno ? -errno : -ENOENT;
	while ((de = readdir(d)) && *n < PLACEMENT_MAX_NETS) {
		struct net_node *nn;
		int node;

		/* Not the virtio parent: a snapshot cannot hold a ".." path. */
		if (de->d_name[0] == '.' || net_node(fs, de->d_name, false, &node))
			continue;
		nn = realloc(*out, (*n + 1) * sizeof(*nn));
		if (!nn) {
			err = -ENOMEM;
			break;
		}
		*out = nn;
		/* probe_net_node() took only names shorter than IFNAMSIZ. */
		memcpy(nn[*n].name, de->d_name, strlen(de->d_name) + 1);
		nn[(*n)++].node = node;
	}
	closedir(d);
	if (err) {
		free(*out);
		*out = NULL;
		*n = 0;
		return err;
	}
	if (*n)
		qsort(*out, *n, sizeof(**out), cmp_net);
	return 0;
}
