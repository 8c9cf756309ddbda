// SPDX-License-Identifier: GPL-2.0
/*
 * ntprof status: is the module there, what is it doing, and which NVMe-oF
 * modules does it see. The first thing to run when something looks off.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uapi/linux/ntprof.h>

#include "conn.h"
#include "subcommands.h"

struct status_module {
	char *name;
	uint32_t role;
	uint32_t transport;
	uint32_t present;
};

struct status {
	char *version;
	char *release;
	uint32_t state;
	struct status_module *modules;
	size_t nr_modules;
	int replies;
};

static const enum mnl_attr_data_type status_policy[NTPROF_A_STATUS_MAX + 1] = {
	[NTPROF_A_STATUS_VERSION] = MNL_TYPE_NUL_STRING,
	[NTPROF_A_STATUS_STATE] = MNL_TYPE_U32,
	[NTPROF_A_STATUS_KERNEL_RELEASE] = MNL_TYPE_NUL_STRING,
	[NTPROF_A_STATUS_MODULE] = MNL_TYPE_NESTED,
};

static const enum mnl_attr_data_type module_policy[NTPROF_A_MODULE_MAX + 1] = {
	[NTPROF_A_MODULE_NAME] = MNL_TYPE_NUL_STRING,
	[NTPROF_A_MODULE_ROLE] = MNL_TYPE_U32,
	[NTPROF_A_MODULE_TRANSPORT] = MNL_TYPE_U32,
	[NTPROF_A_MODULE_PRESENT] = MNL_TYPE_U32,
};

static void status_usage(FILE *f)
{
	fputs("usage: ntprof status [-h]\n"
	      "\n"
	      "Show the ntprof module's version and state, the running kernel, and\n"
	      "which NVMe-oF host and target modules are loaded.\n"
	      "\n"
	      "options:\n"
	      "  -h, --help   show this help and exit\n"
	      "\n"
	      "examples:\n"
	      "  ntprof status\n"
	      "      Check that the module is loaded and idle, and that the\n"
	      "      transport you want to profile (tcp, rdma) is present.\n",
	      f);
}

static const char *state_name(uint32_t state, char *buf, size_t size)
{
	switch (state) {
	case NTPROF_STATE_IDLE:
		return "idle";
	case NTPROF_STATE_RECORDING:
		return "recording";
	}
	/* A newer module: show the number rather than guess. */
	snprintf(buf, size, "state %u", state);
	return buf;
}

static const char *role_name(uint32_t role)
{
	switch (role) {
	case NTPROF_ROLE_HOST:
		return "host";
	case NTPROF_ROLE_TARGET:
		return "target";
	}
	return "-";
}

static const char *transport_name(uint32_t transport)
{
	switch (transport) {
	case NTPROF_TRANSPORT_NONE:
		return NULL;
	case NTPROF_TRANSPORT_TCP:
		return "tcp";
	case NTPROF_TRANSPORT_RDMA:
		return "rdma";
	}
	return "unknown";
}

static const char *present_name(uint32_t present)
{
	return present ? "present" : "absent";
}

static int status_add_module(struct status *st, const struct nlattr *nest)
{
	const struct nlattr *tb[NTPROF_A_MODULE_MAX + 1];
	struct status_module *mods, *mod;
	int err;

	err = nl_parse_nested(nest, module_policy, tb, NTPROF_A_MODULE_MAX);
	if (err)
		return err;
	if (!tb[NTPROF_A_MODULE_NAME])
		return -EPROTO;

	mods = realloc(st->modules, (st->nr_modules + 1) * sizeof(*mods));
	if (!mods)
		return -ENOMEM;
	st->modules = mods;
	mod = &mods[st->nr_modules];
	memset(mod, 0, sizeof(*mod));
	mod->name = strdup(mnl_attr_get_str(tb[NTPROF_A_MODULE_NAME]));
	if (!mod->name)
		return -ENOMEM;
	st->nr_modules++;
	if (tb[NTPROF_A_MODULE_ROLE])
		mod->role = mnl_attr_get_u32(tb[NTPROF_A_MODULE_ROLE]);
	if (tb[NTPROF_A_MODULE_TRANSPORT])
		mod->transport = mnl_attr_get_u32(tb[NTPROF_A_MODULE_TRANSPORT]);
	if (tb[NTPROF_A_MODULE_PRESENT])
		mod->present = mnl_attr_get_u32(tb[NTPROF_A_MODULE_PRESENT]);
	return 0;
}

