// SPDX-License-Identifier: GPL-2.0
/*
 * What a recording's header names of this machine, read when it starts:
 * the block devices of the records (with native NVMe multipath's hidden
 * path disks, which only /proc/diskstats lists) and the NVMe-oF
 * controllers, the host's from sysfs and the target's from nvmet's
 * configfs.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "cmd/record/record.h"
#include "common/names.h"

/*
 * dev_encode() - encode a device number as the kernel's new_encode_dev()
 * does, which is how ntprof_record.dev carries it.
 */
uint32_t dev_encode(unsigned int maj, unsigned int min)
{
	return (min & 0xff) | (maj << 8) | ((min & ~0xffU) << 12);
}

/*
 * diskstats_find() - find the device number of a block device by its name in
 * /proc/diskstats. That file is the one place that has the numbers of the
 * hidden path disks of native NVMe multipath (nvme0c0n1), which sysfs lists
 * without a dev attribute.
 */
int diskstats_find(const char *name, unsigned int *maj,
			  unsigned int *min)
{
	FILE *f = fopen("/proc/diskstats", "r");
	unsigned int a, b;
	char *line = NULL;
	size_t size = 0;
	int n, ret = -ENOENT;

	if (!f)
		return -errno;
	while (ret && getline(&line, &size, f) > 0) {
		n = 0;
		if (sscanf(line, "%u %u %n", &a, &b, &n) != 2 || !n)
			continue;
		if (!strncmp(line + n, name, strlen(name)) &&
		    line[n + strlen(name)] == ' ') {
			*maj = a;
			*min = b;
			ret = 0;
		}
	}
	free(line);
	fclose(f);
	return ret;
}

/* Device names */

/*
 * mpath_head() - find the head of a hidden path disk of native NVMe
 * multipath: nvmeXcYnZ is the path through controller nvmeY to namespace
 * nvmeXnZ (the kernel names both so). It returns 0 and the head's name if
 * the head is there.
 */
static int mpath_head(const char *name, char *head, size_t size)
{
	unsigned int x, y, z;
	char path[192];
	int n = 0;

	if (strncmp(name, "nvme", 4) || name[4] < '0' || name[4] > '9' ||
	    sscanf(name, "nvme%uc%un%u%n", &x, &y, &z, &n) != 3 || name[n])
		return -ENOENT;
	snprintf(head, size, "nvme%un%u", x, z);
	snprintf(path, sizeof(path), "/sys/block/%s", head);
	return access(path, F_OK) ? -ENOENT : 0;
}

/*
 * devs_gather() - build the device table of a recording of @role from
 * /proc/diskstats, the one list with the numbers of the hidden path disks.
 * On a host, it lists the NVMe namespaces, each path disk named after its
 * head, since that is the name users know (lsblk, nvme list). On a target,
 * it lists every whole disk, since a backing device can be anything.
 * Partitions never carry records. It returns the count; the caller frees
 * *tab, which is NULL if there are none or memory is short.
 */
size_t devs_gather(uint32_t role, struct ntp_dev **tab)
{
	FILE *f = fopen("/proc/diskstats", "r");
	struct ntp_dev *v = NULL, *nv;
	size_t n = 0, cap = 0, size = 0;
	char *line = NULL, path[192];
	unsigned int maj, min;
	char name[128];

	*tab = NULL;
	if (!f)
		return 0;
	while (n < NTP_DEVS_MAX && getline(&line, &size, f) > 0) {
		if (sscanf(line, "%u %u %127s", &maj, &min, name) != 3 ||
		    strlen(name) > NTP_DEV_NAME_MAX)
			continue;
		if (role == NTPROF_ROLE_HOST && strncmp(name, "nvme", 4))
			continue;
		snprintf(path, sizeof(path), "/sys/class/block/%s/partition",
			 name);
		if (!access(path, F_OK))
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 32;
			nv = realloc(v, cap * sizeof(*v));
			if (!nv)
				break;
			v = nv;
		}
		memset(&v[n], 0, sizeof(v[n]));
		v[n].dev = dev_encode(maj, min);
		if (mpath_head(name, v[n].name, sizeof(v[n].name)))
			memcpy(v[n].name, name, strlen(name) + 1);
		n++;
	}
	free(line);
	fclose(f);
	*tab = v;
	return v ? n : 0;
}

