/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dag.c (fuzz): dag-predict's schedule readers (common/dag/dag_parse.h): GOAL
 * text (first byte even) and the native TSV (first byte odd), then
 * dag_finalize.  Errors end in die_at (status 1), caught by FUZZ_TRY.
 * The readers keep their temporary tables (label maps) in statics that
 * the next call frees, so what a dying parse leaves stays reachable and
 * is freed by the next input; dag_free and tsv_free_all in the cleanup
 * free the graph and the native reader's streams.  Properties: every die is a data error; a parsed graph has
 * its processors, peers and edges within bounds, and after dag_finalize
 * the successor lists hold every edge once.  GOAL text is also read from
 * a file in pieces of 1 to 128 bytes (goal_parse_fd, the piece size from
 * the first byte): it must die where the whole text dies and otherwise
 * give the same graph (dag_same).  */
#include <config.h>

#include <sys/mman.h>
#include <unistd.h>

#include "dag.h"
#include "dag_parse.h"
#include "fuzz.h"

/* TEXT (SIZE bytes) read whole and in pieces of PIECE bytes from a file
   in memory: the same outcome.  */
static void
same_in_pieces (const char *text, size_t size, size_t piece)
{
#ifdef MFD_CLOEXEC
  static struct dag whole, pieces;
  int fd = memfd_create ("goal", MFD_CLOEXEC);
  if (fd < 0)
    return;
  for (size_t done = 0; done < size;)
    {
      ssize_t k = write (fd, text + done, size - done);
      if (k <= 0)
        abort ();
      done += (size_t) k;
    }
  if (lseek (fd, 0, SEEK_SET) != 0)
    abort ();
  /* goal_parse_fd skips a byte order mark; goal_parse leaves that to
     its caller */
  size_t bom = size >= 3 && memcmp (text, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
  volatile int st_whole, st_pieces;
  FUZZ_TRY ({
      dag_init (&whole, "<fuzz>");
      goal_parse (text + bom, size - bom, "<fuzz>", &whole);
    }, {});
  st_whole = fuzz_status;
  FUZZ_TRY ({
      dag_init (&pieces, "<fuzz>");
      goal_parse_fd (fd, NULL, 0, size, piece, "<fuzz>", &pieces);
    }, {});
  st_pieces = fuzz_status;
  FUZZ_ASSERT (st_whole == st_pieces);
  if (st_whole == -1)
    FUZZ_ASSERT (dag_same (&whole, &pieces));
  dag_free (&whole);
  dag_free (&pieces);
  close (fd);
#else
  (void) text;
  (void) size;
  (void) piece;
#endif
}

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  fuzz_setup ("dag-fuzz");
  if (size == 0)
    return 0;
  int goal = (data[0] & 1) == 0;
  size_t piece = 1 + (size_t) (data[0] >> 1);
  data++, size--;
  /* Exactly SIZE bytes (the readers take a length).  */
  char *text = malloc (size ? size : 1);
  if (!text)
    abort ();
  memcpy (text, data, size);
  if (goal)
    same_in_pieces (text, size, piece);
  static struct dag d;
  FUZZ_TRY ({
      dag_init (&d, "<fuzz>");
      if (goal)
        goal_parse (text, size, "<fuzz>", &d);
      else
        dag_parse_native_text (text, size, "<fuzz>", &d);
      FUZZ_ASSERT (d.nprocs >= 0);
      for (size_t v = 0; v < d.n; v++)
        {
          FUZZ_ASSERT (d.node[v].proc >= 0 && d.node[v].proc < d.nprocs);
          if (d.node[v].op != 0 && d.node[v].peer != DAG_ANY)
            FUZZ_ASSERT (d.node[v].peer >= -1);
        }
      for (size_t e = 0; e < d.ne; e++)
        FUZZ_ASSERT (d.efrom[e] >= 0 && (size_t) d.efrom[e] < d.n
                     && d.eto[e] >= 0 && (size_t) d.eto[e] < d.n);
      size_t ne = d.ne;
      dag_finalize (&d);
      if (d.succ_off)
        FUZZ_ASSERT (d.succ_off[d.n] <= ne);
    }, {
      dag_free (&d);
      /* The native reader's tsv readers, if it died holding them.  */
      tsv_free_all ();
    });
  FUZZ_ASSERT (fuzz_status == -1 || fuzz_status == EXIT_DATA);
  free (text);
  return 0;
}
