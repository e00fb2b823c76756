/* SPDX-License-Identifier: GPL-3.0-or-later */
/* noise.h: operating-system noise as detours of the CPU (dag-predict
   --noise, --noise-trace), a pure model: the detours a rank's CPU work
   meets, from a trace of detours or from a seeded synthetic source.

   A detour is an interval [s, s + d) in which the CPU runs something
   else.  CPU work of length x starting at t on rank r (a computation, a
   send or receive overhead) is lengthened by every detour that starts in
   [t, t + x) and by what is left of one in progress at t, in the rank's
   noise time t + phase_r: LogGOPSim's rule (the lengthened work does not
   meet further detours).  Co-scheduled noise gives every rank the same
   phase, so their detours coincide.  */
#ifndef MSGPERF_NOISE_H
#define MSGPERF_NOISE_H

#include <stddef.h>
#include <stdint.h>

enum dag_noise_kind
{
  DAG_NOISE_NONE = 0,
  DAG_NOISE_TRACE,     /* detours read from a trace, repeated */
  DAG_NOISE_PERIODIC,  /* one detour every period */
  DAG_NOISE_EXP        /* detours at exponential intervals (Poisson) */
};

struct dag_noise
{
  int kind;
  double detour;       /* PERIODIC, EXP: the length of every detour */
  double period;       /* PERIODIC: between detour starts */
  double mean;         /* EXP: mean interval between detour starts */
  /* TRACE: the detours, starts ascending, none overlapping the next;
     they repeat every span = the end of the last one.  */
  const double *start, *len;
  size_t n;
  /* Phases: all ranks PHASE when phase_given (PERIODIC: the first
     detour starts at PHASE), else drawn uniformly over one period of
     the source (TRACE: its span; PERIODIC: its period) from SEED, one
     for all ranks when COSCHED, else one per rank.  EXP: a stream of
     detours per rank from SEED, the same for all when COSCHED.  */
  int cosched;
  int phase_given;
  double phase;
  uint64_t seed;
  /* set by dag_noise_init (Z must not move afterwards) */
  double span;
  double one_start, one_len;   /* PERIODIC: its detour as a trace */
  void *rng;                   /* EXP: a gsl_rng */
  double *cum;         /* TRACE: cum[i] = len[0] + ... + len[i-1] */
  double *off;         /* per rank (or one when shared): noise time
                          minus simulated time */
  size_t noff;
};

/* Check Z's parameters and draw its phases for NRANKS ranks.  Returns
   NULL, or what is wrong (a static message) -- a trace whose starts
   descend or whose detours overlap: *BAD is then the index of the
   offending detour.  */
const char *dag_noise_init (struct dag_noise *z, int64_t nranks,
                            size_t *bad);
void dag_noise_free (struct dag_noise *z);

/* The extra time CPU work of length X starting at T on RANK takes.  */
double dag_noise_delay (struct dag_noise *z, int32_t rank, double t,
                        double x);

#endif