const char *devs_find(const struct ntp_dev *tab, size_t n,
			     uint32_t dev)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (tab[i].dev == dev)
			return tab[i].name;
	return NULL;
}

/*
 * dev_lookup() - look up @dev's name again, for a device that came after the
 * start.
 */
void dev_lookup(uint32_t role, uint32_t dev, char *buf, size_t size)
{
	struct ntp_dev *tab;
	const char *name;
	size_t n;

	*buf = '\0';
	n = devs_gather(role, &tab);
	name = devs_find(tab, n, dev);
	if (name && strlen(name) < size)
		memcpy(buf, name, strlen(name) + 1);
	free(tab);
}

/* Controllers */

/*
 * read_attr() - read the first line of a sysfs or configfs attribute, cut to
 * @size. It returns 0 or -1.
 */
static int read_attr(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "r");

	*buf = '\0';
	if (!f)
		return -1;
	if (!fgets(buf, size, f))
		*buf = '\0';
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

/*
 * ctrl_id_read() - read a controller's id attribute. A sysfs attribute read
 * again from offset 0 shows its current value, so the file is opened once
 * and each check is one pread(). When a controller is deleted, the read
 * fails, and the file is opened again, for a controller of the same name
 * that came in its place.
 */
static ssize_t ctrl_id_read(const struct ntp_ctrl *c, int *fd, char *buf,
			    size_t size)
{
	char path[PATH_MAX];
	ssize_t n;
	int tries;

	for (tries = 0; tries < 2; tries++) {
		if (*fd < 0) {
			snprintf(path, sizeof(path), "/sys/class/nvme/%s/cntlid",
				 c->name);
			*fd = open(path, O_RDONLY | O_CLOEXEC);
			if (*fd < 0)
				return -1;
		}
		n = pread(*fd, buf, size - 1, 0);
		if (n > 0) {
			buf[n] = '\0';
			return n;
		}
		close(*fd);
		*fd = -1;
	}
	return -1;
}

bool ctrl_id_moved(const struct ntp_ctrl *c, int *fd)
{
	char buf[16];

	/* Gone (a controller deleted) or unknown: nothing newer to say. */
	return ctrl_id_read(c, fd, buf, sizeof(buf)) > 0 &&
	       strtoul(buf, NULL, 10) != c->cntlid;
}

