/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-logpc: unit tests of common/models/logpc/kcube.c and common/models/logpc/logpc.c against the
 * numbers of Moritz and Frank's paper and against brute force.  */
#include <config.h>

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kcube.h"
#include "logpc.h"
#include "unit.h"

/* Brute-force average distance of uniform traffic over all node pairs.  */
static double
brute_uniform (const struct kcube *t, int exclude_self)
{
  int64_t N = kcube_nodes (t);
  double sum = 0, pairs = 0;
  for (int64_t a = 0; a < N; a++)
    for (int64_t b = 0; b < N; b++)
      {
        if (exclude_self && a == b)
          continue;
        sum += (double) kcube_hops (t, a, b, NULL);
        pairs += 1;
      }
  return sum / pairs;
}

static void
test_topology (void)
{
  struct kcube t = { 0 };
  double pd[KCUBE_MAXDIM];

  CHECK (kcube_parse_dims ("8x4", &t) == 0);
  CHECK (t.n == 2 && t.k[0] == 8 && t.k[1] == 4);
  CHECK (kcube_parse_dims ("8,4,2", &t) == 0 && t.n == 3);
  CHECK (kcube_parse_dims ("", &t) == -1);
  CHECK (kcube_parse_dims ("8x", &t) == -1);
  CHECK (kcube_parse_dims ("8x0", &t) == -1);
  CHECK (kcube_parse_dims ("x8", &t) == -1);
  CHECK (kcube_parse_dims ("8x-4", &t) == -1);
  CHECK (kcube_parse_dims ("99999999999999", &t) == -2);
  CHECK (kcube_parse_dims ("2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2", &t) == -1);

  /* eq. (11): the Alewife 4x8 mesh, 2 k_d = 3.875.  */
  kcube_parse_dims ("8x4", &t);
  t.torus = 0;
  t.bidir = 1;
  CHECK (kcube_invalid (&t) == NULL);
  CHECK (kcube_nodes (&t) == 32);
  CHECK_NEAR (kcube_avg_dist (&t, 0, pd), 3.875, 1e-15);
  CHECK_NEAR (pd[0], 63.0 / 24.0, 1e-15);
  CHECK_NEAR (pd[1], 15.0 / 12.0, 1e-15);
  CHECK_NEAR (brute_uniform (&t, 0), 3.875, 1e-12);
  /* Destinations other than the source: 3.875 * 32 / 31 = 4.  */
  CHECK_NEAR (kcube_avg_dist (&t, 1, pd), 4.0, 1e-15);
  CHECK_NEAR (brute_uniform (&t, 1), 4.0, 1e-12);
  /* Node 31 is (7, 3): 10 hops from node 0.  */
  CHECK (kcube_hops (&t, 0, 31, NULL) == 10);

  /* Closed forms against brute force on tori of even and odd radix.  */
  const char *shapes[] = { "5", "6", "5x3", "4x6x3", "7x2" };
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
    for (int torus = 0; torus <= 1; torus++)
      for (int bidir = 0; bidir <= 1; bidir++)
        {
          kcube_parse_dims (shapes[s], &t);
          t.torus = torus;
          t.bidir = bidir;
          if (kcube_invalid (&t))
            {
              CHECK (!torus && !bidir);
              continue;
            }
          CHECK_NEAR (kcube_avg_dist (&t, 0, pd), brute_uniform (&t, 0),
                      1e-12);
          CHECK_NEAR (kcube_avg_dist (&t, 1, pd), brute_uniform (&t, 1),
                      1e-12);
        }
  /* Section 4: unidirectional torus, (k - 1) / 2 per dimension.  */
  CHECK_NEAR (kcube_avg_dist1 (8, 1, 0), 3.5, 0);
  CHECK_NEAR (kcube_avg_dist1 (8, 1, 1), 2.0, 0);
  CHECK_NEAR (kcube_avg_dist1 (5, 1, 1), 24.0 / 20.0, 1e-15);
}

