/* SPDX-License-Identifier: GPL-3.0-or-later */
/* numfast.c: exact shortest round-trip printing of common doubles
 * (numfast.h).
 *
 * v = M 2^E exactly (M < 2^53).  Choose k so that X = v 10^k lies in
 * [10^16, 10^17), and write X = P / Q with 128-bit integers (Q a power of
 * two, or a power of ten times one).  The candidates of 17, 16 and 15
 * significant digits are X rounded half-to-even at the last 1, 2 or 3
 * digits of floor(X), all exactly; printf's %.Ng gives the same
 * correctly rounded digits.  A candidate C (in units of 10^-k) reads back
 * to v when it lies within half a unit in the last place of v:
 *     2 |C Q - P| < U,  U = P / M = 2^E 10^k Q,
 * (4 |C Q - P| < U below a power of two, where the gap to the next double
 * down is half as wide; an exact tie reads back to v when M is even, as
 * strtod rounds ties to even).  */
#include <config.h>

#include "numfast.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#if defined(__SIZEOF_INT128__)

__extension__ typedef unsigned __int128 u128;

static const uint64_t pow10_64[20] = {
  UINT64_C (1), UINT64_C (10), UINT64_C (100), UINT64_C (1000),
  UINT64_C (10000), UINT64_C (100000), UINT64_C (1000000),
  UINT64_C (10000000), UINT64_C (100000000), UINT64_C (1000000000),
  UINT64_C (10000000000), UINT64_C (100000000000),
  UINT64_C (1000000000000), UINT64_C (10000000000000),
  UINT64_C (100000000000000), UINT64_C (1000000000000000),
  UINT64_C (10000000000000000), UINT64_C (100000000000000000),
  UINT64_C (1000000000000000000), UINT64_C (10000000000000000000)
};

/* 5^k for k <= 54 (5^54 < 2^126), filled on first use.  */
static u128 pow5[55];
static int pow5_ready;

static void
pow5_init (void)
{
  pow5[0] = 1;
  for (int i = 1; i < 55; i++)
    pow5[i] = pow5[i - 1] * 5;
  pow5_ready = 1;
}

/* Bits needed by X (0 for 0).  */
static int
bits128 (u128 x)
{
  uint64_t hi = (uint64_t) (x >> 64);
  if (hi)
    return 128 - __builtin_clzll (hi);
  uint64_t lo = (uint64_t) x;
  return lo ? 64 - __builtin_clzll (lo) : 0;
}

/* Trailing zero bits of X (nonzero).  */
static int
ctz128 (u128 x)
{
  uint64_t lo = (uint64_t) x;
  if (lo)
    return __builtin_ctzll (lo);
  return 64 + __builtin_ctzll ((uint64_t) (x >> 64));
}

/* X = v 10^k as P / Q (see above), with U = P / M.  Returns 0 when a value
   would not fit.  */
static int
scale (uint64_t M, int E, int k, u128 *P, u128 *Q, u128 *U)
{
  if (k >= 0)
    {
      if (k > 54)
        return 0;
      u128 f = pow5[k];
      /* P = M 5^k 2^(E+k): fits while the bits add up below 127.  */
      int sh = E + k;
      int mb = 64 - __builtin_clzll (M);
      if (mb + bits128 (f) + (sh > 0 ? sh : 0) > 126)
        return 0;
      if (sh >= 0)
        {
          *U = f << sh;
          *Q = 1;
        }
      else
        {
          if (-sh > 110)
            return 0;
          *U = f;
          *Q = (u128) 1 << -sh;
        }
      *P = (u128) M * *U;
      return 1;
    }
  /* k < 0: X = M 2^E / 10^-k; v is large, so E >= 0 here (E < 0 would
     mean v < 2^53 and k >= 0).  */
  if (-k > 19 || E < 0)
    return 0;
  int mb = 64 - __builtin_clzll (M);
  if (mb + E > 120)
    return 0;
  *U = (u128) 1 << E;
  *P = (u128) M << E;
  *Q = pow10_64[-k];
  return 1;
}

/* Round-half-even q + rem/Q to a multiple of 10^j; returns the rounded
   value (in the same units as q).  */
static uint64_t
round_at (uint64_t q, u128 rem, u128 Q, int j)
{
  if (j == 0)
    {
      u128 twice = rem << 1;
      if (twice > Q || (twice == Q && (q & 1)))
        return q + 1;
      return q;
    }
  uint64_t p = pow10_64[j];
  uint64_t a = q / p, b = q % p;
  /* Fraction (b Q + rem) / (p Q) against one half.  */
  u128 num = ((u128) b * Q + rem) << 1;
  u128 den = (u128) p * Q;
  if (num > den || (num == den && (a & 1)))
    a++;
  return a * p;
}

