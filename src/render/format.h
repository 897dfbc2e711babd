/* SPDX-License-Identifier: MIT */
/* The formats of `--format` that every reporting command offers. */
#ifndef RTR_RENDER_FORMAT_H
#define RTR_RENDER_FORMAT_H

enum output_format { FORMAT_TEXT, FORMAT_JSON };

#endif