static void
test_mappings (void)
{
  struct kcube t = { 0 };
  double pd[KCUBE_MAXDIM];
  int64_t map[64], work[64];
  unsigned char seen[64];

  kcube_parse_dims ("8x4", &t);
  t.bidir = 1;
  kcube_map_identity (map, 32);
  /* Enumeration agrees with the closed form for a full mapping.  */
  CHECK_NEAR (kcube_avg_dist_map (&t, map, 32, KCUBE_UNIFORM, 0, 0, pd),
              3.875, 1e-12);
  CHECK_NEAR (kcube_avg_dist_map (&t, map, 32, KCUBE_UNIFORM, 0, 1, pd),
              4.0, 1e-12);
  /* eq. (12) on the identity numbering: 28 neighbour pairs 1 hop apart,
     3 row changes of 8 hops and the ring's closing pair (31, 0) of 10:
     (28 + 24 + 10) * 2 / 64 = 1.9375.  */
  CHECK_NEAR (kcube_avg_dist_map (&t, map, 32, KCUBE_NEIGHBOR, 0, 0, pd),
              1.9375, 1e-15);
  /* span=1: every destination is one hop away.  */
  CHECK_NEAR (kcube_avg_dist_map (&t, map, 32, KCUBE_SPAN, 1, 0, pd), 1.0,
              1e-15);
  /* A span covering the whole mesh is uniform traffic without self.  */
  CHECK_NEAR (kcube_avg_dist_map (&t, map, 32, KCUBE_SPAN, 10, 0, pd), 4.0,
              1e-12);
  CHECK (kcube_avg_dist_map (&t, map, 1, KCUBE_NEIGHBOR, 0, 0, pd) < 0);
  CHECK (kcube_avg_dist_map (&t, map, 1, KCUBE_UNIFORM, 0, 1, pd) < 0);

  /* A snake numbering puts consecutive ranks next to each other: the
     only long hop closes the ring, (0,3) back to (0,0).  */
  for (int y = 0; y < 4; y++)
    for (int x = 0; x < 8; x++)
      map[y * 8 + x] = y * 8 + (y % 2 ? 7 - x : x);
  memset (seen, 0, sizeof seen);
  CHECK (kcube_map_check (map, 32, 32, seen) == -1);
  CHECK_NEAR (kcube_avg_dist_map (&t, map, 32, KCUBE_NEIGHBOR, 0, 0, pd),
              (31 * 2 + 3 * 2) / 64.0, 1e-15);

  /* Random mappings: a permutation, reproducible from the seed.  */
  int64_t map2[64];
  kcube_map_random (map, 32, 32, 7, work);
  kcube_map_random (map2, 32, 32, 7, work);
  memset (seen, 0, sizeof seen);
  CHECK (kcube_map_check (map, 32, 32, seen) == -1);
  CHECK (memcmp (map, map2, sizeof map[0] * 32) == 0);
  kcube_map_random (map2, 32, 32, 8, work);
  CHECK (memcmp (map, map2, sizeof map[0] * 32) != 0);
  /* Still uniform: the pairs are the same.  */
  CHECK_NEAR (kcube_avg_dist_map (&t, map, 32, KCUBE_UNIFORM, 0, 0, pd),
              3.875, 1e-12);
  /* A partial mapping of 10 ranks.  */
  kcube_map_random (map, 10, 32, 3, work);
  memset (seen, 0, sizeof seen);
  CHECK (kcube_map_check (map, 10, 32, seen) == -1);
  map[3] = map[2];
  memset (seen, 0, sizeof seen);
  CHECK (kcube_map_check (map, 10, 32, seen) == 3);
  map[3] = 32;
  memset (seen, 0, sizeof seen);
  CHECK (kcube_map_check (map, 10, 32, seen) == 3);
}

static void
test_contention (void)
{
  struct logpc_net net;
  struct logpc_contention c;

  logpc_net_set (&net, 2, 1.9375, 1);
  /* eq. (4) and the saturation rate.  */
  CHECK_NEAR (logpc_rho (&net, 200, 0.001), 0.19375, 1e-15);
  CHECK_NEAR (logpc_saturation_rate (&net, 200), 2 / (200 * 1.9375), 1e-18);
  CHECK (logpc_contention (&net, 200, 0.001, &c) == LOGPC_OK);
  /* eq. (5) written out against eq. (3) as computed.  */
  double m = 0.001, B = 200, kd = 1.9375, n = 2;
  double wb5 = (m * B * B / 2) / (1 - m * B * kd / 2) * (kd - 1) / kd
               * (1 + 1 / n);
  CHECK_NEAR (c.wb, wb5, 1e-12);
  CHECK_NEAR (c.Cn, n * kd * wb5, 1e-12);                 /* eq. (6) */
  /* eq. (9)'s contention term is the same quantity.  */
  CHECK_NEAR (c.Cn, (n + 1) * (kd - 1) * B * B * m / 2
                    / (1 - m * B * kd / 2), 1e-12);
  CHECK_NEAR (logpc_cn (&net, B, m), c.Cn, 0);
  CHECK (logpc_contention (&net, 200, 0.01, &c) == LOGPC_SATURATED);
  CHECK_NEAR (c.rho, 1.9375, 1e-15);
  CHECK (isnan (logpc_cn (&net, 200, 0.01)));
  CHECK (logpc_contention (&net, 0, 0.01, &c) == LOGPC_DOMAIN);
  CHECK (logpc_contention (&net, 10, -1, &c) == LOGPC_DOMAIN);
  CHECK (logpc_contention (&net, 10, NAN, &c) == LOGPC_DOMAIN);
  /* No traffic, no contention.  */
  CHECK (logpc_contention (&net, 10, 0, &c) == LOGPC_OK && c.Cn == 0);
  /* Unidirectional channels: half the channels, twice rho.  */
  struct logpc_net uni;
  logpc_net_set (&uni, 2, 1.9375, 0);
  CHECK_NEAR (logpc_rho (&uni, 200, 0.001), 2 * 0.19375, 1e-15);
  /* k_d <= 1: the (k_d - 1) factor is clamped at zero.  */
  struct logpc_net near;
  logpc_net_set (&near, 2, 0.9, 1);
  CHECK (logpc_contention (&near, 100, 0.001, &c) == LOGPC_OK);
  CHECK (c.clamped && c.Cn == 0);
}

