// SPDX-License-Identifier: GPL-2.0
/*
 * The binary that test_elfsite.c resolves: built by the test with
 * cc -g -O2, it holds a function in each state that elfsite tells apart
 * and a struct of nested members. Run, it prints what the compiler and
 * the kernel know of it, the test's expected values:
 *   member PATH OFFSET SIZE	offsetof() and sizeof() in struct sample_req
 *   bits PATH BIT NBITS	a bit-field, found by setting it in a zeroed struct
 *   size sample_req SIZE
 *   func NAME OFFSET BYTES	a function's file offset, through /proc/self/maps,
 *				and its first bytes in memory, in hex
 *   map START END PGOFF	an executable mapping of this program's file
 *   bias BIAS			what was added to the link-time addresses
 */
#define _GNU_SOURCE
#include <limits.h>
#include <link.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

struct sample_hdr {
	uint16_t opc : 8;
	uint16_t flags : 8;
	uint16_t id;
	uint32_t nsid;
};

union sample_payload {
	uint64_t lba;
	struct {
		uint32_t lo;
		uint32_t hi;
	} half;
};

struct sample_req {
	struct sample_req *next;	/* a pointer: never followed */
	struct sample_hdr hdr;
	union sample_payload payload;
	union {				/* anonymous: its members are the struct's */
		void *cb_arg;
		uint64_t cookie;
	};
	char tag[13];
	void (*cb_fn)(void *arg);
	uint32_t len;
};

uint64_t sample_exported(struct sample_req *req);
uint64_t sample_caller_a(struct sample_req *req);
uint64_t sample_caller_b(struct sample_req *req);

/* Inlined into both callers, never out of line. */
static inline __attribute__((always_inline)) uint64_t
sample_mix(const struct sample_req *req, uint64_t k)
{
	return (req->payload.lba ^ k) * 0x9e3779b97f4a7c15ULL + req->hdr.nsid;
}

/*
 * Its second argument unused and its first only read for one member:
 * IPA-SRA passes that member instead, in a clone sample_scaled.isra.0.
 */
static __attribute__((noinline)) uint64_t
sample_scaled(const struct sample_req *req, int unused __attribute__((unused)))
{
	return (uint64_t)req->len * 3 + 1;
}

/* Inlined into sample_caller_b, and out of line for the pointer. */
static inline __attribute__((always_inline)) uint64_t sample_both(uint64_t x)
{
	return x * x + 7;
}

uint64_t (*volatile sample_both_ptr)(uint64_t) = sample_both;

__attribute__((noinline)) uint64_t sample_exported(struct sample_req *req)
{
	return req->len + req->hdr.id;
}

__attribute__((noinline)) uint64_t sample_caller_a(struct sample_req *req)
{
	return sample_mix(req, 3) + sample_scaled(req, 1);
}

__attribute__((noinline)) uint64_t sample_caller_b(struct sample_req *req)
{
	return sample_mix(req, req->len) ^ sample_both(req->payload.half.hi) ^
	       sample_scaled(req, 2);
}

#define MEMBER(path)							\
	printf("member %s %zu %zu\n", #path,				\
	       offsetof(struct sample_req, path),			\
	       sizeof(((struct sample_req *)0)->path))

/* Sets bit-field @path in a zeroed struct and prints the bits it took. */
#define BITS(path)							\
	do {								\
		struct sample_req r;					\
									\
		memset(&r, 0, sizeof(r));				\
		r.path--;						\
		print_bits(#path, (const unsigned char *)&r, sizeof(r));\
	} while (0)

static void print_bits(const char *path, const unsigned char *p, size_t n)
{
	size_t i, first = SIZE_MAX, count = 0;

	/* Bit b of byte i is bit 8 * i + b: DWARF's count on little-endian. */
	for (i = 0; i < n * 8; i++) {
		if (!(p[i / 8] & (1u << (i % 8))))
			continue;
		if (first == SIZE_MAX)
			first = i;
		count++;
	}
	printf("bits %s %zu %zu\n", path, first, count);
}

static void print_layout(void)
{
	MEMBER(next);
	MEMBER(hdr);
	MEMBER(hdr.id);
	MEMBER(hdr.nsid);
	MEMBER(payload);
	MEMBER(payload.lba);
	MEMBER(payload.half);
	MEMBER(payload.half.hi);
	MEMBER(cb_arg);
	MEMBER(cookie);
	MEMBER(tag);
	MEMBER(cb_fn);
	MEMBER(len);
	BITS(hdr.opc);
	BITS(hdr.flags);
	printf("size sample_req %zu\n", sizeof(struct sample_req));
}

static char exe[PATH_MAX];

/* The executable mappings of this program's own file, as the kernel has them. */
static void print_maps(void)
{
	unsigned long start, end, pgoff;
	char line[PATH_MAX + 128], perms[8], path[PATH_MAX];
	FILE *f = fopen("/proc/self/maps", "r");

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		path[0] = '\0';
		if (sscanf(line, "%lx-%lx %7s %lx %*s %*s %4095s", &start, &end,
			   perms, &pgoff, path) < 4)
			continue;
		if (strchr(perms, 'x') && !strcmp(path, exe))
			printf("map %lx %lx %lx\n", start, end, pgoff);
	}
	fclose(f);
}

/* The file offset of @addr through the mappings: what a uprobe is given. */
static void print_func(const char *name, const void *addr)
{
	unsigned long start, end, pgoff, a = (unsigned long)addr;
	char line[PATH_MAX + 128], path[PATH_MAX];
	const unsigned char *p = addr;
	FILE *f = fopen("/proc/self/maps", "r");
	int i;

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		path[0] = '\0';
		if (sscanf(line, "%lx-%lx %*s %lx %*s %*s %4095s", &start, &end,
			   &pgoff, path) < 3 || a < start || a >= end ||
		    strcmp(path, exe))
			continue;
		printf("func %s %lx ", name, a - start + pgoff);
		for (i = 0; i < 16; i++)
			printf("%02x", p[i]);
		putchar('\n');
	}
	fclose(f);
}

/* The first object is the program itself. */
static int first_bias(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size;
	*(ElfW(Addr) *)data = info->dlpi_addr;
	return 1;
}

int main(void)
{
	struct sample_req req = { .len = 5, .hdr.id = 2, .payload.lba = 9 };
	ElfW(Addr) bias = 0;
	ssize_t n;

	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n < 0)
		return 1;
	exe[n] = '\0';
	print_layout();
	print_maps();
	print_func("sample_exported", (const void *)sample_exported);
	print_func("sample_both", (const void *)sample_both_ptr);
	dl_iterate_phdr(first_bias, &bias);
	printf("bias %lx\n", (unsigned long)bias);
	/* Keeps every function alive; the sum itself means nothing. */
	printf("sum %llu\n", (unsigned long long)(sample_exported(&req) +
		sample_caller_a(&req) + sample_caller_b(&req) +
		sample_both_ptr(req.len)));
	return 0;
}
