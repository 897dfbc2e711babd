/* SPDX-License-Identifier: MIT */
/*
 * Escaping for the markup renderers (HTML and JUnit XML): the one function
 * through which every piece of text taken from a result reaches a page or
 * an XML file, in element content and in quoted attribute values alike.
 */
#ifndef RTR_RENDER_MARKUP_H
#define RTR_RENDER_MARKUP_H

#include <stdio.h>

/*
 * Write @s to @out so that it is plain text in HTML and XML 1.0, inside an
 * element or a quoted attribute: & < > " ' become entities; tab, newline and
 * carriage return become character references (so attributes keep them);
 * what XML 1.0 forbids (other C0 controls, DEL, U+FFFE, U+FFFF, surrogates,
 * malformed or overlong UTF-8) becomes U+FFFD. NULL writes nothing.
 */
void markup_escape(FILE *out, const char *s);

/* @before as it is, @s escaped (markup_escape()), then @after: a text inside its tags or quotes. */
void markup_put(FILE *out, const char *before, const char *s, const char *after);

#endif