static void
test_closed (void)
{
  struct logpc_net net;
  struct logpc_contention c;
  logpc_net_set (&net, 2, 1.9375, 1);

  /* The root satisfies eq. (7) and lies below saturation, for rates far
     below and far above the open model's saturation.  */
  double Ts[] = { 1e-3, 0.5, 10, 100, 1000, 1e6 };
  double Bs[] = { 1, 8, 100, 1000, 32000 };
  for (size_t i = 0; i < sizeof Ts / sizeof Ts[0]; i++)
    for (size_t j = 0; j < sizeof Bs / sizeof Bs[0]; j++)
      for (double mult = 1; mult <= 2; mult++)
        {
          double T = Ts[i], B = Bs[j];
          CHECK (logpc_closed (&net, B, T, mult, &c) == LOGPC_OK);
          CHECK (c.m > 0 && c.m < c.m_sat && c.rho < 1);
          CHECK_NEAR (c.m * (T + mult * c.Cn), 1.0, 1e-9);
          CHECK_NEAR (c.Tc, T + mult * c.Cn, 1e-9 * c.Tc);
          /* and the quadratic.  */
          double q = c.qa * c.m * c.m + c.qb * c.m + c.qc;
          CHECK_NEAR (q, 0, 1e-9 * (fabs (c.qb * c.m) + 1));
          CHECK (c.m <= 1 / T);
        }
  CHECK (logpc_closed (&net, 10, 0, 1, &c) == LOGPC_DOMAIN);
  CHECK (logpc_closed (&net, 10, -1, 1, &c) == LOGPC_DOMAIN);
  CHECK (logpc_closed (&net, 0, 1, 1, &c) == LOGPC_DOMAIN);
  /* Without the contention term (k_d <= 1) a message that occupies a
     channel longer than T saturates it: no stable solution.  */
  struct logpc_net near;
  logpc_net_set (&near, 2, 1.0, 1);
  CHECK (logpc_closed (&near, 100, 10, 1, &c) == LOGPC_SATURATED);
  CHECK (logpc_closed (&near, 100, 1000, 1, &c) == LOGPC_OK);
  CHECK_NEAR (c.m, 1e-3, 1e-18);
  CHECK (c.Cn == 0);
}

