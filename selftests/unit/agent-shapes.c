// SPDX-License-Identifier: GPL-2.0
/*
 * Functions of many prologue shapes for test_agent_patch, compiled at
 * -O2 twice: with -fcf-protection (an endbr64 first) and without, their
 * names prefixed by SHAPE_PREFIX. Each takes and returns 64-bit words,
 * so the test calls them all through one pointer type.
 */
#include <stdint.h>

#define CAT2(a, b)	a##b
#define CAT(a, b)	CAT2(a, b)
#define F(name)		CAT(SHAPE_PREFIX, name)
#define SHAPE		__attribute__((noinline, used))

uint64_t F(table)[8] = { 3, 1, 4, 1, 5, 9, 2, 6 };

/* Five bytes, lea and ret: the jump's size, the ret displaced too. */
SHAPE uint64_t F(add)(uint64_t a, uint64_t b)
{
	return a + b;
}

/* A rip-relative load among the first instructions. */
SHAPE uint64_t F(global)(uint64_t a)
{
	return a * F(table)[a & 7] + F(table)[(a >> 3) & 7];
}

SHAPE uint64_t F(loop)(uint64_t n)
{
	uint64_t s = 0, i;

	for (i = 0; i < (n & 255); i++)
		s += (i * i) ^ n;
	return s;
}

/* A frame: sub rsp. */
SHAPE uint64_t F(stack)(uint64_t a, uint64_t b, uint64_t c)
{
	volatile uint64_t buf[40];
	unsigned int i;

	for (i = 0; i < 40; i++)
		buf[i] = a * i + b;
	return buf[c % 40] ^ buf[(c >> 8) % 40];
}

SHAPE uint64_t F(helper)(uint64_t a, uint64_t b)
{
	return (a << 7) ^ (b >> 3) ^ 0x9e3779b97f4a7c15ULL;
}

/* A tail call: a jmp to another function. */
SHAPE uint64_t F(tail)(uint64_t a)
{
	return F(helper)(a ^ 0x55, a + 1);
}

SHAPE uint64_t F(recurse)(uint64_t n)
{
	return (n & 15) ? F(recurse)(n - 1) * 3 + 1 : n;
}

/* A jump table. */
SHAPE uint64_t F(choose)(uint64_t x)
{
	switch (x % 9) {
	case 0: return x + 11;
	case 1: return x * 3;
	case 2: return x ^ 0xff00;
	case 3: return x >> 2;
	case 4: return ~x;
	case 5: return x * x;
	case 6: return x - 99;
	case 7: return x << 5;
	default: return 42;
	}
}

/* Six arguments: the handler sees each in its register. */
SHAPE uint64_t F(six)(uint64_t a, uint64_t b, uint64_t c, uint64_t d,
		      uint64_t e, uint64_t f)
{
	return a * 1 + b * 3 + c * 5 + d * 7 + e * 11 + f * 13;
}