/* round_at when Q = 2^S: the fraction rem / 2^S is below one, so the
   comparison with one half needs 128 bits only in the near-tie cases.  */
static uint64_t
round_at_pow2 (uint64_t q, u128 rem, int S, int j)
{
  u128 half = S > 0 ? (u128) 1 << (S - 1) : 0;
  /* 2 rem / 2^S against 1: -1 below, 0 equal, 1 above.  */
  int cmp = S == 0 ? -1 : rem > half ? 1 : rem == half ? 0 : -1;
  if (j == 0)
    return q + (cmp > 0 || (cmp == 0 && (q & 1)));
  /* Constant divisors: the compiler multiplies instead of dividing.  */
  uint64_t p = j == 1 ? 10 : 100;
  uint64_t a = j == 1 ? q / 10 : q / 100;
  uint64_t b = q - a * p;
  /* (b + rem / 2^S) against p / 2, i.e. 2b + 2 rem / 2^S against p.  */
  uint64_t tb = 2 * b;
  int up;
  if (tb + 2 <= p)
    up = 0;
  else if (tb > p)
    up = 1;
  else if (tb == p)
    up = rem > 0 || (a & 1);
  else                          /* tb + 1 == p */
    up = cmp > 0 || (cmp == 0 && (a & 1));
  return (a + (uint64_t) up) * p;
}

/* Does C (units of 10^-k, like P/Q) read back to v?  */
static int
round_trips (uint64_t C, uint64_t q, u128 rem, u128 Q, u128 U, uint64_t M,
             int lower_half)
{
  /* diff = C Q - P = (C - q) Q - rem.  */
  u128 mag;
  int below;
  if (C > q)
    {
      mag = (u128) (C - q) * Q - rem;
      below = 0;
    }
  else
    {
      mag = (u128) (q - C) * Q + rem;
      below = mag != 0;
    }
  u128 lim = U;
  u128 m = mag << 1;
  if (below && lower_half)
    m <<= 1;
  if (m < lim)
    return 1;
  if (m == lim)
    return (M & 1) == 0;
  return 0;
}

/* Print the D significant digits of C (C < 10^D, leading digit nonzero)
   with decimal exponent X10 (value C 10^(X10 - D + 1)) as %.Dg does,
   trailing zeros removed.  */
static int
emit (int neg, uint64_t C, int D, int x10, char *buf)
{
  static const char pairs[] =
    "00010203040506070809101112131415161718192021222324252627282930313233"
    "34353637383940414243444546474849505152535455565758596061626364656667"
    "6869707172737475767778798081828384858687888990919293949596979899";
  char dig[20];
  /* The low 8 digits and the rest are converted as two independent
     chains of divisions by 100 (by multiplication).  */
  uint32_t lo = (uint32_t) (C % 100000000), hi32;
  uint64_t hi = C / 100000000;
  for (int i = D - 1; i >= D - 8; i -= 2)
    {
      unsigned r = lo % 100;
      lo /= 100;
      dig[i] = pairs[2 * r + 1];
      dig[i - 1] = pairs[2 * r];
    }
  /* D - 8 (7 to 9) leading digits remain in hi < 10^9.  */
  hi32 = (uint32_t) hi;
  int i = D - 9;
  for (; i >= 1; i -= 2)
    {
      unsigned r = hi32 % 100;
      hi32 /= 100;
      dig[i] = pairs[2 * r + 1];
      dig[i - 1] = pairs[2 * r];
    }
  if (i == 0)
    dig[0] = (char) ('0' + hi32 % 10);
  int nd = D;
  while (nd > 1 && dig[nd - 1] == '0')
    nd--;
  char *o = buf;
  if (neg)
    *o++ = '-';
  if (x10 < -4 || x10 >= D)
    {
      *o++ = dig[0];
      if (nd > 1)
        {
          *o++ = '.';
          memcpy (o, dig + 1, (size_t) nd - 1);
          o += nd - 1;
        }
      *o++ = 'e';
      int e = x10;
      *o++ = e < 0 ? '-' : '+';
      if (e < 0)
        e = -e;
      if (e >= 100)
        {
          *o++ = (char) ('0' + e / 100);
          e %= 100;
          *o++ = (char) ('0' + e / 10);
        }
      else
        *o++ = (char) ('0' + e / 10);
      *o++ = (char) ('0' + e % 10);
    }
  else if (x10 < 0)
    {
      *o++ = '0';
      *o++ = '.';
      for (int z = -1; z > x10; z--)
        *o++ = '0';
      memcpy (o, dig, (size_t) nd);
      o += nd;
    }
  else
    {
      /* x10 + 1 integer digits, then the rest of the nd digits.  */
      int ip = x10 + 1;
      for (int k = 0; k < ip; k++)
        *o++ = k < nd ? dig[k] : '0';
      if (nd > ip)
        {
          *o++ = '.';
          memcpy (o, dig + ip, (size_t) (nd - ip));
          o += nd - ip;
        }
    }
  *o = '\0';
  return (int) (o - buf);
}