static void
test_paper (void)
{
  struct logpc_net net;
  struct logpc_bound b;
  struct logpc_machine p;
  struct logpc_remap r;

  /* Section 3.4: the Alewife bound.  */
  logpc_net_set (&net, 2, 3.875 / 2, 1);
  CHECK (logpc_bound (&net, 0.5, &b) == LOGPC_OK);
  /* 0.4375 y^2 + 1.96875 y - 1 = 0, y = m_c B.  */
  double y = 2 / (1.96875 + sqrt (1.96875 * 1.96875 + 4 * 0.4375));
  CHECK_NEAR (b.mcB, y, 1e-15);
  CHECK_NEAR (b.inflation, 1 / y, 1e-14);
  CHECK (fabs (b.inflation - 2.2) < 0.05);
  /* With the source excluded (k_d = 2): 1 + sqrt(6)/2, the 2.22 of
     Section 5.1.3.  */
  logpc_net_set (&net, 2, 2.0, 1);
  CHECK (logpc_bound (&net, 0.5, &b) == LOGPC_OK);
  CHECK_NEAR (b.inflation, 1 + sqrt (6) / 2, 1e-14);
  CHECK (logpc_bound (&net, 0, &b) == LOGPC_DOMAIN);

  /* Table 4 with the 2-argument message of Table 1.  */
  logpc_machine_init (&p);
  p.L = 21;
  p.os = 15;
  p.orr = 122;
  logpc_net_set (&net, 2, 3.875 / 2, 1);
  CHECK (logpc_remap_short (&net, &p, 16, NAN, &r) == LOGPC_OK);
  CHECK (r.logp_sync == 316);
  CHECK (r.Cr == 137);
  CHECK (r.lopc_sync == 453);
  CHECK (r.async == 137);
  CHECK_NEAR (r.logpc_sync, 453 + 2 * r.sync.Cn, 1e-12);
  CHECK (r.sync.Cn > 0 && r.async_c.Cn > 0);
  CHECK (logpc_remap_short (&net, &p, 16, 100, &r) == LOGPC_OK
         && r.lopc_sync == 416);

  /* Transfer times: eqs. (1), (2), (8), (10) with Table 2.  */
  p.L = 8;
  p.osl = 25;
  p.orl = 129;
  p.G = 0.5;
  p.Gm = 0.25;
  p.a = 8;
  CHECK (logpc_short (&p, 0) == 15 + 8 + 122);
  CHECK (logpc_short (&p, 3) == 15 + 8 + 122 + 3);
  CHECK (logpc_long (&p, 1000, 0) == 25 + 999 * 0.5 + 8);
  CHECK (logpc_long (&p, 1000, 7) == 25 + 999 * 0.5 + 8 + 7);
  /* Short: the interrupt path dominates; long: the network does.  */
  CHECK (logpc_e2e (&p, 100, 0) == 25 + 8 + 129 + 4 + 25);
  CHECK (logpc_e2e (&p, 10000, 0) == 25 + 8 + 9999 * 0.5);

  /* Section 5.1.3.  */
  struct logpc_remap_long rl;
  logpc_net_set (&net, 2, 2.0, 1);
  CHECK (logpc_remap_long (&net, 0.5, 4096, &rl) == LOGPC_OK);
  CHECK (rl.T == 4096);
  CHECK_NEAR (rl.Tc / 4096, 1 + sqrt (6) / 2, 1e-12);

  /* Diamond DAG, eq. (15) by hand.  */
  struct logpc_diamond_in in = { 1024, 32, 64, 100, 0, 128 };
  struct logpc_diamond d;
  p.os = 15;
  logpc_net_set (&net, 2, 0.96875, 1);
  CHECK (logpc_diamond (&net, &p, &in, &d) == LOGPC_OK);
  double wa = 1024.0 * 1024 / (32 * 64) * 100;
  double dd = 8 + 8 * 0.5, Os = 15 + 127 * 0.5, Or = (127 - 8) * 0.5;
  double u = Or + wa + dd, v = Os + wa + Or;
  CHECK_NEAR (d.M, (wa + dd) + 30 * u + 63 * v + Or + wa, 1e-9);
  /* k_d < 1 (neighbour traffic): no network contention.  */
  CHECK (d.c.Cn == 0 && d.Mc == d.M);
  logpc_net_set (&net, 2, 1.9375, 1);
  in.B = 32000;
  CHECK (logpc_diamond (&net, &p, &in, &d) == LOGPC_OK);
  CHECK_NEAR (d.c.m * (d.v + 2 * d.c.Cn), 1, 1e-9);
  CHECK_NEAR (d.Mc, d.M + (31 + 2 * 63) * d.c.Cn, 1e-6);

  /* EM3D.  */
  struct logpc_em3d e;
  p.os = 15;
  p.orr = 122;
  CHECK (logpc_em3d (&net, &p, 16, 1000, &e) == LOGPC_OK);
  CHECK (e.t_comm == 137000);
  CHECK_NEAR (e.t_comm_c, 1000 * (137 + e.c.Cn), 1e-9);
  CHECK (logpc_em3d (&net, &p, 1000, 10, &e) == LOGPC_SATURATED);
}

/* The channel time per byte Gc: the same machine in cycles and in
   microseconds (every time and Gc scaled by the clock period) gives the
   same answers scaled by the period; rates scale by its inverse.  */