void ctrl_id_fds_free(int *fds, size_t n)
{
	size_t i;

	for (i = 0; fds && i < n; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	free(fds);
}

/*
 * transport_of() - return a controller's transport as sysfs names it: tcp,
 * rdma, or another.
 */
static uint8_t transport_of(const char *s)
{
	uint32_t t;

	if (strchr(s, ',') || ntprof_transport_parse(s, &t))
		return NTPROF_TRANSPORT_NONE;
	return t;
}

/*
 * ctrl_push() - add a new zeroed entry at the end of *@v, and return it, or
 * NULL when the table is full or memory is short.
 */
static struct ntp_ctrl *ctrl_push(struct ntp_ctrl **v, size_t *n, size_t *cap)
{
	struct ntp_ctrl *nv;

	if (*n == NTP_CTRLS_MAX)
		return NULL;
	if (*n == *cap) {
		*cap = *cap ? 2 * *cap : 16;
		nv = realloc(*v, *cap * sizeof(**v));
		if (!nv)
			return NULL;
		*v = nv;
	}
	memset(&(*v)[*n], 0, sizeof(**v));
	return &(*v)[(*n)++];
}

/*
 * ctrls_gather_host() - list the host's controllers from
 * /sys/class/nvme/nvmeN/: an entry per namespace disk under the controller
 * (nvmeXcNnZ with native multipath, else nvmeNnZ), with its device number
 * from /proc/diskstats, or one entry without a disk when the controller has
 * none.
 */
static size_t ctrls_gather_host(struct ntp_ctrl **tab)
{
	struct ntp_ctrl *v = NULL, *c, proto;
	size_t n = 0, cap = 0, disks;
	char path[PATH_MAX], buf[64];
	struct dirent *de, *dd;
	unsigned int maj, min, y;
	DIR *d, *sub;
	int end;

	d = opendir("/sys/class/nvme");
	while (d && (de = readdir(d))) {
		end = 0;
		if (sscanf(de->d_name, "nvme%u%n", &y, &end) != 1 ||
		    de->d_name[end] || strlen(de->d_name) > NTP_CTRL_NAME_MAX)
			continue;
		memset(&proto, 0, sizeof(proto));
		memcpy(proto.name, de->d_name, strlen(de->d_name) + 1);
		snprintf(path, sizeof(path), "/sys/class/nvme/%s/cntlid",
			 de->d_name);
		if (!read_attr(path, buf, sizeof(buf)))
			proto.cntlid = strtoul(buf, NULL, 10);
		snprintf(path, sizeof(path), "/sys/class/nvme/%s/transport",
			 de->d_name);
		read_attr(path, buf, sizeof(buf));
		proto.transport = transport_of(buf);
		snprintf(path, sizeof(path), "/sys/class/nvme/%s/subsysnqn",
			 de->d_name);
		read_attr(path, proto.subsysnqn, sizeof(proto.subsysnqn));
		snprintf(path, sizeof(path), "/sys/class/nvme/%s/address",
			 de->d_name);
		read_attr(path, proto.address, sizeof(proto.address));

		disks = 0;
		snprintf(path, sizeof(path), "/sys/class/nvme/%s", de->d_name);
		sub = opendir(path);
		while (sub && (dd = readdir(sub))) {
			if (strncmp(dd->d_name, "nvme", 4) ||
			    !strchr(dd->d_name + 4, 'n') ||
			    diskstats_find(dd->d_name, &maj, &min))
				continue;
			c = ctrl_push(&v, &n, &cap);
			if (!c)
				break;
			*c = proto;
			c->dev = dev_encode(maj, min);
			snprintf(path, sizeof(path), "/sys/class/nvme/%s/%s/nsid",
				 de->d_name, dd->d_name);
			if (!read_attr(path, buf, sizeof(buf)))
				c->nsid = strtoul(buf, NULL, 10);
			disks++;
		}
		if (sub)
			closedir(sub);
		if (!disks) {
			c = ctrl_push(&v, &n, &cap);
			if (c)
				*c = proto;
		}
	}
	if (d)
		closedir(d);
	*tab = v;
	return v ? n : 0;
}

#define NVMET_CONFIGFS	"/sys/kernel/config/nvmet"

/*
 * ctrls_gather_target() - list the target's exports from nvmet's configfs:
 * an entry per port, subsystem on that port and namespace of that subsystem,
 * with the backing device's number (0 for a file), or one entry without a
 * namespace when the subsystem has none. Which host a controller serves is
 * not there; the records' cntlid names the controller.
 */
static size_t ctrls_gather_target(struct ntp_ctrl **tab)
{
	char path[PATH_MAX], traddr[128], trsvcid[64], trtype[32];
	struct ntp_ctrl *v = NULL, *c, proto;
	size_t n = 0, cap = 0, nss;
	struct dirent *pe, *se, *ne;
	DIR *ports, *subs, *nsd;
	struct stat st;
	int end;

	ports = opendir(NVMET_CONFIGFS "/ports");
	while (ports && (pe = readdir(ports))) {
		if (pe->d_name[0] == '.')
			continue;
		memset(&proto, 0, sizeof(proto));
		snprintf(proto.name, sizeof(proto.name), "port %.50s",
			 pe->d_name);
		snprintf(path, sizeof(path), NVMET_CONFIGFS "/ports/%s/addr_trtype",
			 pe->d_name);
		read_attr(path, trtype, sizeof(trtype));
		proto.transport = transport_of(trtype);
		snprintf(path, sizeof(path), NVMET_CONFIGFS "/ports/%s/addr_traddr",
			 pe->d_name);
		read_attr(path, traddr, sizeof(traddr));
		snprintf(path, sizeof(path),
			 NVMET_CONFIGFS "/ports/%s/addr_trsvcid", pe->d_name);
		read_attr(path, trsvcid, sizeof(trsvcid));
		snprintf(proto.address, sizeof(proto.address),
			 "traddr=%s,trsvcid=%s", traddr, trsvcid);

		snprintf(path, sizeof(path), NVMET_CONFIGFS "/ports/%s/subsystems",
			 pe->d_name);
		subs = opendir(path);
		while (subs && (se = readdir(subs))) {
			if (se->d_name[0] == '.' ||
			    strlen(se->d_name) > NTP_NQN_MAX)
				continue;
			memcpy(proto.subsysnqn, se->d_name,
			       strlen(se->d_name) + 1);
			nss = 0;
			snprintf(path, sizeof(path),
				 NVMET_CONFIGFS "/subsystems/%s/namespaces",
				 se->d_name);
			nsd = opendir(path);
			while (nsd && (ne = readdir(nsd))) {
				end = 0;
				if (ne->d_name[0] == '.')
					continue;
				c = ctrl_push(&v, &n, &cap);
				if (!c)
					break;
				*c = proto;
				sscanf(ne->d_name, "%u%n", &c->nsid, &end);
				snprintf(path, sizeof(path),
					 NVMET_CONFIGFS "/subsystems/%s/namespaces/%s/device_path",
					 se->d_name, ne->d_name);
				read_attr(path, traddr, sizeof(traddr));
				if (!stat(traddr, &st) && S_ISBLK(st.st_mode))
					c->dev = dev_encode(major(st.st_rdev),
							    minor(st.st_rdev));
				nss++;
			}
			if (nsd)
				closedir(nsd);
			if (!nss) {
				c = ctrl_push(&v, &n, &cap);
				if (c)
					*c = proto;
			}
		}
		if (subs)
			closedir(subs);
	}
	if (ports)
		closedir(ports);
	*tab = v;
	return v ? n : 0;
}

size_t ctrls_gather(uint32_t role, struct ntp_ctrl **tab)
{
	if (role == NTPROF_ROLE_HOST)
		return ctrls_gather_host(tab);
	return ctrls_gather_target(tab);
}

/*
 * subsys_hostnqn() - find the one host that a target's subsystem serves,
 * when its configfs says so: allow_any_host is off and a single host is
 * allowed. Outside debugfs (CONFIG_NVME_TARGET_DEBUGFS, off in Debian's
 * kernels), nothing else says which host a controller serves. It writes ""
 * otherwise.
 */
static void subsys_hostnqn(const char *subnqn, char *buf, size_t size)
{
	char path[PATH_MAX], one[NTP_NQN_MAX + 1] = "", attr[8];
	struct dirent *de;
	int hosts = 0;
	DIR *d;

	*buf = '\0';
	snprintf(path, sizeof(path),
		 NVMET_CONFIGFS "/subsystems/%s/attr_allow_any_host", subnqn);
	if (read_attr(path, attr, sizeof(attr)) || strcmp(attr, "0"))
		return;
	snprintf(path, sizeof(path),
		 NVMET_CONFIGFS "/subsystems/%s/allowed_hosts", subnqn);
	d = opendir(path);
	while (d && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		hosts++;
		snprintf(one, sizeof(one), "%s", de->d_name);
	}
	if (d)
		closedir(d);
	if (hosts == 1)
		snprintf(buf, size, "%s", one);
}

prom_nqn *ctrls_hostnqns(uint32_t role, const struct ntp_ctrl *tab, size_t n)
{
	prom_nqn *v = n ? calloc(n, sizeof(*v)) : NULL;
	char path[PATH_MAX];
	size_t i;

	for (i = 0; v && i < n; i++) {
		/* A subsystem's entries follow each other: asked once. */
		if (i && !strcmp(tab[i].subsysnqn, tab[i - 1].subsysnqn) &&
		    !strcmp(tab[i].name, tab[i - 1].name)) {
			memcpy(v[i], v[i - 1], sizeof(v[i]));
			continue;
		}
		if (role == NTPROF_ROLE_TARGET) {
			subsys_hostnqn(tab[i].subsysnqn, v[i], sizeof(v[i]));
			continue;
		}
		snprintf(path, sizeof(path), "/sys/class/nvme/%s/hostnqn",
			 tab[i].name);
		read_attr(path, v[i], sizeof(v[i]));
	}
	return v;
}
