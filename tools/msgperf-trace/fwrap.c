/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fwrap.c: the Fortran entry points of the MPI calls libmsgperf-trace
   traces (mpif.h and the `mpi' module; not mpi_f08, whose procedures
   call the library's internals directly).
 *
 * Open MPI's Fortran bindings call the PMPI functions directly, so a
 * Fortran program runs none of the C MPI_* wrappers (wrap.c): these
 * define the Fortran names themselves, which a preloaded library
 * interposes on libmpi_mpifh's (weak) ones.  Each converts the Fortran
 * handles (MPI_*_f2c), calls the C wrapper, which records the call as
 * it would a C program's, and converts back what the call returns.
 * Every routine is exported under the four names Open MPI's bindings
 * have (nm -D libmpi_mpifh.so): mpi_send_ (gfortran), mpi_send__,
 * mpi_send and MPI_SEND.
 *
 * This file is the list of the wrappers, one short function each, and
 * is longer than the others for that alone.  */
#include <config.h>

#include <stdlib.h>

#include <mpi.h>


/* Integer arrays (counts, displacements, indices) are passed through:
   MPI_Fint is the C int in every Open MPI build of default Fortran
   integers, which is what these wrappers are built for.  */
_Static_assert (sizeof (MPI_Fint) == sizeof (int),
                "MPI_Fint is not int: the count arrays need converting");

/* The four names of routine NAME (lower case) / UPPER, aliases of the
   static function fw_NAME with parameters PARAMS; then its body.  */
#define FW_ALIAS(sym, name, params) \
  extern void sym params \
    __attribute__ ((alias ("fw_" #name), visibility ("default")));
#define FWRAP(name, upper, params) \
  static void fw_##name params; \
  FW_ALIAS (name##_, name, params) \
  FW_ALIAS (name##__, name, params) \
  FW_ALIAS (name, name, params) \
  FW_ALIAS (upper, name, params) \
  FW_ALIAS (o##name##_f, name, params) \
  static void fw_##name params

/* Fortran's MPI_IN_PLACE and MPI_BOTTOM are the addresses of common
   blocks that libmpi defines; weak, so that a C program, and an MPI
   without them, loads the library all the same.  */
extern int mpi_fortran_in_place_ __attribute__ ((weak));
extern int mpi_fortran_bottom_ __attribute__ ((weak));

static void *
fbuf (const void *b)
{
  if (b && b == (const void *) &mpi_fortran_in_place_)
    return MPI_IN_PLACE;
  if (b && b == (const void *) &mpi_fortran_bottom_)
    return MPI_BOTTOM;
  return (void *) b;
}

/* A Fortran status array is MPI_STATUS_IGNORE when it is libmpi's
   MPI_F_STATUS_IGNORE.  */
static MPI_Status *
cstatus (MPI_Fint *f, MPI_Status *own)
{
  return f == MPI_F_STATUS_IGNORE ? MPI_STATUS_IGNORE : own;
}

static void
fstatus (int rc, MPI_Fint *f, const MPI_Status *own)
{
  if (rc == MPI_SUCCESS && f != MPI_F_STATUS_IGNORE)
    MPI_Status_c2f (own, f);
}

/* C requests (and statuses) of N Fortran requests: on the stack up to
   SMALL, else allocated.  */
enum { SMALL = 32 };
struct creqs
{
  MPI_Request *r, rs[SMALL];
  MPI_Status *st, sts[SMALL];
};

static int
creqs_get (struct creqs *c, int n, const MPI_Fint *f, int statuses)
{
  c->r = c->rs;
  c->st = c->sts;
  if (n > SMALL)
    {
      c->r = malloc ((size_t) n * sizeof *c->r);
      c->st = statuses ? malloc ((size_t) n * sizeof *c->st) : NULL;
      if (!c->r || (statuses && !c->st))
        {
          free (c->r);
          free (c->st);
          return MPI_ERR_NO_MEM;
        }
    }
  for (int i = 0; i < n; i++)
    c->r[i] = MPI_Request_f2c (f[i]);
  return MPI_SUCCESS;
}

/* Back to Fortran: the requests (MPI_REQUEST_NULL where completed) and,
   unless ignored, NST statuses; then free.  */
static void
creqs_put (struct creqs *c, int rc, int n, MPI_Fint *f, MPI_Fint *fst,
           int nst)
{
  for (int i = 0; i < n; i++)
    f[i] = MPI_Request_c2f (c->r[i]);
  if ((rc == MPI_SUCCESS || rc == MPI_ERR_IN_STATUS) && fst
      && fst != MPI_F_STATUSES_IGNORE)
    for (int i = 0; i < nst; i++)
      MPI_Status_c2f (&c->st[i], fst + (size_t) i * (sizeof (MPI_Status)
                                                    / sizeof (MPI_Fint)));
  if (c->r != c->rs)
    {
      free (c->r);
      free (c->st);
    }
}

static MPI_Status *
cstatuses (struct creqs *c, MPI_Fint *f)
{
  return f == MPI_F_STATUSES_IGNORE ? MPI_STATUSES_IGNORE : c->st;
}

static MPI_Fint
flogical (int v)
{
  return v ? 1 : 0;   /* gfortran's .TRUE. and .FALSE. */
}

/* ---------------------------------------------------------------- init */
FWRAP (mpi_init, MPI_INIT, (MPI_Fint *ierr))
{
  *ierr = MPI_Init (NULL, NULL);
}

FWRAP (mpi_init_thread, MPI_INIT_THREAD,
       (MPI_Fint *required, MPI_Fint *provided, MPI_Fint *ierr))
{
  int p = 0;
  *ierr = MPI_Init_thread (NULL, NULL, *required, &p);
  *provided = p;
}

FWRAP (mpi_finalize, MPI_FINALIZE, (MPI_Fint *ierr))
{
  *ierr = MPI_Finalize ();
}

FWRAP (mpi_abort, MPI_ABORT, (MPI_Fint *comm, MPI_Fint *code,
                              MPI_Fint *ierr))
{
  *ierr = MPI_Abort (MPI_Comm_f2c (*comm), *code);
}

/* ---------------------------------------------------------------- sends */
#define SEND_PARAMS (const void *buf, MPI_Fint *count, MPI_Fint *type, \
                     MPI_Fint *dest, MPI_Fint *tag, MPI_Fint *comm, \
                     MPI_Fint *ierr)
#define SEND_ARGS fbuf (buf), *count, MPI_Type_f2c (*type), *dest, *tag, \
                  MPI_Comm_f2c (*comm)
FWRAP (mpi_send, MPI_SEND, SEND_PARAMS)
{
  *ierr = MPI_Send (SEND_ARGS);
}

FWRAP (mpi_ssend, MPI_SSEND, SEND_PARAMS)
{
  *ierr = MPI_Ssend (SEND_ARGS);
}

#define ISEND_PARAMS (const void *buf, MPI_Fint *count, MPI_Fint *type, \
                      MPI_Fint *dest, MPI_Fint *tag, MPI_Fint *comm, \
                      MPI_Fint *req, MPI_Fint *ierr)
FWRAP (mpi_isend, MPI_ISEND, ISEND_PARAMS)
{
  MPI_Request r;
  *ierr = MPI_Isend (SEND_ARGS, &r);
  if (*ierr == MPI_SUCCESS)
    *req = MPI_Request_c2f (r);
}

FWRAP (mpi_issend, MPI_ISSEND, ISEND_PARAMS)
{
  MPI_Request r;
  *ierr = MPI_Issend (SEND_ARGS, &r);
  if (*ierr == MPI_SUCCESS)
    *req = MPI_Request_c2f (r);
}

FWRAP (mpi_irecv, MPI_IRECV, ISEND_PARAMS)
{
  MPI_Request r;
  *ierr = MPI_Irecv (SEND_ARGS, &r);
  if (*ierr == MPI_SUCCESS)
    *req = MPI_Request_c2f (r);
}

FWRAP (mpi_send_init, MPI_SEND_INIT, ISEND_PARAMS)
{
  MPI_Request r;
  *ierr = MPI_Send_init (SEND_ARGS, &r);
  if (*ierr == MPI_SUCCESS)
    *req = MPI_Request_c2f (r);
}

FWRAP (mpi_ssend_init, MPI_SSEND_INIT, ISEND_PARAMS)
{
  MPI_Request r;
  *ierr = MPI_Ssend_init (SEND_ARGS, &r);
  if (*ierr == MPI_SUCCESS)
    *req = MPI_Request_c2f (r);
}

FWRAP (mpi_recv_init, MPI_RECV_INIT, ISEND_PARAMS)
{
  MPI_Request r;
  *ierr = MPI_Recv_init (SEND_ARGS, &r);
  if (*ierr == MPI_SUCCESS)
    *req = MPI_Request_c2f (r);
}

/* ---------------------------------------------------------------- receives */
FWRAP (mpi_recv, MPI_RECV,
       (void *buf, MPI_Fint *count, MPI_Fint *type, MPI_Fint *source,
        MPI_Fint *tag, MPI_Fint *comm, MPI_Fint *status, MPI_Fint *ierr))
{
  MPI_Status st;
  *ierr = MPI_Recv (fbuf (buf), *count, MPI_Type_f2c (*type), *source, *tag,
                    MPI_Comm_f2c (*comm), cstatus (status, &st));
  fstatus (*ierr, status, &st);
}

FWRAP (mpi_sendrecv, MPI_SENDRECV,
       (const void *sbuf, MPI_Fint *scount, MPI_Fint *stype, MPI_Fint *dest,
        MPI_Fint *stag, void *rbuf, MPI_Fint *rcount, MPI_Fint *rtype,
        MPI_Fint *source, MPI_Fint *rtag, MPI_Fint *comm, MPI_Fint *status,
        MPI_Fint *ierr))
{
  MPI_Status st;
  *ierr = MPI_Sendrecv (fbuf (sbuf), *scount, MPI_Type_f2c (*stype), *dest,
                        *stag, fbuf (rbuf), *rcount, MPI_Type_f2c (*rtype),
                        *source, *rtag, MPI_Comm_f2c (*comm),
                        cstatus (status, &st));
  fstatus (*ierr, status, &st);
}

FWRAP (mpi_probe, MPI_PROBE, (MPI_Fint *source, MPI_Fint *tag,
                              MPI_Fint *comm, MPI_Fint *status,
                              MPI_Fint *ierr))
{
  MPI_Status st;
  *ierr = MPI_Probe (*source, *tag, MPI_Comm_f2c (*comm),
                     cstatus (status, &st));
  fstatus (*ierr, status, &st);
}

FWRAP (mpi_iprobe, MPI_IPROBE, (MPI_Fint *source, MPI_Fint *tag,
                                MPI_Fint *comm, MPI_Fint *flag,
                                MPI_Fint *status, MPI_Fint *ierr))
{
  MPI_Status st;
  int f = 0;
  *ierr = MPI_Iprobe (*source, *tag, MPI_Comm_f2c (*comm), &f,
                      cstatus (status, &st));
  *flag = flogical (f);
  if (f)
    fstatus (*ierr, status, &st);
}

/* ---------------------------------------------------------------- requests */
FWRAP (mpi_start, MPI_START, (MPI_Fint *req, MPI_Fint *ierr))
{
  MPI_Request r = MPI_Request_f2c (*req);
  *ierr = MPI_Start (&r);
  *req = MPI_Request_c2f (r);
}

FWRAP (mpi_startall, MPI_STARTALL, (MPI_Fint *count, MPI_Fint *reqs,
                                    MPI_Fint *ierr))
{
  struct creqs c;
  *ierr = creqs_get (&c, *count, reqs, 0);
  if (*ierr != MPI_SUCCESS)
    return;
  *ierr = MPI_Startall (*count, c.r);
  creqs_put (&c, *ierr, *count, reqs, NULL, 0);
}

FWRAP (mpi_request_free, MPI_REQUEST_FREE, (MPI_Fint *req, MPI_Fint *ierr))
{
  MPI_Request r = MPI_Request_f2c (*req);
  *ierr = MPI_Request_free (&r);
  if (*ierr == MPI_SUCCESS)
    *req = MPI_Request_c2f (MPI_REQUEST_NULL);
}

FWRAP (mpi_wait, MPI_WAIT, (MPI_Fint *req, MPI_Fint *status, MPI_Fint *ierr))
{
  MPI_Request r = MPI_Request_f2c (*req);
  MPI_Status st;
  *ierr = MPI_Wait (&r, cstatus (status, &st));
  *req = MPI_Request_c2f (r);
  fstatus (*ierr, status, &st);
}

FWRAP (mpi_test, MPI_TEST, (MPI_Fint *req, MPI_Fint *flag, MPI_Fint *status,
                            MPI_Fint *ierr))
{
  MPI_Request r = MPI_Request_f2c (*req);
  MPI_Status st;
  int f = 0;
  *ierr = MPI_Test (&r, &f, cstatus (status, &st));
  *req = MPI_Request_c2f (r);
  *flag = flogical (f);
  if (f)
    fstatus (*ierr, status, &st);
}

FWRAP (mpi_waitall, MPI_WAITALL, (MPI_Fint *count, MPI_Fint *reqs,
                                  MPI_Fint *statuses, MPI_Fint *ierr))
{
  struct creqs c;
  *ierr = creqs_get (&c, *count, reqs, 1);
  if (*ierr != MPI_SUCCESS)
    return;
  *ierr = MPI_Waitall (*count, c.r, cstatuses (&c, statuses));
  creqs_put (&c, *ierr, *count, reqs, statuses, *count);
}

FWRAP (mpi_testall, MPI_TESTALL, (MPI_Fint *count, MPI_Fint *reqs,
                                  MPI_Fint *flag, MPI_Fint *statuses,
                                  MPI_Fint *ierr))
{
  struct creqs c;
  int f = 0;
  *ierr = creqs_get (&c, *count, reqs, 1);
  if (*ierr != MPI_SUCCESS)
    return;
  *ierr = MPI_Testall (*count, c.r, &f, cstatuses (&c, statuses));
  *flag = flogical (f);
  creqs_put (&c, *ierr, *count, reqs, statuses, f ? *count : 0);
}

/* Fortran's indices start at 1.  */
static MPI_Fint
findex (int i)
{
  return i == MPI_UNDEFINED ? MPI_UNDEFINED : i + 1;
}

FWRAP (mpi_waitany, MPI_WAITANY, (MPI_Fint *count, MPI_Fint *reqs,
                                  MPI_Fint *index, MPI_Fint *status,
                                  MPI_Fint *ierr))
{
  struct creqs c;
  MPI_Status st;
  int i = MPI_UNDEFINED;
  *ierr = creqs_get (&c, *count, reqs, 0);
  if (*ierr != MPI_SUCCESS)
    return;
  *ierr = MPI_Waitany (*count, c.r, &i, cstatus (status, &st));
  *index = findex (i);
  creqs_put (&c, *ierr, *count, reqs, NULL, 0);
  if (i != MPI_UNDEFINED)
    fstatus (*ierr, status, &st);
}

FWRAP (mpi_testany, MPI_TESTANY, (MPI_Fint *count, MPI_Fint *reqs,
                                  MPI_Fint *index, MPI_Fint *flag,
                                  MPI_Fint *status, MPI_Fint *ierr))
{
  struct creqs c;
  MPI_Status st;
  int i = MPI_UNDEFINED, f = 0;
  *ierr = creqs_get (&c, *count, reqs, 0);
  if (*ierr != MPI_SUCCESS)
    return;
  *ierr = MPI_Testany (*count, c.r, &i, &f, cstatus (status, &st));
  *index = findex (i);
  *flag = flogical (f);
  creqs_put (&c, *ierr, *count, reqs, NULL, 0);
  if (f && i != MPI_UNDEFINED)
    fstatus (*ierr, status, &st);
}

/* Waitsome and Testsome: the completed ones' indices from 1.  */
static void
some_back (struct creqs *c, int rc, MPI_Fint *count, MPI_Fint *reqs,
           int out, MPI_Fint *outcount, MPI_Fint *indices,
           MPI_Fint *statuses)
{
  *outcount = out;
  for (int k = 0; out != MPI_UNDEFINED && k < out; k++)
    indices[k] = indices[k] + 1;
  creqs_put (c, rc, *count, reqs, statuses,
             out == MPI_UNDEFINED ? 0 : out);
}

FWRAP (mpi_waitsome, MPI_WAITSOME, (MPI_Fint *count, MPI_Fint *reqs,
                                    MPI_Fint *outcount, MPI_Fint *indices,
                                    MPI_Fint *statuses, MPI_Fint *ierr))
{
  struct creqs c;
  int out = 0;
  *ierr = creqs_get (&c, *count, reqs, 1);
  if (*ierr != MPI_SUCCESS)
    return;
  *ierr = MPI_Waitsome (*count, c.r, &out, indices,
                        cstatuses (&c, statuses));
  some_back (&c, *ierr, count, reqs, out, outcount, indices, statuses);
}

FWRAP (mpi_testsome, MPI_TESTSOME, (MPI_Fint *count, MPI_Fint *reqs,
                                    MPI_Fint *outcount, MPI_Fint *indices,
                                    MPI_Fint *statuses, MPI_Fint *ierr))
{
  struct creqs c;
  int out = 0;
  *ierr = creqs_get (&c, *count, reqs, 1);
  if (*ierr != MPI_SUCCESS)
    return;
  *ierr = MPI_Testsome (*count, c.r, &out, indices,
                        cstatuses (&c, statuses));
  some_back (&c, *ierr, count, reqs, out, outcount, indices, statuses);
}

/* ---------------------------------------------------------- collectives */
#define TYPE(t) MPI_Type_f2c (*(t))
#define COMM(c) MPI_Comm_f2c (*(c))
#define OP(o) MPI_Op_f2c (*(o))

FWRAP (mpi_barrier, MPI_BARRIER, (MPI_Fint *comm, MPI_Fint *ierr))
{
  *ierr = MPI_Barrier (COMM (comm));
}

FWRAP (mpi_bcast, MPI_BCAST, (void *buf, MPI_Fint *count, MPI_Fint *type,
                              MPI_Fint *root, MPI_Fint *comm, MPI_Fint *ierr))
{
  *ierr = MPI_Bcast (fbuf (buf), *count, TYPE (type), *root, COMM (comm));
}

FWRAP (mpi_reduce, MPI_REDUCE, (const void *sbuf, void *rbuf,
                                MPI_Fint *count, MPI_Fint *type, MPI_Fint *op,
                                MPI_Fint *root, MPI_Fint *comm,
                                MPI_Fint *ierr))
{
  *ierr = MPI_Reduce (fbuf (sbuf), fbuf (rbuf), *count, TYPE (type), OP (op),
                      *root, COMM (comm));
}

#define REDUCE_PARAMS (const void *sbuf, void *rbuf, MPI_Fint *count, \
                       MPI_Fint *type, MPI_Fint *op, MPI_Fint *comm, \
                       MPI_Fint *ierr)
#define REDUCE_ARGS fbuf (sbuf), fbuf (rbuf), *count, TYPE (type), OP (op), \
                    COMM (comm)
FWRAP (mpi_allreduce, MPI_ALLREDUCE, REDUCE_PARAMS)
{
  *ierr = MPI_Allreduce (REDUCE_ARGS);
}

FWRAP (mpi_scan, MPI_SCAN, REDUCE_PARAMS)
{
  *ierr = MPI_Scan (REDUCE_ARGS);
}

FWRAP (mpi_exscan, MPI_EXSCAN, REDUCE_PARAMS)
{
  *ierr = MPI_Exscan (REDUCE_ARGS);
}

FWRAP (mpi_reduce_scatter_block, MPI_REDUCE_SCATTER_BLOCK, REDUCE_PARAMS)
{
  *ierr = MPI_Reduce_scatter_block (REDUCE_ARGS);
}

FWRAP (mpi_reduce_scatter, MPI_REDUCE_SCATTER,
       (const void *sbuf, void *rbuf, MPI_Fint *rcounts, MPI_Fint *type,
        MPI_Fint *op, MPI_Fint *comm, MPI_Fint *ierr))
{
  *ierr = MPI_Reduce_scatter (fbuf (sbuf), fbuf (rbuf), rcounts, TYPE (type),
                              OP (op), COMM (comm));
}

#define BLOCK_PARAMS (const void *sbuf, MPI_Fint *scount, MPI_Fint *stype, \
                      void *rbuf, MPI_Fint *rcount, MPI_Fint *rtype, \
                      MPI_Fint *comm, MPI_Fint *ierr)
#define BLOCK_ARGS fbuf (sbuf), *scount, TYPE (stype), fbuf (rbuf), \
                   *rcount, TYPE (rtype)
FWRAP (mpi_allgather, MPI_ALLGATHER, BLOCK_PARAMS)
{
  *ierr = MPI_Allgather (BLOCK_ARGS, COMM (comm));
}

FWRAP (mpi_alltoall, MPI_ALLTOALL, BLOCK_PARAMS)
{
  *ierr = MPI_Alltoall (BLOCK_ARGS, COMM (comm));
}

#define ROOTED_PARAMS (const void *sbuf, MPI_Fint *scount, MPI_Fint *stype, \
                       void *rbuf, MPI_Fint *rcount, MPI_Fint *rtype, \
                       MPI_Fint *root, MPI_Fint *comm, MPI_Fint *ierr)
FWRAP (mpi_gather, MPI_GATHER, ROOTED_PARAMS)
{
  *ierr = MPI_Gather (BLOCK_ARGS, *root, COMM (comm));
}

FWRAP (mpi_scatter, MPI_SCATTER, ROOTED_PARAMS)
{
  *ierr = MPI_Scatter (BLOCK_ARGS, *root, COMM (comm));
}

FWRAP (mpi_gatherv, MPI_GATHERV,
       (const void *sbuf, MPI_Fint *scount, MPI_Fint *stype, void *rbuf,
        MPI_Fint *rcounts, MPI_Fint *displs, MPI_Fint *rtype, MPI_Fint *root,
        MPI_Fint *comm, MPI_Fint *ierr))
{
  *ierr = MPI_Gatherv (fbuf (sbuf), *scount, TYPE (stype), fbuf (rbuf),
                       rcounts, displs, TYPE (rtype), *root, COMM (comm));
}

FWRAP (mpi_scatterv, MPI_SCATTERV,
       (const void *sbuf, MPI_Fint *scounts, MPI_Fint *displs,
        MPI_Fint *stype, void *rbuf, MPI_Fint *rcount, MPI_Fint *rtype,
        MPI_Fint *root, MPI_Fint *comm, MPI_Fint *ierr))
{
  *ierr = MPI_Scatterv (fbuf (sbuf), scounts, displs, TYPE (stype),
                        fbuf (rbuf), *rcount, TYPE (rtype), *root,
                        COMM (comm));
}

FWRAP (mpi_allgatherv, MPI_ALLGATHERV,
       (const void *sbuf, MPI_Fint *scount, MPI_Fint *stype, void *rbuf,
        MPI_Fint *rcounts, MPI_Fint *displs, MPI_Fint *rtype, MPI_Fint *comm,
        MPI_Fint *ierr))
{
  *ierr = MPI_Allgatherv (fbuf (sbuf), *scount, TYPE (stype), fbuf (rbuf),
                          rcounts, displs, TYPE (rtype), COMM (comm));
}

FWRAP (mpi_alltoallv, MPI_ALLTOALLV,
       (const void *sbuf, MPI_Fint *scounts, MPI_Fint *sdispls,
        MPI_Fint *stype, void *rbuf, MPI_Fint *rcounts, MPI_Fint *rdispls,
        MPI_Fint *rtype, MPI_Fint *comm, MPI_Fint *ierr))
{
  *ierr = MPI_Alltoallv (fbuf (sbuf), scounts, sdispls, TYPE (stype),
                         fbuf (rbuf), rcounts, rdispls, TYPE (rtype),
                         COMM (comm));
}

/* -------------------------------------------------------- communicators */
FWRAP (mpi_comm_split, MPI_COMM_SPLIT, (MPI_Fint *comm, MPI_Fint *color,
                                        MPI_Fint *key, MPI_Fint *newcomm,
                                        MPI_Fint *ierr))
{
  MPI_Comm c;
  *ierr = MPI_Comm_split (COMM (comm), *color, *key, &c);
  if (*ierr == MPI_SUCCESS)
    *newcomm = MPI_Comm_c2f (c);
}

FWRAP (mpi_comm_create, MPI_COMM_CREATE, (MPI_Fint *comm, MPI_Fint *group,
                                          MPI_Fint *newcomm, MPI_Fint *ierr))
{
  MPI_Comm c;
  *ierr = MPI_Comm_create (COMM (comm), MPI_Group_f2c (*group), &c);
  if (*ierr == MPI_SUCCESS)
    *newcomm = MPI_Comm_c2f (c);
}

FWRAP (mpi_comm_dup, MPI_COMM_DUP, (MPI_Fint *comm, MPI_Fint *newcomm,
                                    MPI_Fint *ierr))
{
  MPI_Comm c;
  *ierr = MPI_Comm_dup (COMM (comm), &c);
  if (*ierr == MPI_SUCCESS)
    *newcomm = MPI_Comm_c2f (c);
}

FWRAP (mpi_cart_create, MPI_CART_CREATE,
       (MPI_Fint *comm, MPI_Fint *ndims, MPI_Fint *dims, MPI_Fint *periods,
        MPI_Fint *reorder, MPI_Fint *newcomm, MPI_Fint *ierr))
{
  int n = *ndims, small[16], *per = n <= 16 ? small : malloc ((size_t) n
                                                             * sizeof *per);
  if (!per)
    {
      *ierr = MPI_ERR_NO_MEM;
      return;
    }
  for (int i = 0; i < n; i++)
    per[i] = periods[i] != 0;
  MPI_Comm c;
  *ierr = MPI_Cart_create (COMM (comm), n, dims, per, *reorder != 0, &c);
  if (*ierr == MPI_SUCCESS)
    *newcomm = MPI_Comm_c2f (c);
  if (per != small)
    free (per);
}

FWRAP (mpi_comm_free, MPI_COMM_FREE, (MPI_Fint *comm, MPI_Fint *ierr))
{
  MPI_Comm c = COMM (comm);
  *ierr = MPI_Comm_free (&c);
  if (*ierr == MPI_SUCCESS)
    *comm = MPI_Comm_c2f (c);
}