static void
test_units (void)
{
  const double per = 1.0 / 33.0;   /* us per cycle: Alewife's 33 MHz */
  struct logpc_net cyc, us;
  struct logpc_contention a, b;
  logpc_net_set (&cyc, 2, 1.9375, 1);
  CHECK (cyc.Gc == 1);
  logpc_net_set (&us, 2, 1.9375, 1);
  us.Gc = per;
  CHECK_NEAR (logpc_occupancy (&us, 200), 200 * per, 1e-15);
  /* Open model: the same utilisation at the rate scaled by 1/per.  */
  CHECK (logpc_contention (&cyc, 200, 0.001, &a) == LOGPC_OK);
  CHECK (logpc_contention (&us, 200, 0.001 / per, &b) == LOGPC_OK);
  CHECK_NEAR (b.rho, a.rho, 1e-14);
  CHECK_NEAR (b.wb, a.wb * per, 1e-12 * a.wb * per);
  CHECK_NEAR (b.Cn, a.Cn * per, 1e-12 * a.Cn * per);
  CHECK_NEAR (b.m_sat, a.m_sat / per, 1e-12 * a.m_sat / per);
  CHECK_NEAR (b.s, a.s * per, 1e-15);
  /* Closed model, both multiplicities.  */
  for (double mult = 1; mult <= 2; mult++)
    {
      CHECK (logpc_closed (&cyc, 64, 300, mult, &a) == LOGPC_OK);
      CHECK (logpc_closed (&us, 64, 300 * per, mult, &b) == LOGPC_OK);
      CHECK_NEAR (b.m, a.m / per, 1e-12 * a.m / per);
      CHECK_NEAR (b.Tc, a.Tc * per, 1e-12 * a.Tc * per);
      CHECK_NEAR (b.Cn, a.Cn * per, 1e-12 * a.Cn * per);
      CHECK_NEAR (b.rho, a.rho, 1e-12);
    }
  /* The bound is dimensionless: F / (2 G) depends on G / Gc only.  */
  struct logpc_bound ba, bb;
  CHECK (logpc_bound (&cyc, 0.5, &ba) == LOGPC_OK);
  CHECK (logpc_bound (&us, 0.5 * per, &bb) == LOGPC_OK);
  CHECK_NEAR (bb.inflation, ba.inflation, 1e-12);
  CHECK_NEAR (bb.F, ba.F * per, 1e-12 * ba.F * per);
  /* Table 4 in microseconds.  */
  struct logpc_machine pc, pu;
  struct logpc_remap ra, rb;
  logpc_machine_init (&pc);
  logpc_machine_init (&pu);
  pc.L = 21, pc.os = 15, pc.orr = 122;
  pu.L = 21 * per, pu.os = 15 * per, pu.orr = 122 * per;
  CHECK (logpc_remap_short (&cyc, &pc, 16, NAN, &ra) == LOGPC_OK);
  CHECK (logpc_remap_short (&us, &pu, 16, NAN, &rb) == LOGPC_OK);
  CHECK_NEAR (rb.logpc_sync, ra.logpc_sync * per, 1e-12 * ra.logpc_sync);
  CHECK_NEAR (rb.async_c.Cn, ra.async_c.Cn * per, 1e-12 * ra.async_c.Cn);
  /* The defect this guards against: a measured cluster (us, G = 0.5 ns
     per byte) with B taken as the occupancy in us saturates an 8 x 8
     mesh at T = 1 us for 8 bytes; with Gc = G it is far from it.  */
  struct logpc_net mesh;
  logpc_net_set (&mesh, 2, 2.625, 1);   /* (k^2 - 1) / (3 k), k = 8 */
  CHECK (logpc_closed (&mesh, 8, 1.0, 1, &a) == LOGPC_OK);
  CHECK (a.rho > 0.5);                  /* Gc = 1: nonsense */
  mesh.Gc = 0.0005;
  double prev = 0;
  for (double B = 8; B <= 65536; B *= 2)
    {
      CHECK (logpc_closed (&mesh, B, 1.0, 1, &a) == LOGPC_OK);
      CHECK (isfinite (a.Cn) && a.Cn > prev && a.rho < 1);
      prev = a.Cn;
    }
  CHECK (logpc_closed (&mesh, 8, 1.0, 1, &a) == LOGPC_OK && a.rho < 0.01);
  /* Gc must be > 0.  */
  mesh.Gc = 0;
  CHECK (logpc_contention (&mesh, 8, 0.1, &a) == LOGPC_DOMAIN);
  CHECK (logpc_closed (&mesh, 8, 1.0, 1, &a) == LOGPC_DOMAIN);
  mesh.Gc = NAN;
  CHECK (logpc_contention (&mesh, 8, 0.1, &a) == LOGPC_DOMAIN);
}

int
main (void)
{
  test_topology ();
  test_mappings ();
  test_contention ();
  test_closed ();
  test_paper ();
  test_units ();
  return unit_done ();
}
