// SPDX-License-Identifier: MIT
/* Function names from an ELF file's symbol table; see symtab.h. */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "run/symtab.h"

#define FILE_CAP (1ull << 30)	/* larger files are not read */

/* Whether [off, off + size) lies inside a file of @len bytes. */
static bool inside(uint64_t off, uint64_t size, uint64_t len)
{
	return off <= len && size <= len - off;
}

/*
 * dladdr()'s base is where the lowest PT_LOAD segment starts, page aligned:
 * 0 for shared objects and PIE executables, the link address (0x400000)
 * for fixed-address executables. Symbols hold link addresses.
 */
static uint64_t link_base(const unsigned char *map, uint64_t len, const Elf64_Ehdr *eh)
{
	uint64_t low = UINT64_MAX;

	if (eh->e_phentsize != sizeof(Elf64_Phdr) ||
	    !inside(eh->e_phoff, (uint64_t)eh->e_phnum * sizeof(Elf64_Phdr), len))
		return 0;
	for (unsigned i = 0; i < eh->e_phnum; i++) {
		Elf64_Phdr ph;

		memcpy(&ph, map + eh->e_phoff + (uint64_t)i * sizeof(ph), sizeof(ph));
		if (ph.p_type == PT_LOAD && ph.p_vaddr < low)
			low = ph.p_vaddr;
	}
	return low == UINT64_MAX ? 0 : low & ~(uint64_t)0xfff;
}

/* Search one symbol table section for the function holding @addr. */
static int search(const unsigned char *map, uint64_t len, const Elf64_Shdr *sh,
		  const Elf64_Shdr *strsh, uint64_t addr, char *name, size_t nlen,
		  uint64_t *symoff)
{
	uint64_t n;

	if (sh->sh_entsize != sizeof(Elf64_Sym) || !inside(sh->sh_offset, sh->sh_size, len) ||
	    !inside(strsh->sh_offset, strsh->sh_size, len))
		return -EINVAL;
	n = sh->sh_size / sizeof(Elf64_Sym);
	for (uint64_t i = 0; i < n; i++) {
		Elf64_Sym s;
		const char *str;
		size_t max;

		memcpy(&s, map + sh->sh_offset + i * sizeof(s), sizeof(s));
		if (ELF64_ST_TYPE(s.st_info) != STT_FUNC || s.st_shndx == SHN_UNDEF)
			continue;
		if (addr < s.st_value || addr - s.st_value >= (s.st_size ? s.st_size : 1))
			continue;
		if (s.st_name >= strsh->sh_size)
			return -EINVAL;
		str = (const char *)map + strsh->sh_offset + s.st_name;
		max = strsh->sh_size - s.st_name;
		if (!memchr(str, '\0', max) || nlen == 0)
			return -EINVAL;
		strncpy(name, str, nlen - 1);
		name[nlen - 1] = '\0';
		*symoff = addr - s.st_value;
		return 0;
	}
	return -ENOENT;
}

static int lookup_map(const unsigned char *map, uint64_t len, uint64_t off, char *name,
		      size_t nlen, uint64_t *symoff)
{
	Elf64_Ehdr eh;
	uint64_t addr;
	int rc = -ENOENT;

	if (len < sizeof(eh))
		return -EINVAL;
	memcpy(&eh, map, sizeof(eh));
	if (memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 || eh.e_ident[EI_CLASS] != ELFCLASS64)
		return -EINVAL;
	if (eh.e_shentsize != sizeof(Elf64_Shdr) ||
	    !inside(eh.e_shoff, (uint64_t)eh.e_shnum * sizeof(Elf64_Shdr), len))
		return -EINVAL;
	addr = off + link_base(map, len, &eh);
	/* .symtab first (it has the static functions), then .dynsym. */
	for (unsigned type = SHT_SYMTAB; rc == -ENOENT; type = SHT_DYNSYM) {
		for (unsigned i = 0; i < eh.e_shnum && rc == -ENOENT; i++) {
			Elf64_Shdr sh, strsh;

			memcpy(&sh, map + eh.e_shoff + (uint64_t)i * sizeof(sh), sizeof(sh));
			if (sh.sh_type != type || sh.sh_link >= eh.e_shnum)
				continue;
			memcpy(&strsh, map + eh.e_shoff + (uint64_t)sh.sh_link * sizeof(strsh),
			       sizeof(strsh));
			rc = search(map, len, &sh, &strsh, addr, name, nlen, symoff);
		}
		if (type == SHT_DYNSYM)
			break;
	}
	return rc;
}

int symtab_lookup(const char *path, uint64_t off, char *name, size_t len, uint64_t *symoff)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK), rc;
	struct stat st;
	void *map;

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size <= 0 ||
	    (uint64_t)st.st_size > FILE_CAP) {
		close(fd);
		return -EINVAL;
	}
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return -errno;
	rc = lookup_map(map, (uint64_t)st.st_size, off, name, len, symoff);
	munmap(map, (size_t)st.st_size);
	return rc;
}
