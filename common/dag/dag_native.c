/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dag_native.c: the native TSV schedule format of dag-predict.
 *
 * Rows `task` become CALC operations; a `msg` row between tasks on two
 * processors becomes a SEND after its source task and a RECV before its
 * destination task (matched by a tag unique to the row); a `msg` between
 * tasks on one processor, and a `dep` row, become plain dependencies.
 * Edges may name tasks defined later in the stream.  */
#define _POSIX_C_SOURCE 200809L
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dag_parse.h"
#include "err.h"
#include "xalloc.h"
#include "num.h"

struct pend
{
  size_t from, to;       /* offsets in the string buffer */
  int64_t bytes;         /* -1: dependency without data */
  long line;
  long col_from, col_to;
  const char *src;
};

struct native
{
  struct dag *d;
  struct strmap ids;
  struct pend *e;
  size_t ne, ecap;
  char *buf;
  size_t blen, bcap;
};

static size_t
save_str (struct native *nt, const char *s, size_t len)
{
  if (nt->blen + len + 1 > nt->bcap)
    {
      size_t cap = nt->bcap ? nt->bcap : 4096;
      while (cap < nt->blen + len + 1)
        cap *= 2;
      nt->buf = xrealloc (nt->buf, cap);
      nt->bcap = cap;
    }
  size_t off = nt->blen;
  memcpy (nt->buf + off, s, len);
  nt->buf[off + len] = '\0';
  nt->blen += len + 1;
  return off;
}

static void
add_task (struct native *nt, tsv_reader *r, size_t cid, size_t cproc,
          size_t cwork)
{
  const char *id = tsv_field (r, cid);
  size_t idlen = tsv_field_len (r, cid);
  if (tsv_is_na (r, cid))
    tsv_die_field (r, cid, "a task needs an id, not NA");
  int64_t proc = tsv_int (r, cproc);
  if (proc < 0 || proc > INT32_MAX - 1)
    tsv_die_field (r, cproc, "processor '%s' out of range (0 to %d)",
                   tsv_field (r, cproc), INT32_MAX - 1);
  double work = tsv_num (r, cwork, 0);
  if (work < 0)
    tsv_die_field (r, cwork, "negative time '%s'", tsv_field (r, cwork));
  int32_t name = dag_intern (nt->d, id, idlen);
  int32_t v = dag_add_calc (nt->d, (int32_t) proc, work, name,
                            (int32_t) tsv_lineno (r));
  if (strmap_put (&nt->ids, 0, id, idlen, v) >= 0)
    tsv_die_field (r, cid, "duplicate task id '%s'", id);
}

static void
add_pend (struct native *nt, tsv_reader *r, size_t cfrom, size_t cto,
          long cbytes)
{
  if (nt->ne == nt->ecap)
    {
      nt->ecap = nt->ecap ? 2 * nt->ecap : 1024;
      nt->e = xrealloc (nt->e, nt->ecap * sizeof *nt->e);
    }
  struct pend *p = &nt->e[nt->ne++];
  p->from = save_str (nt, tsv_field (r, cfrom), tsv_field_len (r, cfrom));
  p->to = save_str (nt, tsv_field (r, cto), tsv_field_len (r, cto));
  p->bytes = -1;
  if (cbytes >= 0 && !tsv_is_na (r, (size_t) cbytes))
    {
      p->bytes = tsv_int (r, (size_t) cbytes);
      if (p->bytes < 0)
        tsv_die_field (r, (size_t) cbytes, "negative message size '%s'",
                       tsv_field (r, (size_t) cbytes));
    }
  p->line = tsv_lineno (r);
  p->col_from = (long) cfrom + 1;
  p->col_to = (long) cto + 1;
  p->src = tsv_name (r);
}

