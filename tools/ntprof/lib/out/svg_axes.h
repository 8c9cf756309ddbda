/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The axes of the HTML pages' charts (svg_axes.c): a scale from values to
 * pixels, linear or log, stretched to tick values a reader can use (1, 2
 * and 5 times a power of ten), and the axis drawn with its ticks, their
 * labels in units and its title; the legend's entries beside.
 */
#ifndef NTPROF_SVG_AXES_H
#define NTPROF_SVG_AXES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* What a value on an axis is, for its tick labels. */
enum svg_unit {
	SVG_US,		/* a time in us, labelled in us or ms */
	SVG_SECONDS,
	SVG_PERCENT,	/* 0 to 100 */
};

struct svg_scale {
	double lo, hi;		/* the axis' ends, tick values both */
	double p0, p1;		/* their pixels */
	double step;		/* a linear axis' tick step */
	bool log;
	enum svg_unit unit;
};

/*
 * A scale that holds @lo to @hi, from pixel @p0 to @p1. A linear one
 * starts and ends on a step of about @ticks steps; a log one (@lo > 0)
 * on a 1, 2 or 5 times a power of ten.
 */
void svg_scale_linear(struct svg_scale *s, double lo, double hi, int ticks,
		      double p0, double p1, enum svg_unit unit);
void svg_scale_log(struct svg_scale *s, double lo, double hi, double p0,
		   double p1, enum svg_unit unit);
/* The pixel of @v, clamped to the axis. */
double svg_pos(const struct svg_scale *s, double v);
/* The tick values of @s, at most @max; their number. */
size_t svg_ticks(const struct svg_scale *s, double *t, size_t max);
/* @v as a tick label of @s would print it: "50 µs", "1.5 ms", "99.9 %". */
void svg_value(const struct svg_scale *s, double v, char *buf, size_t size);

/*
 * An x axis at pixel row @y, its grid lines up to row @top (none when
 * @top >= @y), and @title under it; a y axis at column @x, its grid to
 * column @right. Classes: axis axis-x / axis-y, tick, tick-label,
 * axis-title, grid.
 */
void svg_axis_x(FILE *f, const struct svg_scale *s, double y, double top,
		const char *title);
void svg_axis_y(FILE *f, const struct svg_scale *s, double x, double right,
		const char *title);

/* How a legend entry's swatch looks: as what it stands for. */
enum svg_swatch {
	SVG_SWATCH_BOX,		/* a bar's part */
	SVG_SWATCH_LINE,	/* a curve */
	SVG_SWATCH_DASHED,	/* a mark */
};

/*
 * A legend entry at (@x, @y): a swatch of @colour and @label. Class
 * legend-item, inside the caller's <g class="legend">.
 */
void svg_legend_item(FILE *f, double x, double y, const char *colour,
		     enum svg_swatch swatch, const char *label);

#endif /* NTPROF_SVG_AXES_H */
