// SPDX-License-Identifier: MIT
/*
 * The floor of `rtready check --root TREE` (bench/check-scale.sh): walk TREE
 * and read every regular file once, opening each relative to its directory
 * (openat, read, close), in one process. What any tool that reads the same
 * files must pay at least; check also parses and judges.
 *
 *   walk-floor TREE      prints "FILES BYTES"
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static unsigned long files, bytes;
static char buf[1 << 16];

static void walk(int dirfd)
{
	DIR *d = fdopendir(dirfd);
	struct dirent *e;

	if (!d) {
		close(dirfd);
		return;
	}
	while ((e = readdir(d))) {
		int fd;
		ssize_t n;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (e->d_type == DT_DIR) {
			fd = openat(dirfd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (fd >= 0)
				walk(fd);
			continue;
		}
		if (e->d_type != DT_REG)
			continue;
		fd = openat(dirfd, e->d_name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
		if (fd < 0)
			continue;
		while ((n = read(fd, buf, sizeof(buf))) > 0)
			bytes += (unsigned long)n;
		close(fd);
		files++;
	}
	closedir(d);
}

int main(int argc, char **argv)
{
	int fd;

	if (argc != 2) {
		fprintf(stderr, "usage: walk-floor TREE\n");
		return 2;
	}
	fd = open(argv[1], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		perror(argv[1]);
		return 2;
	}
	walk(fd);
	printf("%lu %lu\n", files, bytes);
	return 0;
}