/* Copies a string attribute, if the kernel sent it. */
static int status_strdup(char **dst, const struct nlattr *attr)
{
	if (!attr)
		return 0;
	*dst = strdup(mnl_attr_get_str(attr));
	return *dst ? 0 : -ENOMEM;
}

static int status_fill(struct status *st, const struct nlmsghdr *nlh)
{
	const struct nlattr *tb[NTPROF_A_STATUS_MAX + 1];
	const struct nlattr *attr;
	int err;

	/* STATUS_GET is a "do": a second reply would be a kernel bug. */
	if (st->replies++)
		return -EPROTO;
	err = nl_parse(nlh, status_policy, tb, NTPROF_A_STATUS_MAX);
	if (!err)
		err = status_strdup(&st->version, tb[NTPROF_A_STATUS_VERSION]);
	if (!err)
		err = status_strdup(&st->release,
				    tb[NTPROF_A_STATUS_KERNEL_RELEASE]);
	if (err)
		return err;
	if (tb[NTPROF_A_STATUS_STATE])
		st->state = mnl_attr_get_u32(tb[NTPROF_A_STATUS_STATE]);

	/* nl_parse() kept only the last module: walk them all. */
	nl_attr_for_each(attr, nlh) {
		if (mnl_attr_get_type(attr) != NTPROF_A_STATUS_MODULE)
			continue;
		err = status_add_module(st, attr);
		if (err)
			return err;
	}
	return 0;
}

static int status_reply(const struct nlmsghdr *nlh, void *data)
{
	int err = status_fill(data, nlh);

	if (err) {
		errno = -err;
		return MNL_CB_ERROR;
	}
	return MNL_CB_OK;
}

static void status_free(struct status *st)
{
	size_t i;

	for (i = 0; i < st->nr_modules; i++)
		free(st->modules[i].name);
	free(st->modules);
	free(st->version);
	free(st->release);
}

static void status_print(const struct status *st)
{
	const struct status_module *mod;
	const char *transport;
	char buf[32];
	int width = 0;
	size_t i;

	printf("ntprof module %s, %s, kernel %s\n",
	       st->version ?: "(unknown version)",
	       state_name(st->state, buf, sizeof(buf)),
	       st->release ?: "(unknown)");

	if (!st->nr_modules) {
		puts("nvme modules: none reported");
		return;
	}
	for (i = 0; i < st->nr_modules; i++)
		if ((int)strlen(st->modules[i].name) > width)
			width = strlen(st->modules[i].name);

	puts("nvme modules:");
	for (i = 0; i < st->nr_modules; i++) {
		mod = &st->modules[i];
		transport = transport_name(mod->transport);
		printf("  %-6s  %-*s  ", role_name(mod->role), width, mod->name);
		if (transport)
			printf("%-7s  (%s)\n", present_name(mod->present),
			       transport);
		else
			printf("%s\n", present_name(mod->present));
	}
}

int cmd_status(int argc, char *argv[])
{
	static const struct option options[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct status st = { 0 };
	struct nl_sock *sock;
	int err, c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", options, NULL)) != -1) {
		switch (c) {
		case 'h':
			status_usage(stdout);
			return 0;
		default:
			return option_error(argv[0], c, argv);
		}
	}
	if (optind < argc)
		return usage_error(argv[0], "unexpected argument '%s'",
				   argv[optind]);

	if (ntprof_connect(argv[0], &sock))
		return 1;
	err = nl_request(sock, NTPROF_CMD_STATUS_GET, 0, NULL, status_reply,
			 &st);
	/* An ACK alone would leave us nothing to show. */
	if (!err && !st.replies)
		err = -EPROTO;
	if (err)
		nl_perror(sock, argv[0], err);
	else
		status_print(&st);
	status_free(&st);
	nl_close(sock);
	return err ? 1 : 0;
}
