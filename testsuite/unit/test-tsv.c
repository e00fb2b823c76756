/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-tsv: the stream reader and writer (common/stream/tsv.c).  */
#include <config.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "cli.h"
#include "readfile.h"
#include "tsv.h"
#include "unit.h"

/* A FILE holding TEXT (LEN bytes, so NULs can be tested).  */
static FILE *
text_file (const char *text, size_t len)
{
  FILE *fp = tmpfile ();
  fwrite (text, 1, len, fp);
  rewind (fp);
  return fp;
}

static tsv_reader *
open_text (const char *text)
{
  return tsv_open_stream (text_file (text, strlen (text)), "t.tsv");
}

static long
maxrss_kb (void)
{
  struct rusage ru;
  getrusage (RUSAGE_SELF, &ru);
  return ru.ru_maxrss;
}

static void
test_reader (void)
{
  tsv_reader *r = open_text ("# plain comment\n#@time_unit=us\n#@tool=x y\n"
                             "bytes\tt\tlabel\r\n1\t2.5\ta b\r\n"
                             "#@late=1\n2\tNA\tc\n");
  CHECK (tsv_ncols (r) == 3);
  CHECK_STR (tsv_colname (r, 2), "label");
  CHECK (tsv_col (r, "t") == 1);
  CHECK (tsv_col (r, "T") == -1);
  CHECK (tsv_nmeta (r) == 2);
  CHECK_STR (tsv_meta_line (r, 0), "time_unit=us");
  CHECK_STR (tsv_meta_get (r, "tool"), "x y");
  CHECK (tsv_lineno (r) == 4);
  CHECK (tsv_next (r) == 1);
  CHECK (tsv_lineno (r) == 5);
  CHECK (tsv_int (r, 0) == 1);
  CHECK (tsv_num (r, 1, 0) == 2.5);
  CHECK_STR (tsv_field (r, 2), "a b");
  CHECK (tsv_next (r) == 1);
  CHECK (tsv_nmeta (r) == 3);
  CHECK (tsv_is_na (r, 1));
  CHECK (isnan (tsv_num (r, 1, 1)));
  EXPECT_DIE (tsv_num (r, 1, 0), 1);
  CHECK (tsv_next (r) == 0);
  FILE *fp = tmpfile ();
  tsv_close (r);
  fclose (fp);

  /* Header only: a valid stream meaning "nothing".  */
  r = open_text ("a\tb\n");
  CHECK (tsv_next (r) == 0);
  tsv_close (r);

  /* No final newline: the last line still counts.  */
  r = open_text ("a\n1");
  CHECK (tsv_next (r) == 1 && tsv_num (r, 0, 0) == 1);
  tsv_close (r);
}

static void
test_reader_errors (void)
{
  static tsv_reader *r;   /* static: survives the longjmp of EXPECT_DIE */
  EXPECT_DIE (open_text (""), 1);
  EXPECT_DIE (open_text ("# only a comment\n"), 1);
  EXPECT_DIE (open_text ("a\ta\n"), 1);
  EXPECT_DIE (open_text ("a\t\n"), 1);
  EXPECT_DIE (open_text ("a\t1b\n"), 1);
  EXPECT_DIE (open_text ("a b\n"), 1);
  r = open_text ("a\tb\n1\n");
  EXPECT_DIE (tsv_next (r), 1);
  tsv_close (r);
  r = open_text ("a\tb\n1\t2\t3\n");
  EXPECT_DIE (tsv_next (r), 1);
  tsv_close (r);
  r = open_text ("a\tb\n1\t\n");
  EXPECT_DIE (tsv_next (r), 1);
  tsv_close (r);
  r = tsv_open_stream (text_file ("a\n1\0002\n", 6), "nul.tsv");
  EXPECT_DIE (tsv_next (r), 1);
  tsv_close (r);
  r = open_text ("a\nnan\n");
  CHECK (tsv_next (r) == 1);
  EXPECT_DIE (tsv_num (r, 0, 1), 1);
  tsv_close (r);
  r = open_text ("a\n1.5\n");
  CHECK (tsv_next (r) == 1);
  EXPECT_DIE (tsv_int (r, 0), 1);
  tsv_close (r);
  EXPECT_DIE (tsv_col_required (r = open_text ("a\tb\n"), "c"), 1);
  tsv_close (r);
  /* The readers whose opening died are still open: free them.  */
  tsv_free_all ();
}

