/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-props: properties of the models in common/, 1000 seeded random
   cases each (prop.h).  What the reliability issue asks of each model:
   hyperbolic T is monotone in x with T(0) = a and slope -> b, and the
   reductions are associative where the rules say so; LoGPC contention
   grows with the rate and diverges at saturation.  */
#include <config.h>

#include <float.h>

#include "hyperbolic.h"
#include "logpc.h"
#include "prop.h"

/* A block of any plausible magnitude: a from 1 ns to 1 s in us, b from
   1e-9 to 1e3 us per byte; one block in twenty has b = 0 or a = 0.  */
static struct hyper_cb
random_cb (void)
{
  struct hyper_cb cb = { prop_loguniform (1e-3, 1e6),
                         prop_loguniform (1e-9, 1e3) };
  int64_t r = prop_int (0, 39);
  if (r == 0)
    cb.b = 0;
  else if (r == 1)
    cb.a = 0;
  return cb;
}

static int
same_cb (struct hyper_cb x, struct hyper_cb y, double rel)
{
  return prop_close (x.a, y.a, rel) && prop_close (x.b, y.b, rel);
}

/* ---------------------------------------------------------- hyperbolic */

static void
hyperbolic_time (void)
{
  prop_begin ("hyperbolic: T(0) = a, monotone in x, slope -> b, bounds");
  PROP_FOR
    {
      struct hyper_cb cb = random_cb ();
      double a = cb.a, b = cb.b;
      /* T(0) = a^2 / a + 0: a to within the rounding of a^2 / a (one
         case in twelve is one ulp off).  */
      PROP_CHECK (prop_close (hyper_time (0, a, b), a, 2 * DBL_EPSILON),
                  "a=%.17g b=%.17g T(0)=%.17g", a, b, hyper_time (0, a, b));
      double x1 = prop_int (0, 3) ? prop_loguniform (1e-3, 1e12) : 0;
      double x2 = x1 * prop_uniform (1, 4) + prop_loguniform (1e-6, 1e6);
      double t1 = hyper_time (x1, a, b), t2 = hyper_time (x2, a, b);
      /* dT/dx = b (1 - a^2 / (a + b x)^2) >= 0 (eq. 2).  */
      PROP_CHECK (t1 <= t2 * (1 + 4 * DBL_EPSILON),
                  "a=%.17g b=%.17g T(%.17g)=%.17g > T(%.17g)=%.17g",
                  a, b, x1, t1, x2, t2);
      /* b x <= T <= a + b x.  */
      PROP_CHECK (b * x1 <= t1 * (1 + 4 * DBL_EPSILON)
                  && t1 <= (a + b * x1) * (1 + 4 * DBL_EPSILON),
                  "a=%.17g b=%.17g x=%.17g T=%.17g", a, b, x1, t1);
      if (b > 0 && a > 0)
        {
          /* Far beyond a/b the hyperbola is its asymptote a^2/(bx) + b x:
             the slope tends to b.  */
          double x = 1e7 * a / b;
          double slope = (hyper_time (2 * x, a, b) - hyper_time (x, a, b)) / x;
          PROP_CHECK (prop_close (slope, b, 1e-6),
                      "a=%.17g b=%.17g slope=%.17g", a, b, slope);
        }
    }
}

static void
hyperbolic_rules (void)
{
  prop_begin ("hyperbolic: Rules 1 and 2 associative and commutative");
  PROP_FOR
    {
      struct hyper_cb x = random_cb (), y = random_cb (), z = random_cb ();
      for (int link = 0; link <= 1; link++)
        {
          enum hyper_link l = link ? HYPER_DEPENDENT : HYPER_INDEPENDENT;
          struct hyper_cb s1 = hyper_serial2 (hyper_serial2 (x, y, l), z, l);
          struct hyper_cb s2 = hyper_serial2 (x, hyper_serial2 (y, z, l), l);
          struct hyper_cb s3 = hyper_serial2 (z, hyper_serial2 (y, x, l), l);
          struct hyper_cb all[3] = { x, y, z };
          struct hyper_cb sn = hyper_serial (all, 3, l);
          PROP_CHECK (same_cb (s1, s2, 4 * DBL_EPSILON)
                      && same_cb (s1, s3, 4 * DBL_EPSILON)
                      && same_cb (s1, sn, 4 * DBL_EPSILON),
                      "serial link=%d: (%g,%g) (%g,%g) (%g,%g)", link,
                      s1.a, s1.b, s2.a, s2.b, sn.a, sn.b);
          struct hyper_cb p1 = hyper_parallel2 (hyper_parallel2 (x, y, l), z, l);
          struct hyper_cb p2 = hyper_parallel2 (x, hyper_parallel2 (y, z, l), l);
          struct hyper_cb p3 = hyper_parallel2 (z, hyper_parallel2 (y, x, l), l);
          struct hyper_cb pn = hyper_parallel (all, 3, l);
          PROP_CHECK (same_cb (p1, p2, 8 * DBL_EPSILON)
                      && same_cb (p1, p3, 8 * DBL_EPSILON)
                      && same_cb (p1, pn, 8 * DBL_EPSILON),
                      "parallel link=%d: (%g,%g) (%g,%g) (%g,%g)", link,
                      p1.a, p1.b, p2.a, p2.b, pn.a, pn.b);
          /* T grows with a and with b, so a serial graph is never faster
             than one of its blocks, a parallel one never slower.  */
          double m = prop_loguniform (1, 1e9);
          double tx = hyper_time_cb (x, m), ty = hyper_time_cb (y, m);
          double ts = hyper_time_cb (hyper_serial2 (x, y, l), m);
          double tp = hyper_time_cb (hyper_parallel2 (x, y, l), m);
          PROP_CHECK (ts >= fmax (tx, ty) * (1 - 8 * DBL_EPSILON)
                      && tp <= fmin (tx, ty) * (1 + 8 * DBL_EPSILON),
                      "link=%d x=%g: T_x=%g T_y=%g serial=%g parallel=%g",
                      link, m, tx, ty, ts, tp);
        }
      /* Rule 3: k messages then j more times is k j messages.  */
      double k = (double) prop_int (1, 64), j = (double) prop_int (1, 64);
      struct hyper_cb c1 = hyper_concurrent (hyper_concurrent (x, k), j);
      struct hyper_cb c2 = hyper_concurrent (x, k * j);
      PROP_CHECK (same_cb (c1, c2, 4 * DBL_EPSILON), "k=%g j=%g", k, j);
      /* An unknown parameter stays unknown.  */
      struct hyper_cb na = { NAN, y.b };
      struct hyper_cb sna = hyper_serial2 (x, na, HYPER_INDEPENDENT);
      PROP_CHECK (isnan (sna.a), "a=%g", sna.a);
    }
}

