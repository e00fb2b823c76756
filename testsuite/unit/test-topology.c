/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-topology: the links and routes of common/dag/topology.h: rank
 * names, refused links, shortest routes with ties broken by link
 * order, the cache, ranks beyond a schedule, and the routes of a DAG's
 * messages.  */
#include <config.h>

#include <math.h>
#include <stdint.h>

#include "dag.h"
#include "topology.h"
#include "unit.h"

/* Add FROM -> TO with the model's G and no extra latency.  */
static enum dag_topo_status
add (struct dag_topo *t, const char *from, const char *to)
{
  size_t which;
  return dag_topo_add (t, from, to, NAN, 0, &which);
}

/* Is the route from SRC to DST the N links WANT?  */
static int
route_is (struct dag_topo *t, int32_t src, int32_t dst, size_t n,
          const int32_t *want)
{
  const int32_t *links;
  size_t k;
  if (dag_topo_route (t, src, dst, &links, &k) != DAG_TOPO_OK || k != n)
    return 0;
  for (size_t i = 0; i < n; i++)
    if (links[i] != want[i])
      return 0;
  return 1;
}

static void
test_rank_names (void)
{
  int64_t r = -7;
  CHECK (dag_topo_rank_name ("0", &r) == 1 && r == 0);
  CHECK (dag_topo_rank_name ("17", &r) == 1 && r == 17);
  CHECK (dag_topo_rank_name ("2147483646", &r) == 1 && r == 2147483646);
  CHECK (dag_topo_rank_name ("2147483647", &r) == -1);
  CHECK (dag_topo_rank_name ("07", &r) == -1);
  CHECK (dag_topo_rank_name ("00", &r) == -1);
  CHECK (dag_topo_rank_name ("sw", &r) == 0);
  CHECK (dag_topo_rank_name ("1a", &r) == 0);
  CHECK (dag_topo_rank_name ("-1", &r) == 0);
  CHECK (dag_topo_rank_name ("", &r) == 0);
}

static void
test_refused (void)
{
  struct dag_topo t;
  dag_topo_init (&t);
  size_t which = 99;
  CHECK (dag_topo_add (&t, "0", "sw", 1, 2, &which) == DAG_TOPO_OK);
  CHECK (t.nlinks == 1 && t.link[0].G == 1 && t.link[0].L == 2);
  CHECK (dag_topo_add (&t, "sw", "1", NAN, 0, &which) == DAG_TOPO_OK);
  CHECK (isnan (t.link[1].G));
  CHECK (dag_topo_add (&t, "sw", "sw", 0, 0, &which) == DAG_TOPO_SELF);
  CHECK (dag_topo_add (&t, "3", "3", 0, 0, &which) == DAG_TOPO_SELF);
  CHECK (dag_topo_add (&t, "sw", "1", 5, 0, &which) == DAG_TOPO_DUPLICATE
         && which == 1);
  /* the other direction is another link */
  CHECK (dag_topo_add (&t, "1", "sw", 0, 0, &which) == DAG_TOPO_OK);
  CHECK (dag_topo_add (&t, "01", "sw", 0, 0, &which) == DAG_TOPO_BADRANK
         && which == 0);
  CHECK (dag_topo_add (&t, "sw", "007", 0, 0, &which) == DAG_TOPO_BADRANK
         && which == 1);
  CHECK (t.nlinks == 3 && t.nnodes == 3);
  CHECK_STR (dag_topo_name (&t, 1), "sw");
  CHECK (t.rank[0] == 0 && t.rank[1] == -1 && t.rank[2] == 1);
  CHECK (t.first_link[0] == 0 && t.first_link[1] == 0
         && t.first_link[2] == 1);
  dag_topo_free (&t);
}

/* Ranks 0, 1 under switch s1, 2, 3 under s2, an uplink each way.  */
static void
two_switches (struct dag_topo *t)
{
  dag_topo_init (t);
  add (t, "0", "s1");     /* 0 */
  add (t, "s1", "0");     /* 1 */
  add (t, "1", "s1");     /* 2 */
  add (t, "s1", "1");     /* 3 */
  add (t, "2", "s2");     /* 4 */
  add (t, "s2", "2");     /* 5 */
  add (t, "3", "s2");     /* 6 */
  add (t, "s2", "3");     /* 7 */
  add (t, "s1", "s2");    /* 8 */
  add (t, "s2", "s1");    /* 9 */
  dag_topo_finish (t);
}

