/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A run as 'report' and 'compare' see it: the .ntp files of its hosts and
 * targets read into memory, checked against each other, the host records
 * joined to the target records, and the analysis made of them.
 */
#ifndef NTPROF_RECORDING_H
#define NTPROF_RECORDING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "analysis/analysis.h"
#include "analysis/join.h"
#include "ntp/ntp.h"

struct ntprof_chain;
struct ntprof_tries;

/* A file of a recording: the recording's, or one of its parts. */
struct recording_part {
	const char *path;
	struct ntp_file *file;
	const struct ntp_header *hdr;
};

/*
 * One recording, whole: a file, or the parts of a rotated recording
 * (record --rotate) in the order of their numbers, read as one.
 */
struct recording {
	const char *path;		/* the (first) part's */
	/*
	 * The last part with a trailer (else the last): its header is the
	 * session's, as every part's, and its trailer names the devices and
	 * hooks found after the start, as many as were known at its end.
	 */
	struct ntp_file *file;
	const struct ntp_header *hdr;
	struct recording_part *parts;	/* at least one */
	size_t nr_parts;
	uint32_t missing_parts;		/* numbers missing between two parts */
	struct ntprof_record *recs;
	size_t n;
	bool cut_short;			/* no trailer: the writer was killed */
	uint64_t discarded;		/* bytes after its last whole block */
	uint64_t drops;			/* from the trailer */
	uint64_t evictions;
	uint64_t duration_ns;		/* start to end (or last point) */
	/* Its machine, of run.machines; 0 on the side not grouped. */
	uint16_t machine;
	/* Host files: per record, its target file and record, or none. */
	uint32_t *match_file;
	uint32_t *match_idx;
	/* Target files: per record, whether a host record took it. */
	uint8_t *taken;
	/*
	 * Host files: per record, the tries of a command that waited
	 * through an outage (analysis/attempts.h), or NULL: none.
	 */
	struct ntprof_tries *tries;
	/*
	 * A middle's host side (chain.h): its records are legs of the
	 * origin commands, never origin commands of their own.
	 */
	bool leg;
};

/* The joins of one host file with one target file. */
struct recording_pair {
	size_t host;			/* indexes into run.files */
	size_t target;
	struct ntprof_join join;
};

/*
 * The failed commands outside the sample: a recorder keeps every failed
 * command (NTPROF_REC_F_FAILED without _SAMPLED), which would skew the
 * numbers of the sampled ones. They are kept out, and counted here.
 */
#define RECORDING_STATUSES	4
struct recording_failed {
	uint64_t n;
	uint64_t n_unmatched;		/* host records without a target's */
	uint64_t n_latency;		/* with the points for an end to end */
	double latency_sum_ns;
	uint16_t status[RECORDING_STATUSES];	/* the first distinct ones */
	uint64_t status_n[RECORDING_STATUSES];
	uint64_t other_status_n;
	/* Aborted commands (ntprof_record_aborted()) only: */
	uint64_t n_requeued;		/* sent again in another command */
	uint64_t n_sampled;		/* of the sample */
	/*
	 * Linked to the try that sent their I/O again (analysis/attempts.h),
	 * and the commands whose last try completed after such tries.
	 */
	uint64_t n_linked;
	uint64_t n_outage;
};

/*
 * recording_is_host() - tell whether @rec is a host's recording (if not,
 * it is a target's).
 */
static inline bool recording_is_host(const struct recording *rec)
{
	return rec->hdr->role == NTPROF_ROLE_HOST;
}

/*
 * recording_exports() - tell whether target header @t has a controller of
 * subsystem @nqn.
 */
bool recording_exports(const struct ntp_header *t, const char *nqn);

/* The paths given, each directory replaced by its .ntp files. */
struct recording_paths {
	char **v;
	size_t n;
	size_t cap;
};

/* Whether report streams through the recordings (recording_stream.c). */
enum recording_stream {
	RECORDING_STREAM_AUTO,	/* when the files are large (and can) */
	RECORDING_STREAM_ALWAYS,	/* whenever the run's shape allows */
	RECORDING_STREAM_NEVER,
};

/**
 * struct recording_opts - how recording_run_load_opts() loads a run
 * @by: the parts the groups are made by (NTPROF_BY_*, 0: the default)
 * @stream: whether the join streams through the files (report's --stream
 *	and --load)
 */
struct recording_opts {
	unsigned int by;
	enum recording_stream stream;
};

struct recording_run {
	struct recording_paths paths;
	/*
	 * Streamed: the records were never held; a view of each command
	 * (report_rows_each()) streams through the files again.
	 */
	bool streamed;
	unsigned int by;
	struct recording *files;
	size_t nr_files;
	size_t nr_host_files;
	size_t nr_target_files;
	uint32_t sample;
	struct recording_pair *pairs;
	size_t nr_pairs;
	/* The joins summed: what JSON's "join" and the records line show. */
	struct ntprof_join total;
	uint64_t nr_host;
	uint64_t nr_target;
	uint64_t matched;
	struct ntprof_devname *host_devs;
	size_t nr_host_devs;
	struct ntprof_pathname *host_paths;
	size_t nr_host_paths;
	struct ntprof_devname *target_devs;
	size_t nr_target_devs;
	/*
	 * The machines of the side the groups are made of (the hosts', else
	 * the targets'): each hostname and boot once, in the files' order.
	 */
	struct ntprof_machine *machines;
	size_t nr_machines;
	struct ntprof_analysis *an;
	struct recording_failed failed;
	/* The host's attempts that did not complete, sampled or not. */
	struct recording_failed aborted;
	/* NULL, or the chains a middle's recordings make (chain.h). */
	struct ntprof_chain *chain;
};

