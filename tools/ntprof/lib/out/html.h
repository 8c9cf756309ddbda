/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the HTML pages of report --html and compare --html share
 * (html.c): escaping, the stages' colours, the page's head and end.
 */
#ifndef NTPROF_HTML_H
#define NTPROF_HTML_H

#include <stdio.h>

/* @s as HTML or SVG text: < > & " ' escaped. */
void html_escape(FILE *f, const char *s);
/* The same, each time after a number written " us" as " µs". */
void html_escape_us(FILE *f, const char *s);
/* A stage's colour in every chart ("#4e79a7"); the end to end's is black. */
const char *html_colour(int stage);
/* The page's head with its style, up to the opened body and its title. */
void html_begin(FILE *f, const char *title);
void html_end(FILE *f);

#endif /* NTPROF_HTML_H */
