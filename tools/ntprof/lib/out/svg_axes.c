// SPDX-License-Identifier: GPL-2.0
/*
 * Axes for the HTML pages' charts. Ticks fall on 1, 2 and 5 times a power
 * of ten, the steps a reader reads off without arithmetic; a time is
 * labelled in us up to 2 ms and in ms above, so that a label never needs
 * more than a few digits.
 */
#include <math.h>
#include <stdio.h>

#include "out/html.h"
#include "out/svg_axes.h"

/* Float noise in a value computed as k * step or m * 10^k. */
#define EPS	1e-9
/* A log axis over more decades than this has a tick per decade only. */
#define DENSE_DECADES	3.0

static double step_of(double range, int ticks)
{
	double rough = range / (ticks > 0 ? ticks : 1);
	double mag = pow(10, floor(log10(rough)));
	double n = rough / mag;

	return (n <= 1 + EPS ? 1 : n <= 2 + EPS ? 2 : n <= 5 + EPS ? 5 : 10) *
	       mag;
}

void svg_scale_linear(struct svg_scale *s, double lo, double hi, int ticks,
		      double p0, double p1, enum svg_unit unit)
{
	if (!(hi > lo))
		hi = lo + (lo > 0 ? lo : 1);
	*s = (struct svg_scale){ .p0 = p0, .p1 = p1, .unit = unit };
	s->step = step_of(hi - lo, ticks);
	s->lo = floor(lo / s->step + EPS) * s->step;
	s->hi = ceil(hi / s->step - EPS) * s->step;
}

/* The largest 1, 2 or 5 times a power of ten at most @v (@up: least at least). */
static double round125(double v, bool up)
{
	double mag = pow(10, floor(log10(v) + EPS));
	double n = v / mag;

	if (up)
		return (n <= 1 + EPS ? 1 : n <= 2 + EPS ? 2 : n <= 5 + EPS ? 5 : 10) * mag;
	return (n >= 5 - EPS ? 5 : n >= 2 - EPS ? 2 : 1) * mag;
}

void svg_scale_log(struct svg_scale *s, double lo, double hi, double p0,
		   double p1, enum svg_unit unit)
{
	*s = (struct svg_scale){ .p0 = p0, .p1 = p1, .unit = unit, .log = true };
	s->lo = round125(lo, false);
	s->hi = round125(hi > lo ? hi : lo * 2, true);
	if (!(s->hi > s->lo))
		s->hi = s->lo * 2;
}

double svg_pos(const struct svg_scale *s, double v)
{
	double r;

	if (v < s->lo)
		v = s->lo;
	if (v > s->hi)
		v = s->hi;
	r = s->log ? log(v / s->lo) / log(s->hi / s->lo) :
		     (v - s->lo) / (s->hi - s->lo);
	return s->p0 + r * (s->p1 - s->p0);
}

size_t svg_ticks(const struct svg_scale *s, double *t, size_t max)
{
	static const double mult[] = { 1, 2, 5 };
	bool dense = log10(s->hi / s->lo) <= DENSE_DECADES + EPS;
	size_t n = 0, m;
	double k, v;

	if (!s->log) {
		for (v = s->lo; v <= s->hi + s->step * EPS && n < max; v += s->step)
			t[n++] = fabs(v) < s->step * EPS ? 0 : v;
		return n;
	}
	for (k = floor(log10(s->lo) + EPS); k <= ceil(log10(s->hi)); k++) {
		for (m = 0; m < 3 && n < max; m++) {
			v = mult[m] * pow(10, k);
			if ((dense || m == 0) && v >= s->lo * (1 - EPS) &&
			    v <= s->hi * (1 + EPS))
				t[n++] = v;
		}
	}
	return n;
}

/* Decimals that a tick step of @step needs: 0 for 1 and more, 1 for 0.5... */
static int decimals(double step)
{
	return step >= 1 - EPS ? 0 : (int)ceil(-log10(step) - EPS);
}

