// SPDX-License-Identifier: GPL-2.0
/*
 * The test client's session holder. A session belongs to the netlink
 * socket that started it: only that socket drains or stops it, and it
 * stops when that socket closes (Documentation/security.rst). The lab's
 * scripts start, drain and stop a session from separate testclient
 * runs, so the first start forks a holder that keeps one bound socket
 * open and hands it to each later run over an abstract unix socket
 * (SCM_RIGHTS): every run speaks with the same port id. Killing the
 * holder ("testclient release") closes the socket, as the death of a
 * recorder would.
 */
#define _GNU_SOURCE	/* accept4() */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>
#include <linux/netlink.h>

#include "holder.h"

#define HOLDER_NAME	"ntprof-testclient"

/* The holder's address, in the abstract namespace: nothing to clean up. */
static socklen_t holder_addr(struct sockaddr_un *sa)
{
	memset(sa, 0, sizeof(*sa));
	sa->sun_family = AF_UNIX;
	memcpy(sa->sun_path + 1, HOLDER_NAME, strlen(HOLDER_NAME));
	return offsetof(struct sockaddr_un, sun_path) + 1 + strlen(HOLDER_NAME);
}

int holder_get(pid_t *pid)
{
	char cbuf[CMSG_SPACE(sizeof(int))];
	struct sockaddr_un sa;
	struct cmsghdr *cm;
	pid_t holder;
	struct iovec iov = { .iov_base = &holder, .iov_len = sizeof(holder) };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
	};
	int s, fd = -1;

	s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (s < 0)
		return -1;
	if (connect(s, (struct sockaddr *)&sa, holder_addr(&sa)) ||
	    recvmsg(s, &msg, MSG_CMSG_CLOEXEC) != sizeof(holder))
		goto out;
	cm = CMSG_FIRSTHDR(&msg);
	if (cm && cm->cmsg_level == SOL_SOCKET && cm->cmsg_type == SCM_RIGHTS)
		memcpy(&fd, CMSG_DATA(cm), sizeof(fd));
	if (pid)
		*pid = holder;
out:
	close(s);
	return fd;
}

/* The holder: hands @nlfd to whoever connects, until it is killed. */
static void holder_serve(int listener, int nlfd)
{
	char cbuf[CMSG_SPACE(sizeof(int))] = { 0 };
	/* Its pid with the socket: the listener's peer is its parent. */
	pid_t self = getpid();
	struct iovec iov = { .iov_base = &self, .iov_len = sizeof(self) };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
	};
	struct cmsghdr *cm = CMSG_FIRSTHDR(&msg);
	int c;

	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cm), &nlfd, sizeof(nlfd));
	for (;;) {
		c = accept4(listener, NULL, NULL, SOCK_CLOEXEC);
		if (c < 0)
			continue;
		if (sendmsg(c, &msg, MSG_NOSIGNAL) < 0)
			perror("testclient holder: sendmsg");
		close(c);
	}
}

int holder_start(void)
{
	struct sockaddr_nl nl = { .nl_family = AF_NETLINK };
	struct sockaddr_un sa;
	int nlfd, listener, devnull, err, i;
	pid_t pid;

	/* Bound here: the runs it is handed to all share its port id. */
	nlfd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (nlfd < 0)
		return -errno;
	if (bind(nlfd, (struct sockaddr *)&nl, sizeof(nl))) {
		err = -errno;
		close(nlfd);
		return err;
	}
	listener = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (listener < 0 ||
	    bind(listener, (struct sockaddr *)&sa, holder_addr(&sa)) ||
	    listen(listener, 16)) {
		/* EADDRINUSE: another run's holder came first. */
		err = errno == EADDRINUSE ? 0 : -errno;
		goto out;
	}
	pid = fork();
	if (pid < 0) {
		err = -errno;
		goto out;
	}
	if (pid == 0) {
		/* Nothing of the caller's: a $(...) around it must end. */
		setsid();
		devnull = open("/dev/null", O_RDWR);
		if (devnull >= 0) {
			dup2(devnull, 0);
			dup2(devnull, 1);
			dup2(devnull, 2);
		}
		for (i = 3; i < 1024; i++)
			if (i != listener && i != nlfd)
				close(i);
		signal(SIGPIPE, SIG_IGN);
		holder_serve(listener, nlfd);
		_exit(0);
	}
	err = 0;
out:
	if (listener >= 0)
		close(listener);
	close(nlfd);
	return err;
}

int holder_release(void)
{
	struct timespec ts = { .tv_nsec = 10 * 1000 * 1000 };
	pid_t pid = 0;
	int fd, i;

	fd = holder_get(&pid);
	if (fd < 0)
		return 0;
	close(fd);
	if (pid <= 0 || kill(pid, SIGKILL))
		return -ESRCH;
	/* Gone when its address is free again: then its socket is closed. */
	for (i = 0; i < 500; i++) {
		fd = holder_get(NULL);
		if (fd < 0)
			return 0;
		close(fd);
		nanosleep(&ts, NULL);
	}
	return -ETIMEDOUT;
}
