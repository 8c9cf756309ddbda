/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The subcommands main.c dispatches to. Each gets its own argv, with its
 * name in argv[0], and returns the process's exit status.
 */
#ifndef NTPROF_COMMANDS_H
#define NTPROF_COMMANDS_H

int cmd_status(int argc, char *argv[]);
int cmd_probe(int argc, char *argv[]);
int cmd_record(int argc, char *argv[]);
int cmd_report(int argc, char *argv[]);
int cmd_compare(int argc, char *argv[]);
int cmd_run(int argc, char *argv[]);

/* This tool's version, for what it writes into recordings. */
extern const char ntprof_version[];

#endif /* NTPROF_COMMANDS_H */
