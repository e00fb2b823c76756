/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-logp-classes: the record packing and the link classes of
   logp_classes.h, and the classes through the bin filter (treefilter.h):
   every member in exactly one class.  */
#include <config.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "logp_classes.h"
#include "treefilter.h"
#include "unit.h"

static int
same (double a, double b)
{
  if (isnan (a) || isnan (b))
    return isnan (a) && isnan (b);
  return a == b && signbit (a) == signbit (b);
}

int
main (void)
{
  /* Round trip, with NaN, both infinities, -0, tiny and huge values.  */
  double in[LOGP_PACK_MAXN], packed[LOGP_PACK_MAXN + 2], out[LOGP_PACK_MAXN];
  for (size_t i = 0; i < LOGP_PACK_MAXN; i++)
    in[i] = (double) i * 1.25e-7 - 3;
  in[0] = NAN;
  in[5] = INFINITY;
  in[6] = -INFINITY;
  in[7] = -0.0;
  in[8] = 4.9e-324;
  in[LOGP_PACK_MAXN - 1] = NAN;
  in[LOGP_PACK_MAXN - 2] = 1.7976931348623157e308;
  CHECK (logp_pack (in, LOGP_PACK_MAXN, packed) == LOGP_PACK_MAXN + 2);
  int finite = 1;
  for (size_t i = 0; i < LOGP_PACK_MAXN + 2; i++)
    finite &= isfinite (packed[i]) != 0;
  CHECK (finite);
  CHECK (logp_unpack (packed, LOGP_PACK_MAXN, out) == 0);
  int ok = 1;
  for (size_t i = 0; i < LOGP_PACK_MAXN; i++)
    ok &= same (in[i], out[i]);
  CHECK (ok);
  double bad[5] = { 0.5, 0, 1, 2, 3 };
  CHECK (logp_unpack (bad, 3, out) == -1);
  double bad2[5] = { 8, 0, 1, 2, 3 };
  CHECK (logp_unpack (bad2, 3, out) == -1);
  double both[5] = { 2, 2, 1, 2, 3 };
  CHECK (logp_unpack (both, 3, out) == -1);

  /* Keys: width 1 makes octaves [2^k, 2^(k+1)).  */
  CHECK (logp_class_key (1, 1) == 0);
  CHECK (logp_class_key (1.99, 1) == 0);
  CHECK (logp_class_key (2.01, 1) == 1);
  CHECK (logp_class_key (0.3, 1) == -2);
  CHECK (logp_class_key (0, 0.1) == LOGP_CLASS_NONPOS);
  CHECK (logp_class_key (-4, 0.1) == LOGP_CLASS_NONPOS);
  CHECK (logp_class_key (NAN, 0.1) == LOGP_CLASS_NA);
  CHECK (logp_class_key (INFINITY, 0.1) == LOGP_CLASS_NA);
  double lo, hi;
  logp_class_bounds (-2, 1, &lo, &hi);
  CHECK_NEAR (lo, 0.25, 1e-15);
  CHECK_NEAR (hi, 0.5, 1e-15);

  /* Exact bounds: values on and next to the powers of 1 + W.  */
  int exact = 1;
  for (int k = -40; k <= 40; k++)
    {
      double b = pow (1.1, k);
      logp_class_bounds (k, 0.1, &lo, &hi);
      exact &= logp_class_key (b, 0.1) == k && lo == b;
      exact &= logp_class_key (nextafter (b, 0), 0.1) == k - 1;
    }
  CHECK (exact);

  /* Every value lies in its class's bounds, and the
     classes of a bin packet partition the members.  */
  struct tf_buf acc;
  tf_buf_init (&acc);
  uint64_t x = 12345;
  const int nvals = 2000;
  int inside = 1;
  for (int i = 0; i < nvals; i++)
    {
      x = x * 6364136223846793005ULL + 1442695040888963407ULL;
      double v = (double) (x >> 11) / 9007199254740992.0 * 40 - 5;
      if (i % 97 == 0)
        v = NAN;
      double w = 0.05, key = logp_class_key (v, w);
      if (v > 0)
        {
          logp_class_bounds (key, w, &lo, &hi);
          inside &= v >= lo && v < hi;
        }
      tf_bin_add (&acc, key, 0, i);
    }
  CHECK (inside);
  char *seen = calloc (nvals, 1);
  size_t total = 0, nclasses = 0;
  int partition = 1;
  for (size_t i = 0; i < acc.len; nclasses++)
    {
      size_t count = (size_t) acc.v[i + 1];
      for (size_t k = 0; k < count; k++)
        {
          int id = (int) acc.v[i + 2 + k];
          partition &= id >= 0 && id < nvals && !seen[id];
          if (id >= 0 && id < nvals)
            seen[id] = 1;
        }
      total += count;
      i += 2 + count;
    }
  CHECK (partition);
  CHECK (total == (size_t) nvals);
  CHECK (nclasses == tf_bin_nclasses (acc.v, acc.len));
  CHECK (acc.v[0] == LOGP_CLASS_NA);
  free (seen);
  tf_buf_free (&acc);
  return unit_done ();
}
