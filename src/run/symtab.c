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

/*
 * One ELF file in memory, 32- or 64-bit: the readers below widen each
 * 32-bit header to its 64-bit form, so the search is written once.
 */
struct elf {
	const unsigned char *map;
	uint64_t len;
	bool is32;
	Elf64_Ehdr eh;
};

/* Whether [off, off + size) lies inside a file of @len bytes. */
static bool inside(uint64_t off, uint64_t size, uint64_t len)
{
	return off <= len && size <= len - off;
}

int symtab_ehdr(const void *buf, uint64_t len, bool is32, Elf64_Ehdr *eh)
{
	if (is32) {
		Elf32_Ehdr h;

		if (len < sizeof(h))
			return -EINVAL;
		memcpy(&h, buf, sizeof(h));
		*eh = (Elf64_Ehdr){ .e_machine = h.e_machine, .e_phoff = h.e_phoff,
				    .e_shoff = h.e_shoff, .e_phentsize = h.e_phentsize,
				    .e_phnum = h.e_phnum, .e_shentsize = h.e_shentsize,
				    .e_shnum = h.e_shnum };
		return 0;
	}
	if (len < sizeof(*eh))
		return -EINVAL;
	memcpy(eh, buf, sizeof(*eh));
	return 0;
}

static int read_ehdr(struct elf *e)
{
	if (e->len < EI_NIDENT || memcmp(e->map, ELFMAG, SELFMAG) != 0)
		return -EINVAL;
	e->is32 = e->map[EI_CLASS] == ELFCLASS32;
	if (!e->is32 && e->map[EI_CLASS] != ELFCLASS64)
		return -EINVAL;
	return symtab_ehdr(e->map, e->len, e->is32, &e->eh);
}

static size_t phdr_size(const struct elf *e)
{
	return e->is32 ? sizeof(Elf32_Phdr) : sizeof(Elf64_Phdr);
}

static size_t shdr_size(const struct elf *e)
{
	return e->is32 ? sizeof(Elf32_Shdr) : sizeof(Elf64_Shdr);
}

static size_t sym_size(const struct elf *e)
{
	return e->is32 ? sizeof(Elf32_Sym) : sizeof(Elf64_Sym);
}

/* The checks of inside() come first: these only copy. */
static void read_phdr(const struct elf *e, uint64_t off, Elf64_Phdr *ph)
{
	if (e->is32) {
		Elf32_Phdr p;

		memcpy(&p, e->map + off, sizeof(p));
		memset(ph, 0, sizeof(*ph));
		ph->p_type = p.p_type;
		ph->p_vaddr = p.p_vaddr;
		return;
	}
	memcpy(ph, e->map + off, sizeof(*ph));
}

static void read_shdr(const struct elf *e, uint64_t index, Elf64_Shdr *sh)
{
	uint64_t off = e->eh.e_shoff + index * shdr_size(e);

	if (e->is32) {
		Elf32_Shdr s;

		memcpy(&s, e->map + off, sizeof(s));
		memset(sh, 0, sizeof(*sh));
		sh->sh_type = s.sh_type;
		sh->sh_link = s.sh_link;
		sh->sh_offset = s.sh_offset;
		sh->sh_size = s.sh_size;
		sh->sh_entsize = s.sh_entsize;
		return;
	}
	memcpy(sh, e->map + off, sizeof(*sh));
}

static void read_sym(const struct elf *e, uint64_t off, Elf64_Sym *sym)
{
	if (e->is32) {
		Elf32_Sym s;

		memcpy(&s, e->map + off, sizeof(s));
		sym->st_name = s.st_name;
		sym->st_info = s.st_info;
		sym->st_other = s.st_other;
		sym->st_shndx = s.st_shndx;
		sym->st_value = s.st_value;
		sym->st_size = s.st_size;
		return;
	}
	memcpy(sym, e->map + off, sizeof(*sym));
}

