/* SPDX-License-Identifier: GPL-2.0 */
/* The JSON writer of the --json outputs (json.c). */
#ifndef NTPROF_JSON_H
#define NTPROF_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/*
 * A minimal JSON writer: objects and arrays nest up to JSON_DEPTH deep;
 * @key is NULL inside arrays and for the outermost value. Not-a-number
 * becomes null. Output is indented, one member per line.
 */
#define NTPROF_JSON_DEPTH	16

struct ntprof_json {
	FILE *f;
	int depth;
	bool first[NTPROF_JSON_DEPTH];
};

void ntprof_json_init(struct ntprof_json *js, FILE *f);
void ntprof_json_obj_start(struct ntprof_json *js, const char *key);
void ntprof_json_obj_end(struct ntprof_json *js);
void ntprof_json_arr_start(struct ntprof_json *js, const char *key);
void ntprof_json_arr_end(struct ntprof_json *js);
void ntprof_json_str(struct ntprof_json *js, const char *key,
		     const char *val);
void ntprof_json_u64(struct ntprof_json *js, const char *key, uint64_t val);
void ntprof_json_i64(struct ntprof_json *js, const char *key, int64_t val);
/* @val with @prec decimals. */
void ntprof_json_num(struct ntprof_json *js, const char *key, double val,
		     int prec);
void ntprof_json_bool(struct ntprof_json *js, const char *key, bool val);

#endif /* NTPROF_JSON_H */
