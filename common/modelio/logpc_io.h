/* SPDX-License-Identifier: GPL-3.0-or-later */
/* logpc_io.h: loGPC-solve's parameters bound to the LoGPC model of
   Moritz and Frank (logpc.h, kcube.h, netspec.h): the network of a row
   (cached across rows), the --mapping file, the pLogP table's values at
   a row's size, and the subcommands that fill a row's computed columns.
   The state a run shares between rows is a struct lpc_ctx passed to
   every function.  Bad input ends the program (err.h) naming file,
   line, column and text.  */
#ifndef MSGPERF_LOGPC_IO_H
#define MSGPERF_LOGPC_IO_H

#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "kcube.h"
#include "logpc.h"
#include "netspec.h"
#include "params.h"
#include "plogp.h"
#include "tsv.h"

/* String parameters describing the network.  */
enum sparam { PS_DIMS, PS_TOPOLOGY, PS_CHANNELS, PS_TRAFFIC, NSPARAM };
extern const char *const lpc_snames[NSPARAM];

struct params
{
  struct param_set ps;       /* numeric parameters, NaN: not given */
  double P_file;             /* P of --params: not the network's rank
                                count (see network), NaN: not given */
  const char *s[NSPARAM];    /* NULL: not given */
};

/* The options the subcommands read.  */
struct lpc_opts
{
  struct params opt;          /* from options */
  struct params file;         /* from --params */
  const char *params_file;
  const char *plogp_file;     /* --plogp: a per-size table */
  const char *where;          /* --where KEY=VALUE,... */
  const char *mapping;        /* identity, random or a file */
  uint64_t seed;
  int exclude_self;
  int explain;
  int enumerate;
  const char *time_unit;
  const char *kind;           /* transfer: all, short, long, e2e */
  const char *style;          /* remap: short, long */
};

/* --plogp FILE: the per-size table of parameterized LogP (Kielmann, Bal,
   Verstoep, Section 2) and what the rows read from it.  */
struct lpc_plogp
{
  struct param_file *pf;
  size_t *rows;               /* the rows used (--where) */
  size_t n;
  struct plogp t;
  int valid;                  /* T is built */
  char conversion[128];       /* how its times were converted */
  double big, small;          /* the largest and smallest sizes read */
  int clamped;                /* Table 1's L came out negative */
};


/* The network of one row, cached across rows: the key (what the row
   says) and the model's network built from it.  */
struct network
{
  char dims[64], topology[16], channels[16], traffic[32];
  double P, kd_opt, n_opt;
  int valid;
  struct logpc_network m;
};

/* What a run shares between its rows.  */
struct lpc_ctx
{
  struct lpc_opts o;
  struct lpc_plogp pl;
  long explain_row;             /* 0: not sweeping */
  const tsv_reader *cur_reader; /* where the row came from, for errors */
  /* A dry run with the parameters of the command line: does the
     subcommand need an input stream?  A missing parameter (which a row
     could give) jumps back instead of dying.  */
  int probing;
  jmp_buf probe_jmp;
  int64_t *file_map;            /* the mapping file, read once */
  int64_t file_map_n;
  struct network netc;
  const char *out_str;          /* non-numeric output: a negative
                                   sentinel index into this */
};

/* A subcommand: its computed columns and how it fills them.  */
struct lpc_sub
{
  const char *name;
  const char *const *cols;      /* computed columns, NULL-terminated */
  const char *const *show;      /* parameters shown without input rows */
  const char *traffic;          /* default traffic */
  void (*compute) (struct lpc_ctx *cx, const struct params *p, double *out);
};


/* The subcommands, in the order of the program's command table.  */
#define LPC_NSUBS 9
extern const struct lpc_sub lpc_subs[LPC_NSUBS];
/* remap --style long: its columns and the parameters it shows.  */
extern const char *const lpc_remap_long_cols[];
extern const char *const lpc_show_remap_long[];

void lpc_explain (struct lpc_ctx *cx, const char *fmt, ...)
  ERR_PRINTF (2, 3);
void lpc_fail (struct lpc_ctx *cx, const char *fmt, ...)
  ERR_PRINTF (2, 3) ERR_NORETURN;
void lpc_bad (struct lpc_ctx *cx, const char *fmt, ...)
  ERR_PRINTF (2, 3) ERR_NORETURN;
double lpc_need (struct lpc_ctx *cx, const struct params *p, int k);
double lpc_opt_or (const struct params *p, int k, double dflt);
void lpc_read_mapping_file (struct lpc_ctx *cx, const char *path);
const struct network *lpc_network (struct lpc_ctx *cx,
                                   const struct params *p,
                                   const char *traffic_dflt, int need_cube);
void lpc_plogp_build (struct lpc_ctx *cx, double scale);
void lpc_apply_plogp (struct lpc_ctx *cx, struct params *p);
void lpc_check (struct lpc_ctx *cx, enum logpc_status s,
                const struct logpc_contention *c, double B);

#endif