/*
 * dladdr()'s base is where the lowest PT_LOAD segment starts, page aligned:
 * 0 for shared objects and PIE executables, the link address (0x400000;
 * 0x10000 on 32-bit Arm) for fixed-address executables. Symbols hold link
 * addresses.
 */
static uint64_t link_base(const struct elf *e)
{
	uint64_t low = UINT64_MAX;

	if (e->eh.e_phentsize != phdr_size(e) ||
	    !inside(e->eh.e_phoff, (uint64_t)e->eh.e_phnum * phdr_size(e), e->len))
		return 0;
	for (unsigned i = 0; i < e->eh.e_phnum; i++) {
		Elf64_Phdr ph;

		read_phdr(e, e->eh.e_phoff + (uint64_t)i * phdr_size(e), &ph);
		if (ph.p_type == PT_LOAD && ph.p_vaddr < low)
			low = ph.p_vaddr;
	}
	return low == UINT64_MAX ? 0 : low & ~(uint64_t)0xfff;
}

/* Search one symbol table section for the function holding @addr. */
static int search(const struct elf *e, const Elf64_Shdr *sh, const Elf64_Shdr *strsh,
		  uint64_t addr, char *name, size_t nlen, uint64_t *symoff)
{
	uint64_t n;

	if (sh->sh_entsize != sym_size(e) || !inside(sh->sh_offset, sh->sh_size, e->len) ||
	    !inside(strsh->sh_offset, strsh->sh_size, e->len))
		return -EINVAL;
	n = sh->sh_size / sym_size(e);
	for (uint64_t i = 0; i < n; i++) {
		Elf64_Sym s;
		uint64_t value;
		const char *str;
		size_t max;

		read_sym(e, sh->sh_offset + i * sym_size(e), &s);
		if (ELF64_ST_TYPE(s.st_info) != STT_FUNC || s.st_shndx == SHN_UNDEF)
			continue;
		/* A Thumb function's symbol has bit 0 set; its code starts at the even address. */
		value = e->eh.e_machine == EM_ARM ? s.st_value & ~(uint64_t)1 : s.st_value;
		if (addr < value || addr - value >= (s.st_size ? s.st_size : 1))
			continue;
		if (s.st_name >= strsh->sh_size)
			return -EINVAL;
		str = (const char *)e->map + strsh->sh_offset + s.st_name;
		max = strsh->sh_size - s.st_name;
		if (!memchr(str, '\0', max) || nlen == 0)
			return -EINVAL;
		strncpy(name, str, nlen - 1);
		name[nlen - 1] = '\0';
		*symoff = addr - value;
		return 0;
	}
	return -ENOENT;
}

int symtab_lookup_mem(const void *map, uint64_t len, uint64_t off, char *name, size_t nlen,
		      uint64_t *symoff)
{
	struct elf e;
	uint64_t addr;
	int rc = -ENOENT;

	memset(&e, 0, sizeof(e));
	e.map = map;
	e.len = len;
	if (read_ehdr(&e))
		return -EINVAL;
	if (e.eh.e_shentsize != shdr_size(&e) ||
	    !inside(e.eh.e_shoff, (uint64_t)e.eh.e_shnum * shdr_size(&e), len))
		return -EINVAL;
	addr = off + link_base(&e);
	/* .symtab first (it has the static functions), then .dynsym. */
	for (unsigned type = SHT_SYMTAB; rc == -ENOENT; type = SHT_DYNSYM) {
		for (unsigned i = 0; i < e.eh.e_shnum && rc == -ENOENT; i++) {
			Elf64_Shdr sh, strsh;

			read_shdr(&e, i, &sh);
			if (sh.sh_type != type || sh.sh_link >= e.eh.e_shnum)
				continue;
			read_shdr(&e, sh.sh_link, &strsh);
			rc = search(&e, &sh, &strsh, addr, name, nlen, symoff);
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
	rc = symtab_lookup_mem(map, (uint64_t)st.st_size, off, name, len, symoff);
	munmap(map, (size_t)st.st_size);
	return rc;
}