static void
test_long_line (void)
{
  /* A 10 MB line (one field).  */
  size_t n = 10 * 1000 * 1000;
  char *text = malloc (n + 16);
  memcpy (text, "x\n", 2);
  memset (text + 2, 'a', n);
  memcpy (text + 2 + n, "\n", 2);
  tsv_reader *r = open_text (text);
  CHECK (tsv_next (r) == 1);
  CHECK (tsv_field_len (r, 0) == n);
  tsv_close (r);
  free (text);
}

static void
test_streaming (void)
{
  /* Memory must not grow with the number of rows.  */
  FILE *fp = tmpfile ();
  fputs ("#@time_unit=us\nbytes\tt\n", fp);
  for (int i = 0; i < 1000000; i++)
    fprintf (fp, "%d\t%d.25\n", i, i);
  rewind (fp);
  long before = maxrss_kb ();
  tsv_reader *r = tsv_open_stream (fp, "big.tsv");
  double sum = 0;
  long rows = 0;
  while (tsv_next (r))
    {
      sum += tsv_num (r, 1, 0);
      rows++;
    }
  long after = maxrss_kb ();
  CHECK (rows == 1000000);
  CHECK (sum == 1000000.0 * 999999 / 2 + 0.25 * 1000000);
  CHECK (after - before < 4096);
  tsv_close (r);
  fclose (fp);
}

static void
test_time_units (void)
{
  tsv_reader *a = open_text ("#@time_unit=us\nx\n");
  tsv_reader *b = open_text ("#@time_unit=us\nx\n");
  tsv_reader *c = open_text ("#@time_unit=ns\nx\n");
  tsv_reader *d = open_text ("x\n");
  tsv_reader *e = open_text ("#@time_unit=fortnights\nx\n");
  tsv_reader *f = open_text ("#@time_unit=us\n#@time_unit=s\nx\n");
  tsv_reader *ab[] = { a, b, d }, *ac[] = { a, c }, *dd[] = { d };
  CHECK_STR (tsv_time_unit (ab, 3), "us");
  CHECK (tsv_time_unit (dd, 1) == NULL);
  EXPECT_DIE (tsv_time_unit (ac, 2), 1);
  EXPECT_DIE (tsv_time_unit (&e, 1), 1);
  EXPECT_DIE (tsv_time_unit (&f, 1), 1);
  CHECK (tsv_time_unit_valid ("cycles"));
  CHECK (!tsv_time_unit_valid ("sec"));
  tsv_close (a); tsv_close (b); tsv_close (c);
  tsv_close (d); tsv_close (e); tsv_close (f);
}

static char *
slurp (const char *path)
{
  FILE *fp = fopen (path, "r");
  if (!fp)
    return NULL;
  static char buf[4096];
  size_t n = fread (buf, 1, sizeof buf - 1, fp);
  buf[n] = '\0';
  fclose (fp);
  return buf;
}

