/* SPDX-License-Identifier: MIT */
/*
 * Names for backtrace frames that dladdr() could not name. dladdr() only
 * sees exported (dynamic) symbols, so static functions and everything in
 * an executable not linked with -rdynamic come back as object+offset. The
 * ELF file's own symbol table (.symtab, unless stripped) has them: this
 * looks the offset up there, after the program has ended.
 */
#ifndef RTR_RUN_SYMTAB_H
#define RTR_RUN_SYMTAB_H

#include <elf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Find the function of ELF file @path that holds @off, an offset from the
 * object's load base as dladdr() reports it (dli_fbase). 32- and 64-bit
 * ELF files of this machine's byte order are read (a Thumb function's odd
 * symbol value counts from its even address); the file is mapped
 * read-only and every table is bounds-checked.
 * Return: 0 with @name (size @len) and *symoff set, -ENOENT when no
 * function holds @off, or another -errno.
 */
int symtab_lookup(const char *path, uint64_t off, char *name, size_t len, uint64_t *symoff);

/* The same on @len bytes of an ELF file at @map. Pure, for tests and fuzzing. */
int symtab_lookup_mem(const void *map, uint64_t len, uint64_t off, char *name, size_t nlen,
		      uint64_t *symoff);

/*
 * The ELF header at the start of @buf (@len bytes, this machine's byte
 * order) into @eh; a 32-bit one (@is32) is widened to the 64-bit form (the
 * machine and the program and section header tables). The caller has
 * checked the magic. Return: 0, -EINVAL when @len is too short.
 */
int symtab_ehdr(const void *buf, uint64_t len, bool is32, Elf64_Ehdr *eh);

#endif
