// SPDX-License-Identifier: MIT
/*
 * Bounded readers for the library's own /proc files (see procself.h). A
 * read never blocks (O_NONBLOCK) and never goes past its buffer; parsing is
 * pure so that the unit tests feed it sample lines.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "procself.h"
#include "statparse.h"

long rtr__procself_read(const char *path, char *buf, size_t size)
{
	size_t len = 0;
	int fd, err = 0;

	if (size == 0)
		return -EINVAL;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return -errno;
	/* Bounded: each pass either ends or fills more of the buffer. */
	while (len < size - 1) {
		ssize_t n = read(fd, buf + len, size - 1 - len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			err = -errno;
			break;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	buf[len] = '\0';
	return err ? err : (long)len;
}

int rtr__procself_status_bytes(const char *text, const char *key, uint64_t *bytes)
{
	size_t klen = strlen(key);
	const char *p = text;

	/* Lines look like "VmLck:\t    1234 kB". */
	while (p && *p) {
		if (strncmp(p, key, klen) == 0 && p[klen] == ':') {
			char *end;
			unsigned long long kb;

			p += klen + 1;
			while (*p == ' ' || *p == '\t')
				p++;
			if (*p < '0' || *p > '9')
				return -EINVAL;
			errno = 0;
			kb = strtoull(p, &end, 10);
			if (errno || end == p || kb > UINT64_MAX / 1024)
				return -EINVAL;
			*bytes = (uint64_t)kb * 1024;
			return 0;
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return -ENOENT;
}

int rtr__procself_parse_stat(const char *line, struct rtr__procself_task *task)
{
	struct rtr__proc_stat st;
	size_t clen;

	if (rtr__proc_parse_stat(line, strlen(line), &st))
		return -EINVAL;
	clen = st.comm_len < sizeof(task->comm) - 1 ? st.comm_len : sizeof(task->comm) - 1;
	memcpy(task->comm, st.comm, clen);
	task->comm[clen] = '\0';
	task->tid = st.pid;
	task->minor_faults = st.minflt;
	task->major_faults = st.majflt;
	task->prio = (int)st.priority;
	task->nice = st.nice;
	task->rt_priority = st.rt_priority;
	task->policy = (int)st.policy;
	return 0;
}

int rtr__procself_task(int tid, struct rtr__procself_task *task)
{
	char path[64], line[1024];
	long len;

	snprintf(path, sizeof(path), PROCSELF_TASKS "/%d/stat", tid);
	len = rtr__procself_read(path, line, sizeof(line));
	if (len < 0)
		return (int)len;
	return rtr__procself_parse_stat(line, task);
}