static void
test_writer (void)
{
  char dir[] = "/tmp/test-tsv.XXXXXX";
  CHECK (mkdtemp (dir) != NULL);
  char path[256];
  snprintf (path, sizeof path, "%s/out.tsv", dir);
  tsv_reader *r = open_text ("#@time_unit=us\n#@tool=a\nx\n");
  tsv_writer *w = tsv_writer_open (path);
  tsv_copy_meta (w, r);
  tsv_meta_time_unit (w, "us");     /* already there: not repeated */
  tsv_meta (w, "seed", "%d", 7);
  tsv_meta (w, "note", "two\nlines");
  const char *names[] = { "bytes", "t", "label" };
  tsv_write_header (w, 3, names);
  tsv_put_int (w, 1024);
  tsv_put_num (w, 0.1);
  tsv_put_str (w, "x");
  tsv_end_row (w);
  tsv_put_int (w, -1);
  tsv_put_num (w, NAN);
  tsv_put_na (w);
  tsv_end_row (w);
  /* Not there until closed.  */
  CHECK (access (path, F_OK) != 0);
  tsv_writer_close (w);
  CHECK_STR (slurp (path), "#@time_unit=us\n#@tool=a\n#@seed=7\n"
             "#@note=two lines\nbytes\tt\tlabel\n1024\t0.1\tx\n-1\tNA\tNA\n");
  tsv_close (r);

  /* A row with the wrong number of fields is a bug: refused.  */
  w = tsv_writer_open (path);
  tsv_write_header (w, 3, names);
  tsv_put_int (w, 1);
  EXPECT_DIE (tsv_end_row (w), 1);
  tsv_free_all ();
  /* The temporary file is gone: only the first output remains.  */
  CHECK (unlink (path) == 0);

  /* tsv_flush: the rows so far reach standard output at once (here a
     file), before any close; inside a row it is refused.  */
  fflush (stdout);
  int saved = dup (STDOUT_FILENO);
  int fd = open (path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  CHECK (saved >= 0 && fd >= 0 && dup2 (fd, STDOUT_FILENO) >= 0);
  close (fd);
  w = tsv_writer_open (NULL);
  tsv_write_header (w, 3, names);
  tsv_put_int (w, 1);
  tsv_put_num (w, 2.5);
  tsv_put_str (w, "x");
  tsv_end_row (w);
  CHECK_STR (slurp (path), "");
  tsv_flush (w);
  CHECK_STR (slurp (path), "bytes\tt\tlabel\n1\t2.5\tx\n");
  tsv_put_int (w, 3);
  EXPECT_DIE (tsv_flush (w), 1);
  tsv_free_all ();
  fflush (stdout);
  CHECK (dup2 (saved, STDOUT_FILENO) >= 0);
  close (saved);
  CHECK (unlink (path) == 0);
  CHECK (rmdir (dir) == 0);
}

/* The one whole-file reader: contents, a file longer than its first
   buffer, a NUL byte, a missing file.  */
static void
test_read_file (void)
{
  char path[] = "/tmp/test-tsv-rf-XXXXXX";
  int fd = mkstemp (path);
  CHECK (fd >= 0);
  size_t big = (1 << 16) + 123;   /* past the first 64 KiB buffer */
  char *data = malloc (big);
  for (size_t i = 0; i < big; i++)
    data[i] = (char) ('a' + i % 26);
  CHECK (write (fd, data, big) == (ssize_t) big);
  close (fd);
  char *text;
  size_t len;
  CHECK (read_file (path, 1, &text, &len) == READFILE_OK);
  CHECK (len == big && text[len] == '\0' && memcmp (text, data, big) == 0);
  free (text);
  fd = open (path, O_WRONLY | O_TRUNC);
  CHECK (write (fd, "ab\0cd", 5) == 5);
  close (fd);
  CHECK (read_file (path, 1, &text, &len) == READFILE_NUL && len == 2
         && text == NULL);
  CHECK (read_file (path, 0, &text, &len) == READFILE_OK && len == 5);
  free (text);
  CHECK (unlink (path) == 0);
  CHECK (read_file (path, 1, &text, &len) == READFILE_OPEN && !text);
  CHECK (strcmp (readfile_strerror (READFILE_NUL), "contains a NUL byte")
         == 0);
  free (data);
}

int
main (int argc, char **argv)
{
  cli_init ("test-tsv", argc, argv);
  test_reader ();
  test_reader_errors ();
  test_long_line ();
  test_streaming ();
  test_time_units ();
  test_writer ();
  test_read_file ();
  return unit_done ();
}
