/* SPDX-License-Identifier: GPL-3.0-or-later */
/* noise.c: the detours CPU work meets (noise.h).  */
#include <config.h>

#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "dag.h"        /* dag_mix64 */
#include "noise.h"
#include "xalloc.h"

/* EXP: the detours of one stream are drawn block by block, each block
   of EXP_BLOCK mean intervals from a generator seeded by (seed, stream,
   block), so that any interval can be read in any order with the same
   result (a Poisson process restarted at a block's start is still one).  */
#define EXP_BLOCK 2.0

const char *
dag_noise_init (struct dag_noise *z, int64_t nranks, size_t *bad)
{
  z->cum = NULL;
  z->off = NULL;
  z->rng = NULL;
  z->noff = 0;
  *bad = 0;
  switch (z->kind)
    {
    case DAG_NOISE_NONE:
      return NULL;
    case DAG_NOISE_PERIODIC:
      if (!(z->period > 0))
        return "the period must be above 0";
      if (!(z->detour >= 0 && z->detour < z->period))
        return "the detour must be at least 0 and shorter than the period";
      z->one_start = 0;
      z->one_len = z->detour;
      z->start = &z->one_start;
      z->len = &z->one_len;
      z->n = 1;
      break;
    case DAG_NOISE_EXP:
      if (!(z->mean > 0))
        return "the mean interval must be above 0";
      if (!(z->detour >= 0))
        return "the detour must be at least 0";
      break;
    case DAG_NOISE_TRACE:
      if (!z->n)
        return "no detours";
      for (size_t i = 0; i < z->n; i++)
        {
          *bad = i;
          if (!(z->start[i] >= 0) || !(z->len[i] >= 0))
            return "a start or duration below 0";
          if (i && z->start[i] < z->start[i - 1])
            return "starts must not descend";
          if (i && z->start[i] < z->start[i - 1] + z->len[i - 1])
            return "a detour starts before the one before it ends";
        }
      break;
    default:
      return "unknown kind of noise";
    }
  if (z->kind != DAG_NOISE_EXP)
    {
      z->span = z->start[z->n - 1] + z->len[z->n - 1];
      if (z->kind == DAG_NOISE_PERIODIC)
        z->span = z->period;
      if (!(z->span > 0))
        return "the detours last 0 in all";
      z->cum = xmalloc ((z->n + 1) * sizeof *z->cum);
      z->cum[0] = 0;
      for (size_t i = 0; i < z->n; i++)
        z->cum[i + 1] = z->cum[i] + z->len[i];
    }
  /* the phases */
  size_t np = nranks > 0 ? (size_t) nranks : 1;
  z->noff = z->phase_given || z->cosched || z->kind == DAG_NOISE_EXP ? 1
                                                                      : np;
  z->off = xcalloc (z->noff, sizeof *z->off);
  gsl_rng *g = gsl_rng_alloc (gsl_rng_mt19937);
  if (!g)
    return "out of memory";
  gsl_rng_set (g, (unsigned long) z->seed);
  for (size_t i = 0; i < z->noff; i++)
    {
      if (z->phase_given)
        /* PERIODIC: the first detour at PHASE; TRACE: simulated time 0
           is the trace's time PHASE */
        z->off[i] = z->kind != DAG_NOISE_PERIODIC ? z->phase
                    : fmod (z->span - fmod (z->phase, z->span), z->span);
      else if (z->kind != DAG_NOISE_EXP)
        z->off[i] = gsl_rng_uniform (g) * z->span;
    }
  gsl_rng_free (g);
  if (z->kind == DAG_NOISE_EXP)
    {
      /* reseeded for every block read: a generator cheap to seed */
      z->rng = gsl_rng_alloc (gsl_rng_taus2);
      if (!z->rng)
        return "out of memory";
    }
  return NULL;
}

void
dag_noise_free (struct dag_noise *z)
{
  free (z->cum);
  free (z->off);
  if (z->rng)
    gsl_rng_free (z->rng);
  z->cum = z->off = NULL;
  z->rng = NULL;
}

/* The number of detour starts of one period below R.  */
static size_t
starts_below (const struct dag_noise *z, double r)
{
  size_t lo = 0, hi = z->n;
  while (lo < hi)
    {
      size_t mid = lo + (hi - lo) / 2;
      if (z->start[mid] < r)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* The detours (full lengths) of the repeated trace starting below noise
   time X.  */
static double
full_below (const struct dag_noise *z, double x)
{
  double k = floor (x / z->span);
  return k * z->cum[z->n] + z->cum[starts_below (z, x - k * z->span)];
}

/* What is left at noise time U of the last detour starting before it.  */
static double
in_progress (const struct dag_noise *z, double u)
{
  double k = floor (u / z->span);
  size_t i = starts_below (z, u - k * z->span);
  double st, d;
  if (i > 0)
    {
      st = k * z->span + z->start[i - 1];
      d = z->len[i - 1];
    }
  else
    {
      st = (k - 1) * z->span + z->start[z->n - 1];
      d = z->len[z->n - 1];
    }
  return st + d > u ? st + d - u : 0;
}

/* EXP: the detours of STREAM starting in block J that meet [u, u + x).  */
static double
exp_block (struct dag_noise *z, uint64_t stream, int64_t j, double u,
           double x)
{
  double b = EXP_BLOCK * z->mean, s = (double) j * b, end = s + b;
  gsl_rng *g = z->rng;
  uint64_t key = dag_mix64 (z->seed ^ dag_mix64 (stream + 1)
                            ^ dag_mix64 ((uint64_t) j * 2 + 1));
  gsl_rng_set (g, (unsigned long) (key | 1));
  double sum = 0;
  for (;;)
    {
      s += gsl_ran_exponential (g, z->mean);
      if (s >= end || s >= u + x)
        break;
      if (s >= u)
        sum += z->detour;
      else if (s + z->detour > u)
        sum += s + z->detour - u;
    }
  return sum;
}

double
dag_noise_delay (struct dag_noise *z, int32_t rank, double t, double x)
{
  if (z->kind == DAG_NOISE_NONE)
    return 0;
  double u = t + z->off[z->noff > 1 ? (size_t) rank : 0];
  if (z->kind != DAG_NOISE_EXP)
    return full_below (z, u + x) - full_below (z, u) + in_progress (z, u);
  double b = EXP_BLOCK * z->mean;
  double lo = floor ((u - z->detour) / b), hi = floor ((u + x) / b);
  if (lo < 0)
    lo = 0;
  uint64_t stream = z->cosched ? 0 : (uint64_t) rank;
  double sum = 0;
  for (double j = lo; j <= hi; j++)
    sum += exp_block (z, stream, (int64_t) j, u, x);
  return sum;
}
