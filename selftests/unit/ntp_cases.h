/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The cases of test_ntp that live in files of their own, for the table of
 * cases in test_ntp.c: ntp_v1.c builds files of format 1.x, ntp_damaged.c
 * damages a good file in every way that the reader must refuse.
 */
#ifndef NTPROF_SELFTESTS_NTP_CASES_H
#define NTPROF_SELFTESTS_NTP_CASES_H

/* ntp_v1.c */
void test_layout(void);
void test_newer_minor(void);
void test_minor_three(void);
void test_minor_zero(void);

/* ntp_damaged.c */
void test_damaged(void);
void test_damaged_1x(void);

#endif /* NTPROF_SELFTESTS_NTP_CASES_H */
