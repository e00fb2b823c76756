/* SPDX-License-Identifier: GPL-3.0-or-later */
/* linkshare.h: messages that share links, each link's bandwidth
 * divided among the messages on it at every instant by max-min
 * fairness (progressive filling: Bertsekas and Gallager, Data
 * Networks, 2nd ed., 1992, section 6.5.2), the rates computed again
 * whenever a message starts or ends.  This is the fluid model of
 * flow-level network simulators (SimGrid's "LV08" network model:
 * Velho and Legrand, "Accuracy study and improvement of network
 * simulation in the SimGrid framework", SIMUTools 2009), and what a
 * switch port that interleaves the packets of several TCP streams
 * gives each of them over times long against a packet.
 *
 * A flow is WORK bytes that start at a time and cross a set of links,
 * each of a capacity in bytes per time unit, at no more than the
 * flow's own cap.  The state moves forward to a time (lshare_advance);
 * the end of every flow not yet ended, were no other flow added, is
 * found on a copy (lshare_project).  Pure: no I/O, no exit.  */
#ifndef MSGPERF_LINKSHARE_H
#define MSGPERF_LINKSHARE_H

#include <stddef.h>
#include <stdint.h>

struct lshare_flow
{
  double start;        /* when its first byte may move */
  double work;         /* its bytes */
  double rem;          /* bytes still to move */
  double cap;          /* its own most bytes per time unit (inf: none) */
  double rate;         /* its rate since the state's last change */
  double end;          /* when it ended (NaN: not yet) */
  size_t off;          /* its links: lnk[off .. off + nl - 1] */
  int32_t nl;
  int32_t bott;        /* the link whose share set its rate last (-1:
                          its own cap) */
  double proj;         /* its end as lshare_project last found it */
};

struct lshare
{
  double *lcap;        /* per link: bytes per time unit (inf: no limit) */
  size_t nlinks;
  double now;          /* the state's time */
  struct lshare_flow *f;
  size_t nf, fcap;
  int32_t *lnk;        /* the flows' links, end to end */
  size_t nlnk, lnkcap;
  size_t *open;        /* flows not yet ended, in the order added */
  size_t nopen, opencap;
  /* scratch of the rate computation, per link (nused links in used) */
  double *rc;
  int32_t *cnt, *used;
  size_t nused;
  /* scratch of lshare_project: the open flows' copies */
  struct lshare_flow *pf;
  size_t *pidx, pcap;
  /* per link, the time some flow was on it (busy), when asked */
  double *busy;
};

/* A state of NLINKS links whose capacities are set by lshare_link_cap
   before a flow uses them (default: no limit); BUSY: keep busy times.  */
void lshare_init (struct lshare *s, size_t nlinks, int busy);
void lshare_free (struct lshare *s);

/* Add a flow of WORK bytes over the NL links LINKS, starting at START
   (>= the state's time), at most CAP bytes per time unit.  Returns its
   index (flows are numbered from 0 in the order added).  */
size_t lshare_add (struct lshare *s, double start, double work,
                   const int32_t *links, int32_t nl, double cap);

/* Move the state forward to T (no earlier than its time): flows start,
   move and end as the rates say.  */
void lshare_advance (struct lshare *s, double t);

/* The end of every flow not yet ended, were no other flow added: the
   proj of each flow of open (the state itself does not move).  */
void lshare_project (struct lshare *s);

#endif
