// SPDX-License-Identifier: MIT
/* Device placement and managed IRQs for the planner; see placement.h. */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "probe/placement.h"

int probe_managed_irqs(const struct irq_facts *irqs, struct managed_irqs *out)
{
	memset(out, 0, sizeof(*out));
	out->err = irqs->err ? irqs->err : irqs->managed_err;
	if (out->err)
		return 0;
	for (size_t i = 0; i < irqs->n; i++) {
		const struct irq_info *ii = &irqs->irqs[i];
		int e;

		if (ii->managed != IRQ_MANAGED_YES)
			continue;
		out->n++;
		/* /proc/irq's effective affinity where the kernel shows it, else debugfs'. */
		e = rtr_cpuset_or(&out->cpus,
				  !ii->effective_err && !rtr_cpuset_is_empty(&ii->effective) ?
					  &ii->effective : &ii->managed_effective);
		if (e)
			return e;
	}
	return 0;
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
	/* Content that is no node number is -EBADMSG: -EINVAL means a bad interface name. */
	if (err == -EINVAL || err == -ERANGE)
		return -EBADMSG;
	if (err)
		return err;
	if (v < -1 || v >= 1 << 16)
		return -EBADMSG;
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
