// SPDX-License-Identifier: GPL-2.0
/*
 * A stranger's process beside an SPDK program, for the recorder's
 * checks of an agent's memory (selftests/unit/test_agent_stranger.sh):
 * anyone may name a memfd "ntprof-agent", map a world-readable binary,
 * or run it with a descriptor of their own open. None of these makes a
 * process an agent that root's recorder may map.
 *
 *   agent-stranger map BIN             maps BIN and holds an empty memfd
 *                                      named "ntprof-agent" (not running
 *                                      BIN); prints "ready", then sleeps
 *   agent-stranger KIND PROG [ARG]...  makes a memfd "ntprof-agent" of
 *                                      KIND, left open across exec, and
 *                                      runs PROG with it
 *
 * KIND: empty (0 bytes, no seal); unsealed (an agent's size and header,
 * no seal); size (sealed, a page short); uid (sealed, its header, made
 * as root, then the process drops to uid and gid 65534 before it runs
 * PROG); on (sealed, its header, on for a recorder forever); nomagic
 * (sealed, the right size, never published); mover (sealed, its header,
 * every ring claimed; a child of its own keeps each ring's head a whole
 * ring ahead of its tail, with empty records).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <ntprof/agent_abi.h>

static int die(const char *what)
{
	fprintf(stderr, "agent-stranger: %s: %s\n", what, strerror(errno));
	return 1;
}

/* An agent's header, published, off (or on forever with @on). */
static void header(struct agent_shm_ctl *ctl, int on)
{
	ctl->version = AGENT_SHM_VERSION;
	ctl->magic = AGENT_SHM_MAGIC;
	if (on) {
		ctl->deadline = UINT64_MAX;
		ctl->sample = 1;
	}
}

/*
 * The mover's child: every ring always full of empty records. It spins
 * while a recorder takes them (a tail moved in the last 10 ms), so that
 * the rings are full again before the recorder looks again (it would
 * have to find all 64 empty at once to stop), and sleeps a millisecond
 * at a time otherwise.
 */
static void move(void *base, pid_t parent)
{
	struct timespec ms = { 0, 1000 * 1000 }, now, moved = { 0, 0 };
	struct agent_shm_ring *ring;
	uint64_t tail, seen[AGENT_RINGS_MAX] = { 0 };
	unsigned int r;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(0);
	for (;;) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		for (r = 0; r < AGENT_RINGS_MAX; r++) {
			ring = agent_shm_ring(base, r);
			tail = __atomic_load_n(&ring->tail, __ATOMIC_ACQUIRE);
			__atomic_store_n(&ring->head, tail + AGENT_RING_RECORDS,
					 __ATOMIC_RELEASE);
			if (tail != seen[r]) {
				seen[r] = tail;
				moved = now;
			}
		}
		if ((now.tv_sec - moved.tv_sec) * 1000000000LL +
		    now.tv_nsec - moved.tv_nsec > 10000000LL)
			nanosleep(&ms, NULL);
	}
}

static int make(const char *kind)
{
	unsigned int flags = strcmp(kind, "empty") ? MFD_ALLOW_SEALING : 0;
	size_t size = AGENT_SHM_SIZE;
	pid_t parent = getpid();
	void *p;
	int fd;

	/* Left open across exec: the program runs with it. */
	fd = memfd_create("ntprof-agent", flags);
	if (fd < 0)
		return -1;
	if (!strcmp(kind, "empty"))
		return 0;
	if (!strcmp(kind, "size"))
		size -= AGENT_PAGE;
	if (ftruncate(fd, size))
		return -1;
	p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		return -1;
	if (strcmp(kind, "nomagic"))
		header(p, !strcmp(kind, "on"));
	if (strcmp(kind, "unsealed") &&
	    fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW))
		return -1;
	if (!strcmp(kind, "mover")) {
		((struct agent_shm_ctl *)p)->rings_claimed = AGENT_RINGS_MAX;
		if (fork() == 0)
			move(p, parent);
	}
	munmap(p, size);
	if (!strcmp(kind, "uid") &&
	    (setgroups(0, NULL) || setresgid(65534, 65534, 65534) ||
	     setresuid(65534, 65534, 65534)))
		return -1;
	return 0;
}

int main(int argc, char *argv[])
{
	struct stat st;
	int fd;

	if (argc == 3 && !strcmp(argv[1], "map")) {
		fd = open(argv[2], O_RDONLY);
		if (fd < 0 || fstat(fd, &st) ||
		    mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0) ==
		    MAP_FAILED || memfd_create("ntprof-agent", 0) < 0)
			return die(argv[2]);
		puts("ready");
		fflush(stdout);
		for (;;)
			pause();
	}
	if (argc < 3) {
		fputs("usage: agent-stranger map BIN | agent-stranger KIND PROG [ARG]...\n",
		      stderr);
		return 2;
	}
	if (make(argv[1]))
		return die(argv[1]);
	execv(argv[2], argv + 2);
	return die(argv[2]);
}
