// SPDX-License-Identifier: GPL-2.0
/*
 * A program for test_agent_run to start with the agent: it runs
 * agent-cmd.c's commands when told, over stdin ("run FROM TO", "quit"),
 * answering "ready" at start and "done SUM" after each run, so that the
 * test can turn the agent on and off between runs and check that the
 * results are the same; "spawn" runs a shell that prints its environment
 * and its open descriptors (what a program the agent's process starts
 * inherits), then "done 0".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent-cmd.h"

int main(void)
{
	unsigned int from, to, i;
	uint64_t sum;
	char line[128];
	struct tcmd c;

	setvbuf(stdout, NULL, _IOLBF, 0);
	puts("ready");
	while (fgets(line, sizeof(line), stdin)) {
		if (!strncmp(line, "quit", 4))
			break;
		if (!strncmp(line, "spawn", 5)) {
			fflush(stdout);
			if (system("env; ls -l /proc/self/fd/"))
				puts("spawn failed");
			puts("done 0");
			continue;
		}
		if (sscanf(line, "run %u %u", &from, &to) != 2)
			continue;
		sum = 0;
		for (i = from; i < to; i++) {
			tcmd_make(&c, i);
			sum += tcmd_begin(&c);
			sum += tcmd_work(&c);
			sum += tcmd_end(&c);
		}
		printf("done %llu\n", (unsigned long long)sum);
	}
	return 0;
}