/*
 * recording_run_load() - read @paths (at least one), check that they can
 * be reported together (each is a host or a target recording, all with
 * the same N), join every host file with every target file of its
 * transport, and finish the analysis, with its groups made by @by
 * (NTPROF_BY_*, 0 for the default). It returns 0, or 1 after printing a
 * one-line error for @cmd on stderr. The caller frees @run with
 * recording_run_free() in any case.
 */
int recording_run_load(struct recording_run *run, const char *cmd,
		       char *const paths[], size_t nr_paths, unsigned int by);
/* recording_run_load() - the same, with every setting in @o. */
int recording_run_load_opts(struct recording_run *run, const char *cmd,
			    char *const paths[], size_t nr_paths,
			    const struct recording_opts *o);
void recording_run_free(struct recording_run *run);

/* Internal, for recording_stream.c. */
/*
 * recording_run_add() - add one command to the run's analysis: to the
 * sample, or to the failed commands.
 */
int recording_run_add(struct recording_run *run, uint8_t role,
		      const struct ntprof_record *r,
		      const struct ntprof_record *t);
/*
 * recording_analysis_begin() - create the run's analysis, empty, with the
 * devices' names known so far. It returns 0 or -ENOMEM.
 */
int recording_analysis_begin(struct recording_run *run, unsigned int by);
/* recording_last_point() - return the latest point of @n records. */
uint64_t recording_last_point(const struct ntprof_record *r, size_t n);
/*
 * recording_read_done() - once the records are read, choose the file
 * whose header and trailer the notes use (the last part that has a
 * trailer), and set the recording's length.
 */
void recording_read_done(struct recording *rec, uint64_t last_point);

/* recording_attempts.c */
struct ntprof_attempts;
/*
 * recording_attempts() - link the aborted tries of host recording @rec of
 * @run to their next tries (ntprof_attempts_link()), with the names of
 * its namespaces and controllers and its control-path events. It returns
 * 0 or -ENOMEM; the caller frees @out->of.
 */
int recording_attempts(const struct recording_run *run,
		       const struct recording *rec,
		       struct ntprof_attempts *out);

/* recording_join.c */
/*
 * recording_join_all() - join every host file of @run with every target
 * file of its transports, and give each host record its target record
 * (match_file, match_idx) when one matched. It returns 0, or 1 after a
 * message for @cmd.
 */
int recording_join_all(struct recording_run *run, const char *cmd);
/*
 * recording_join_total() - fill run.total with the sum of the joins'
 * counts and the first pair's clocks.
 */
void recording_join_total(struct recording_run *run);

/* recording_stream.c */
/*
 * recording_stream_wanted() - tell whether @run is to be streamed: it is
 * when its shape allows streaming and @mode asks for it.
 */
bool recording_stream_wanted(const struct recording_run *run,
			     enum recording_stream mode);
/*
 * recording_stream_load() - stream @run's join into its analysis. It
 * returns 0, or 1 after a message.
 */
int recording_stream_load(struct recording_run *run, const char *cmd,
			  unsigned int by);
/*
 * recording_stream_each() - go through each command of a streamed run
 * again, in the order of the first pass.
 */
int recording_stream_each(const struct recording_run *run,
			  int (*fn)(const struct ntprof_record *host,
				    const struct ntprof_record *target,
				    const struct recording *hrec,
				    const struct recording *trec, void *arg),
			  void *arg);

/* recording_machines.c */
/*
 * recording_machines() - put the machines of the side that the groups are
 * made of in run.machines, and each file in its machine. It returns 0, or
 * 1 after a message.
 */
int recording_machines(struct recording_run *run, const char *cmd);
void recording_machines_free(struct recording_run *run);

/* recording_parts.c */
/*
 * recording_paths_expand() - copy @paths into @p, with each directory
 * replaced by its .ntp files, sorted by name. It returns 0, or 1 after a
 * message. The caller frees @p with recording_paths_free() in any case.
 */
int recording_paths_expand(struct recording_paths *p, const char *cmd,
			   char *const paths[], size_t nr_paths);
void recording_paths_free(struct recording_paths *p);
/*
 * recording_same_session() - tell whether two files are parts of one
 * rotated recording.
 */
bool recording_same_session(const struct ntp_header *a,
			    const struct ntp_header *b);
/*
 * recording_copy_of() - tell whether two whole recordings (not parts) are
 * of one session, that is, whether one is a copy of the other under
 * another name, whose records would count twice.
 */
bool recording_copy_of(const struct ntp_header *a, const struct ntp_header *b);
/*
 * recording_parts_order() - sort @rec's parts by number, and make the
 * first part's path the recording's path. It returns 0, or 1 after a
 * message.
 */
int recording_parts_order(struct recording *rec, const char *cmd);
/*
 * recording_parts_read() - read the records of @rec's parts into one
 * array and sum their trailers. It returns 0, or 1 after a message.
 */
int recording_parts_read(struct recording *rec, const char *cmd);

#endif /* NTPROF_RECORDING_H */