int
num_format_fast (double v, char *buf)
{
  if (!isfinite (v) || v == 0)
    return 0;
  int neg = v < 0;
  double a = neg ? -v : v;
  if (a < 1e-17 || a > 1e35)
    return 0;
  /* Whole numbers below 10^15 print as themselves (15 digits suffice and
     %.15g writes no exponent for them).  */
  if (a < 1e15 && a == (double) (int64_t) a)
    {
      uint64_t w = (uint64_t) a;
      char tmp[20];
      int n = 0;
      do
        {
          tmp[n++] = (char) ('0' + w % 10);
          w /= 10;
        }
      while (w);
      char *o = buf;
      if (neg)
        *o++ = '-';
      while (n)
        *o++ = tmp[--n];
      *o = '\0';
      return (int) (o - buf);
    }
  /* a = M 2^E with the 53-bit significand M (a is normal here).  */
  uint64_t bits;
  memcpy (&bits, &a, sizeof bits);
  int be = (int) ((bits >> 52) & 0x7ff);
  if (be == 0)
    return 0;
  uint64_t M = (bits & ((UINT64_C (1) << 52) - 1)) | (UINT64_C (1) << 52);
  int E = be - 1075;
  int e2 = E + 53;                     /* a in [2^(e2-1), 2^e2) */
  int lower_half = M == (UINT64_C (1) << 52);

  /* floor(log10(a)) or one less (floor((e2-1) log10 2), exact for
     |e2| < 1650).  */
  int t10 = (e2 - 1) * 78913;
  int x10 = t10 >= 0 ? t10 >> 18 : -((-t10 + (1 << 18) - 1) >> 18);
  if (!pow5_ready)
    pow5_init ();
  u128 P, Q, U;
  uint64_t q = 0;
  u128 rem = 0;
  for (int tries = 0; tries < 4; tries++)
    {
      int k = 16 - x10;
      if (!scale (M, E, k, &P, &Q, &U))
        return 0;
      u128 qq = (Q & (Q - 1)) == 0 ? P >> ctz128 (Q) : P / Q;
      if (qq < pow10_64[16])
        {
          x10--;
          continue;
        }
      if (qq >= pow10_64[17])
        {
          x10++;
          continue;
        }
      q = (uint64_t) qq;
      rem = (Q & (Q - 1)) == 0 ? P & (Q - 1) : P - qq * Q;
      goto found;
    }
  return 0;
found:;
  int S = (Q & (Q - 1)) == 0 ? ctz128 (Q) : -1;
  /* Half a unit in the last place of v, in units of X, rounded down (for
     a quick rejection of candidates that are far off).  */
  uint64_t h = 0;
  if (S >= 0 && S < 127)
    {
      u128 hh = U >> (S + 1);
      h = hh > (u128) UINT64_MAX / 2 ? UINT64_MAX / 2 : (uint64_t) hh;
    }
  for (int D = 15; D <= 17; D++)
    {
      int j = 17 - D;
      uint64_t C = S >= 0 ? round_at_pow2 (q, rem, S, j)
                          : round_at (q, rem, Q, j);
      if (D < 17)
        {
          uint64_t d = C > q ? C - q : q - C;
          /* |C - X| >= d - 1 > h + 1 > half an ulp: too far.  */
          if (S >= 0 && d > h + 2)
            continue;
          if (!round_trips (C, q, rem, Q, U, M, lower_half))
            continue;
        }
      /* C = c 10^j with c of D digits, or 10^17 after a carry.  */
      uint64_t c = C / pow10_64[j];
      int xe = x10;
      if (c >= pow10_64[D])
        {
          c /= 10;
          xe++;
        }
      return emit (neg, c, D, xe, buf);
    }
  return 0;
}

#else

int
num_format_fast (double v, char *buf)
{
  (void) v;
  (void) buf;
  return 0;
}

#endif