static void
test_routes (void)
{
  struct dag_topo t;
  two_switches (&t);
  CHECK (route_is (&t, 0, 2, 3, (const int32_t[]) { 0, 8, 5 }));
  CHECK (route_is (&t, 0, 1, 2, (const int32_t[]) { 0, 3 }));
  CHECK (route_is (&t, 3, 1, 3, (const int32_t[]) { 6, 9, 3 }));
  /* cached, and found again after another source's search */
  CHECK (route_is (&t, 0, 2, 3, (const int32_t[]) { 0, 8, 5 }));
  CHECK (route_is (&t, 2, 0, 3, (const int32_t[]) { 4, 9, 1 }));
  CHECK (route_is (&t, 0, 3, 3, (const int32_t[]) { 0, 8, 7 }));
  /* to itself: no link, even for a rank the topology does not name */
  CHECK (route_is (&t, 1, 1, 0, NULL));
  CHECK (route_is (&t, 9, 9, 0, NULL));
  /* ranks without a node */
  const int32_t *links;
  size_t k = 9;
  CHECK (dag_topo_route (&t, 0, 4, &links, &k) == DAG_TOPO_NOROUTE
         && k == 0);
  CHECK (dag_topo_route (&t, 1000, 0, &links, &k) == DAG_TOPO_NOROUTE);
  CHECK (dag_topo_route (&t, -1, 0, &links, &k) == DAG_TOPO_NOROUTE);
  CHECK (dag_topo_rank_over (&t, 4) == -1);
  CHECK (dag_topo_rank_over (&t, 3) == 5);   /* rank 3, the 6th node */
  CHECK (dag_topo_rank_over (&t, 1) == 2);   /* rank 1 comes first */
  dag_topo_free (&t);
}

/* The hosts of one switch share its search; a rank with one link
   straight to another rank is routed by it.  */
static void
test_shared_search (void)
{
  struct dag_topo t;
  two_switches (&t);
  CHECK (route_is (&t, 0, 2, 3, (const int32_t[]) { 0, 8, 5 }));
  CHECK (route_is (&t, 1, 2, 3, (const int32_t[]) { 2, 8, 5 }));
  CHECK (route_is (&t, 1, 0, 2, (const int32_t[]) { 2, 1 }));
  CHECK (route_is (&t, 0, 3, 3, (const int32_t[]) { 0, 8, 7 }));
  CHECK (t.searches == 1);
  CHECK (route_is (&t, 3, 0, 3, (const int32_t[]) { 6, 9, 1 }));
  CHECK (t.searches == 2);
  dag_topo_free (&t);

  dag_topo_init (&t);
  add (&t, "0", "1");
  add (&t, "1", "2");
  add (&t, "2", "0");
  dag_topo_finish (&t);
  CHECK (route_is (&t, 0, 1, 1, (const int32_t[]) { 0 }));
  CHECK (route_is (&t, 0, 2, 2, (const int32_t[]) { 0, 1 }));
  CHECK (route_is (&t, 2, 1, 2, (const int32_t[]) { 2, 0 }));
  dag_topo_free (&t);
}

/* Equal-length paths: the one whose first link comes first in the file;
   a direction without links has no route; a rank forwards.  */
static void
test_ties (void)
{
  struct dag_topo t;
  dag_topo_init (&t);
  add (&t, "0", "b");     /* 0 */
  add (&t, "0", "a");     /* 1 */
  add (&t, "a", "1");     /* 2 */
  add (&t, "b", "1");     /* 3 */
  add (&t, "1", "2");     /* 4 */
  dag_topo_finish (&t);
  CHECK (route_is (&t, 0, 1, 2, (const int32_t[]) { 0, 3 }));
  CHECK (route_is (&t, 0, 2, 3, (const int32_t[]) { 0, 3, 4 }));
  const int32_t *links;
  size_t k;
  CHECK (dag_topo_route (&t, 1, 0, &links, &k) == DAG_TOPO_NOROUTE);
  CHECK (dag_topo_route (&t, 2, 1, &links, &k) == DAG_TOPO_NOROUTE);
  dag_topo_free (&t);

  /* the same links in the other order: the route through a */
  dag_topo_init (&t);
  add (&t, "0", "a");
  add (&t, "0", "b");
  add (&t, "a", "1");
  add (&t, "b", "1");
  dag_topo_finish (&t);
  CHECK (route_is (&t, 0, 1, 2, (const int32_t[]) { 0, 2 }));
  dag_topo_free (&t);

  /* fewer hops win over file order: 0 -> 1 direct, listed last */
  dag_topo_init (&t);
  add (&t, "0", "x");
  add (&t, "x", "y");
  add (&t, "y", "1");
  add (&t, "0", "1");
  dag_topo_finish (&t);
  CHECK (route_is (&t, 0, 1, 1, (const int32_t[]) { 3 }));
  dag_topo_free (&t);
}

