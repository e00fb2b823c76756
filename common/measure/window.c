/* SPDX-License-Identifier: GPL-3.0-or-later */
/* window.c: the window logic of window.h.  */
#include <config.h>

#include "window.h"

double
window_start (double s0, double w, size_t k)
{
  return s0 + (double) k * w;    /* eq. (4) */
}

int
window_flags (double start, double w, double first, double end)
{
  int f = 0;
  if (first > start)
    f |= WINDOW_LATE;
  if (end > start + w)
    f |= WINDOW_EXPIRED;
  return f;
}

void
window_collect (const int *flags, const double *begin, const double *end,
                size_t nranks, size_t nrep, const double *self_in,
                double *span, double *self_out, struct window_tally *tally)
{
  tally->valid = tally->late = tally->expired = 0;
  for (size_t k = 0; k < nrep; k++)
    {
      int any = 0;
      for (size_t r = 0; r < nranks; r++)
        any |= flags[r * nrep + k];
      if (any & WINDOW_LATE)
        {
          tally->late++;
          continue;
        }
      if (any)
        {
          tally->expired++;
          continue;
        }
      double b = begin[k], e = end[k];
      for (size_t r = 1; r < nranks; r++)
        {
          if (begin[r * nrep + k] < b)
            b = begin[r * nrep + k];
          if (end[r * nrep + k] > e)
            e = end[r * nrep + k];
        }
      span[tally->valid] = e - b;                /* eq. (5) */
      if (self_in)
        self_out[tally->valid] = self_in[k];
      tally->valid++;
    }
}