void svg_value(const struct svg_scale *s, double v, char *buf, size_t size)
{
	bool ms = s->log ? v >= 1000 - EPS : s->hi > 2000 + EPS;

	switch (s->unit) {
	case SVG_US:
		if (s->log)
			snprintf(buf, size, "%.3g %s", ms ? v / 1e3 : v,
				 ms ? "ms" : "µs");
		else
			snprintf(buf, size, "%.*f %s",
				 decimals(ms ? s->step / 1e3 : s->step),
				 ms ? v / 1e3 : v, ms ? "ms" : "µs");
		break;
	case SVG_SECONDS:
		snprintf(buf, size, "%.*f s", s->log ? 3 : decimals(s->step), v);
		break;
	case SVG_PERCENT:
		snprintf(buf, size, "%.*f %%", s->log ? 1 : decimals(s->step), v);
		break;
	}
}

/*
 * An axis of @s along x at row @at (@vertical: along y at column @at),
 * its grid across to @grid_to, its ticks and their labels outside it.
 */
static void axis(FILE *f, const struct svg_scale *s, bool vertical,
		 double at, double grid_to, const char *title)
{
	double t[32], p, tx, ty, out = vertical ? -1 : 1;
	size_t i, n = svg_ticks(s, t, 32);
	char buf[64];

	fprintf(f, "<g class=\"axis axis-%s\">\n", vertical ? "y" : "x");
	for (i = 0; i < n; i++) {
		p = svg_pos(s, t[i]);
		svg_value(s, t[i], buf, sizeof(buf));
		/* The grid lies inside the plot: above an x axis, right of a y. */
		if ((grid_to - at) * out < 0)
			fprintf(f, "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#e4e4e4\"/>\n",
				vertical ? at : p, vertical ? p : at,
				vertical ? grid_to : p, vertical ? p : grid_to);
		tx = vertical ? at - 8 : p;
		ty = vertical ? p + 4 : at + 17;
		fprintf(f, "<line class=\"tick\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#444\"/>"
			"<text class=\"tick-label\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">%s</text>\n",
			vertical ? at - 5 : p, vertical ? p : at, vertical ? at : p,
			vertical ? p : at + 5, tx, ty, vertical ? "end" : "middle", buf);
	}
	fprintf(f, "<line class=\"axis-line\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#444\"/>\n",
		vertical ? at : s->p0, vertical ? s->p0 : at,
		vertical ? at : s->p1, vertical ? s->p1 : at);
	/* A y axis' title turned to read bottom up, left of its tick labels. */
	if (vertical)
		snprintf(buf, sizeof(buf), "transform=\"translate(%.1f,%.1f) rotate(-90)\"",
			 at - 58, (s->p0 + s->p1) / 2);
	else
		snprintf(buf, sizeof(buf), "x=\"%.1f\" y=\"%.1f\"",
			 (s->p0 + s->p1) / 2, at + 33);
	fprintf(f, "<text class=\"axis-title\" %s text-anchor=\"middle\">", buf);
	html_escape(f, title);
	fputs("</text>\n</g>\n", f);
}

void svg_axis_x(FILE *f, const struct svg_scale *s, double y, double top,
		const char *title)
{
	axis(f, s, false, y, top, title);
}

void svg_axis_y(FILE *f, const struct svg_scale *s, double x, double right,
		const char *title)
{
	axis(f, s, true, x, right, title);
}

void svg_legend_item(FILE *f, double x, double y, const char *colour,
		     enum svg_swatch swatch, const char *label)
{
	bool line = swatch != SVG_SWATCH_BOX;

	fputs("<g class=\"legend-item\">", f);
	if (line)
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"%s\"%s/>",
			x, y - 4, x + 18, y - 4, colour,
			swatch == SVG_SWATCH_DASHED ? "1.5" : "3",
			swatch == SVG_SWATCH_DASHED ?
			" stroke-dasharray=\"4 3\"" : "");
	else
		fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"12\" height=\"12\" fill=\"%s\"/>",
			x, y - 10, colour);
	fprintf(f, "<text class=\"legend-label\" x=\"%.1f\" y=\"%.1f\">",
		x + (line ? 24 : 18), y);
	html_escape(f, label);
	fputs("</text></g>\n", f);
}