/* Every message of a DAG routed, or the first pair without a route.  */
static void
test_route_dag (void)
{
  struct dag_topo t;
  two_switches (&t);
  struct dag d;
  dag_init (&d, "test");
  dag_add_send (&d, 0, 3, 8, 0, -1, 0);
  dag_add_recv (&d, 3, 0, 8, 0, -1, 0);
  dag_add_send (&d, 2, 2, 8, 1, -1, 0);
  dag_add_recv (&d, 2, 2, 8, 1, -1, 0);
  int32_t a = -1, b = -1;
  CHECK (dag_topo_route_dag (&t, &d, &a, &b) == DAG_TOPO_OK);
  CHECK (dag_topo_nroutes (&t) == 1);   /* 0 -> 3 only: a rank to itself needs none */
  dag_add_send (&d, 1, 4, 8, 2, -1, 0);
  dag_add_recv (&d, 4, 1, 8, 2, -1, 0);
  CHECK (dag_topo_route_dag (&t, &d, &a, &b) == DAG_TOPO_NOROUTE
         && a == 1 && b == 4);
  dag_free (&d);
  dag_topo_free (&t);

  /* messages alternating between the switches: one search from each,
     the routes the same as one at a time */
  two_switches (&t);
  dag_init (&d, "test");
  static const int32_t pairs[][2] = { { 0, 2 }, { 2, 0 }, { 1, 3 },
                                      { 3, 1 }, { 0, 3 }, { 0, 2 } };
  for (int i = 0; i < 6; i++)
    {
      dag_add_send (&d, pairs[i][0], pairs[i][1], 8, i, -1, 0);
      dag_add_recv (&d, pairs[i][1], pairs[i][0], 8, i, -1, 0);
    }
  CHECK (dag_topo_route_dag (&t, &d, &a, &b) == DAG_TOPO_OK);
  CHECK (t.searches == 2);
  CHECK (dag_topo_nroutes (&t) == 5);
  CHECK (route_is (&t, 0, 2, 3, (const int32_t[]) { 0, 8, 5 }));
  CHECK (route_is (&t, 2, 0, 3, (const int32_t[]) { 4, 9, 1 }));
  CHECK (route_is (&t, 1, 3, 3, (const int32_t[]) { 2, 8, 7 }));
  CHECK (route_is (&t, 3, 1, 3, (const int32_t[]) { 6, 9, 3 }));
  CHECK (route_is (&t, 0, 3, 3, (const int32_t[]) { 0, 8, 7 }));
  CHECK (t.searches == 2);
  dag_free (&d);
  dag_topo_free (&t);

  /* more messages than the list of pairs holds at first (1024): the
     repeated pairs dropped on the way */
  two_switches (&t);
  dag_init (&d, "test");
  for (int i = 0; i < 3000; i++)
    {
      int32_t x = i % 4, y = (i / 4) % 4;
      dag_add_send (&d, x, y, 8, i, -1, 0);
      dag_add_recv (&d, y, x, 8, i, -1, 0);
    }
  CHECK (dag_topo_route_dag (&t, &d, &a, &b) == DAG_TOPO_OK);
  CHECK (dag_topo_nroutes (&t) == 12);
  CHECK (t.searches == 2);
  dag_free (&d);
  dag_topo_free (&t);
}

int
main (void)
{
  test_rank_names ();
  test_refused ();
  test_routes ();
  test_shared_search ();
  test_ties ();
  test_route_dag ();
  return unit_done ();
}