/* ---------------------------------------------------------- LoGPC */

static void
random_net (struct logpc_net *net)
{
  logpc_net_set (net, (int) prop_int (1, 4), prop_uniform (1.05, 8),
                 (int) prop_int (0, 1));
}

static void
logpc_rate (void)
{
  prop_begin ("LoGPC: contention grows with the rate, diverges at saturation");
  PROP_FOR
    {
      struct logpc_net net;
      random_net (&net);
      double B = prop_loguniform (1, 1e5);
      double msat = logpc_saturation_rate (&net, B);
      PROP_CHECK (msat > 0 && isfinite (msat)
                  && prop_close (logpc_rho (&net, B, msat), 1, 1e-12),
                  "n=%d kd=%g B=%g m_sat=%g", net.n, net.kd, B, msat);
      double m1 = msat * prop_uniform (0, 0.999);
      double m2 = m1 + (msat - m1) * prop_uniform (0, 0.999);
      double c1 = logpc_cn (&net, B, m1), c2 = logpc_cn (&net, B, m2);
      PROP_CHECK (c1 >= 0 && c1 <= c2,
                  "n=%d kd=%g B=%g Cn(%g)=%g Cn(%g)=%g", net.n, net.kd, B,
                  m1, c1, m2, c2);
      PROP_CHECK (logpc_cn (&net, B, 0) == 0, "Cn(0)=%g",
                  logpc_cn (&net, B, 0));
      /* w_b ~ rho / (1 - rho): at 1 - 1e-6 of saturation the contention
         is some 1e5 times what it is at half of it.  */
      double half = logpc_cn (&net, B, msat / 2);
      double near = logpc_cn (&net, B, msat * (1 - 1e-6));
      PROP_CHECK (near > 1e4 * half, "n=%d kd=%g B=%g Cn(m_sat/2)=%g "
                  "Cn(0.999999 m_sat)=%g", net.n, net.kd, B, half, near);
      struct logpc_contention c;
      PROP_CHECK (logpc_contention (&net, B, msat * prop_uniform (1, 10), &c)
                  == LOGPC_SATURATED && isnan (logpc_cn (&net, B, msat * 1.5)),
                  "n=%d kd=%g B=%g", net.n, net.kd, B);
    }
}

static void
logpc_closed_model (void)
{
  prop_begin ("LoGPC: closed model m_c = 1 / (T + mult C_n(m_c))");
  PROP_FOR
    {
      struct logpc_net net;
      random_net (&net);
      double B = prop_loguniform (1, 1e5);
      double T = prop_loguniform (1e-2, 1e7);
      double mult = prop_int (1, 2);
      struct logpc_contention c, c2;
      enum logpc_status s = logpc_closed (&net, B, T, mult, &c);
      PROP_CHECK (s == LOGPC_OK, "status %d", (int) s);
      if (s != LOGPC_OK)
        continue;
      double msat = logpc_saturation_rate (&net, B);
      double cn = logpc_cn (&net, B, c.m);
      PROP_CHECK (c.m > 0 && c.m < msat
                  && prop_close (c.m * (T + mult * cn), 1, 1e-8),
                  "n=%d kd=%g B=%g T=%g mult=%g: m_c=%.17g m_sat=%.17g "
                  "Cn=%.17g", net.n, net.kd, B, T, mult, c.m, msat, cn);
      /* More work between messages, fewer messages per unit of time.  */
      double T2 = T * prop_uniform (1.001, 10);
      if (logpc_closed (&net, B, T2, mult, &c2) == LOGPC_OK)
        PROP_CHECK (c2.m <= c.m, "T=%g m_c=%g, T=%g m_c=%g", T, c.m, T2,
                    c2.m);
    }
}

int
main (void)
{
  hyperbolic_time ();
  hyperbolic_rules ();
  logpc_rate ();
  logpc_closed_model ();
  return unit_done ();
}
