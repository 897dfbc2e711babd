// SPDX-License-Identifier: MIT
/*
 * run_inspect_elf() on 32-bit programs (test-run.c has the 64-bit ones):
 * an interpreter makes the program dynamic, none static, and a class byte
 * that is not ELFCLASS64 reads as the 32-bit layout.
 */
#include <elf.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "unit.h"

#include "run/exec.h"

/* A 32-bit ELF image in @buf of class @cls whose second program header is of @type. */
static void elf32(unsigned char *buf, size_t len, unsigned char cls, uint32_t type)
{
	Elf32_Ehdr eh;
	Elf32_Phdr ph;

	memset(buf, 0, len);
	memset(&eh, 0, sizeof(eh));
	memcpy(eh.e_ident, ELFMAG, SELFMAG);
	eh.e_ident[EI_CLASS] = cls;
	eh.e_phoff = sizeof(eh);
	eh.e_phentsize = sizeof(ph);
	eh.e_phnum = 2;
	memcpy(buf, &eh, sizeof(eh));
	memset(&ph, 0, sizeof(ph));
	ph.p_type = PT_LOAD;
	memcpy(buf + sizeof(eh), &ph, sizeof(ph));
	ph.p_type = type;
	memcpy(buf + sizeof(eh) + sizeof(ph), &ph, sizeof(ph));
}

static void test_elf32(void **state)
{
	unsigned char buf[256];
	struct elf_facts f;

	(void)state;
	elf32(buf, sizeof(buf), ELFCLASS32, PT_INTERP);
	run_inspect_elf(buf, sizeof(buf), &f);
	assert_true(f.elf);
	assert_true(f.dynamic);
	elf32(buf, sizeof(buf), ELFCLASS32, PT_NOTE);
	run_inspect_elf(buf, sizeof(buf), &f);
	assert_true(f.elf);
	assert_false(f.dynamic);
	elf32(buf, sizeof(buf), ELFCLASSNONE, PT_INTERP);
	run_inspect_elf(buf, sizeof(buf), &f);
	assert_true(f.elf);
	assert_true(f.dynamic);
	/* Shorter than a 32-bit header: an ELF file, nothing more known. */
	elf32(buf, sizeof(buf), ELFCLASS32, PT_INTERP);
	run_inspect_elf(buf, sizeof(Elf32_Ehdr) - 1, &f);
	assert_true(f.elf);
	assert_false(f.dynamic);
	/* The second header cut off: only the first is read. */
	run_inspect_elf(buf, sizeof(Elf32_Ehdr) + sizeof(Elf32_Phdr) + 3, &f);
	assert_false(f.dynamic);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_elf32),
	};

	return unit_run(tests, NULL, NULL);
}
