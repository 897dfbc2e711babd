// SPDX-License-Identifier: MIT
/* Text renderer for findings; see text.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "render/text.h"

const char *text_status_color(const struct text_style *st, enum rtr_status s)
{
	if (!st->color)
		return "";
	switch (s) {
	case RTR_PASS: return "\033[32m";
	case RTR_WARN: return "\033[33m";
	case RTR_FAIL: return "\033[1;31m";
	case RTR_INFO: return "\033[36m";
	case RTR_SKIP: return "\033[2m";
	}
	return "";
}

const char *text_reset(const struct text_style *st)
{
	return st->color ? "\033[0m" : "";
}

void text_wrap(FILE *out, const char *indent, const char *text, int width)
{
	int avail = width - (int)strlen(indent);
	const char *p = text;
	bool first = true;

	if (avail < 20)
		avail = 20;
	while (*p) {
		const char *nl = strchr(p, '\n');
		int linelen = nl ? (int)(nl - p) : (int)strlen(p);
		int cut = linelen;

		if (cut > avail) {
			cut = avail;
			while (cut > 0 && p[cut] != ' ')
				cut--;
			if (cut == 0)
				cut = avail;
		}
		if (first)
			fputs(indent, out);
		else
			fprintf(out, "%*s", (int)strlen(indent), "");
		/* Text may come from a snapshot: no terminal control bytes get through. */
		for (int i = 0; i < cut; i++)
			fputc((unsigned char)p[i] < 0x20 || p[i] == 0x7f ? '?' : p[i], out);
		fputc('\n', out);
		first = false;
		p += cut;
		while (*p == ' ')
			p++;
		if (*p == '\n')
			p++;
	}
}

static bool shown(const struct finding *f, const struct text_style *st)
{
	return st->verbose || f->status != RTR_PASS;
}

static void write_one(FILE *out, const struct finding *f, const struct text_style *st)
{
	bool detail = f->status == RTR_FAIL || f->status == RTR_WARN || st->verbose;

	fprintf(out, "  %s%-4s%s  %-26s %s", text_status_color(st, f->status),
		rtr_status_name(f->status), text_reset(st), f->id, f->title);
	if (f->tid)
		fprintf(out, " (tid %ld)", f->tid);
	fputc('\n', out);
	if (*f->evidence && (detail || f->status == RTR_SKIP || f->status == RTR_INFO))
		text_wrap(out, "        seen: ", f->evidence, 100);
	if (detail && *f->why)
		text_wrap(out, "        why:  ", f->why, 100);
	if ((f->status == RTR_FAIL || f->status == RTR_WARN) && *f->fix)
		text_wrap(out, "        fix:  ", f->fix, 100);
}

int text_write_findings(FILE *out, const struct report *r, const struct text_style *st)
{
	const char **areas = calloc(r->n_findings + 1, sizeof(*areas));
	size_t n_areas = 0, hidden = 0;
	int worst_of_area;

	if (!areas && r->n_findings)
		return -ENOMEM;
	/* Areas in order of their worst finding, then first appearance. */
	for (size_t i = 0; i < r->n_findings; i++) {
		size_t j;

		for (j = 0; j < n_areas; j++)
			if (strcmp(areas[j], r->findings[i].area) == 0)
				break;
		if (j == n_areas)
			areas[n_areas++] = r->findings[i].area;
	}
	for (int level = 0; level <= 4; level++) {
		for (size_t a = 0; a < n_areas; a++) {
			bool header = false;

			worst_of_area = 5;
			for (size_t i = 0; i < r->n_findings; i++)
				if (strcmp(r->findings[i].area, areas[a]) == 0 &&
				    report_status_rank(r->findings[i].status) < worst_of_area)
					worst_of_area = report_status_rank(r->findings[i].status);
			if (worst_of_area != level)
				continue;
			for (int s = 0; s <= 4; s++) {
				for (size_t i = 0; i < r->n_findings; i++) {
					const struct finding *f = &r->findings[i];

					if (strcmp(f->area, areas[a]) != 0 ||
					    report_status_rank(f->status) != s)
						continue;
					if (!shown(f, st)) {
						hidden++;
						continue;
					}
					if (!header) {
						fprintf(out, "%s\n", areas[a]);
						header = true;
					}
					write_one(out, f, st);
				}
			}
		}
	}
	free(areas);
	{
		struct summary s = report_summary(r);

		fprintf(out, "\n%u fail, %u warn, %u pass, %u info, %u skip", s.fail, s.warn,
			s.pass, s.info, s.skip);
		if (hidden)
			fprintf(out, " (%zu passing not shown; --verbose shows them)", hidden);
		fputc('\n', out);
	}
	return ferror(out) ? -EIO : 0;
}