static void
resolve (struct native *nt)
{
  struct dag *d = nt->d;
  int64_t tag = 0;
  for (size_t i = 0; i < nt->ne; i++)
    {
      struct pend *p = &nt->e[i];
      const char *fs = nt->buf + p->from, *ts = nt->buf + p->to;
      int32_t a = strmap_get (&nt->ids, 0, fs, strlen (fs));
      if (a < 0)
        die_at (p->src, p->line, p->col_from, "unknown task id '%s'", fs);
      int32_t b = strmap_get (&nt->ids, 0, ts, strlen (ts));
      if (b < 0)
        die_at (p->src, p->line, p->col_to, "unknown task id '%s'", ts);
      if (p->bytes < 0)
        dag_add_edge (d, a, b, DAG_REQUIRES);
      else
        dag_add_message (d, a, b, p->bytes, &tag, (int32_t) p->line);
    }
}

static void
native_free (struct native *nt)
{
  strmap_free (&nt->ids);
  free (nt->e);
  free (nt->buf);
  memset (nt, 0, sizeof *nt);
}

/* The reader's state is static so that a read that died through err.h is
   freed by the next one instead of leaking (fuzzing).  */
static struct native live;

static struct native *
native_begin (struct dag *d)
{
  native_free (&live);
  live.d = d;
  return &live;
}

void
dag_read_native (tsv_reader *r, struct dag *d)
{
  struct native *nt = native_begin (d);
  size_t ckind = tsv_col_required (r, "kind");
  long cid = tsv_col (r, "id"), cproc = tsv_col (r, "proc");
  long cwork = tsv_col (r, "work"), cfrom = tsv_col (r, "from");
  long cto = tsv_col (r, "to"), cbytes = tsv_col (r, "bytes");
  while (tsv_next (r))
    {
      const char *kind = tsv_field (r, ckind);
      if (strcmp (kind, "task") == 0)
        {
          if (cid < 0 || cproc < 0 || cwork < 0)
            tsv_die_field (r, ckind, "a 'task' row needs the columns "
                           "id, proc and work");
          add_task (nt, r, (size_t) cid, (size_t) cproc, (size_t) cwork);
        }
      else if (strcmp (kind, "msg") == 0 || strcmp (kind, "dep") == 0)
        {
          int msg = kind[0] == 'm';
          if (cfrom < 0 || cto < 0 || (msg && cbytes < 0))
            tsv_die_field (r, ckind, "a '%s' row needs the columns from, "
                           "to%s", kind, msg ? " and bytes" : "");
          if (msg && tsv_is_na (r, (size_t) cbytes))
            tsv_die_field (r, (size_t) cbytes, "a 'msg' row needs a "
                           "size in bytes, not NA");
          add_pend (nt, r, (size_t) cfrom, (size_t) cto,
                    msg ? cbytes : -1);
        }
      else
        tsv_die_field (r, ckind, "unknown kind '%s' (expected task, msg "
                       "or dep)", kind);
    }
  resolve (nt);
  native_free (nt);
}

void
dag_read_native2 (tsv_reader *tasks, tsv_reader *edges, struct dag *d)
{
  struct native *nt = native_begin (d);
  size_t cid = tsv_col_required (tasks, "id");
  size_t cproc = tsv_col_required (tasks, "proc");
  size_t cwork = tsv_col_required (tasks, "work");
  while (tsv_next (tasks))
    add_task (nt, tasks, cid, cproc, cwork);
  if (edges)
    {
      size_t cfrom = tsv_col_required (edges, "from");
      size_t cto = tsv_col_required (edges, "to");
      long cbytes = tsv_col (edges, "bytes");
      while (tsv_next (edges))
        add_pend (nt, edges, cfrom, cto, cbytes);
    }
  resolve (nt);
  native_free (nt);
}

void
dag_parse_native_text (const char *text, size_t len, const char *name,
                       struct dag *d)
{
  /* static: a stream left open by a read that died is closed here */
  static FILE *fp;
  if (fp)
    fclose (fp);
  fp = len ? fmemopen ((void *) text, len, "r") : fopen ("/dev/null", "r");
  if (!fp)
    die ("%s: cannot read the text: %s", name, strerror (errno));
  tsv_reader *r = tsv_open_stream (fp, name);
  dag_read_native (r, d);
  tsv_close (r);
  fclose (fp);
  fp = NULL;
}
