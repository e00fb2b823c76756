/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyperexpr.c (fuzz): hyper-reduce's expression language (common/
 * hyperexpr.c) on any text.  Every name is bound, by a hash of its
 * spelling, to a number or a block, so that evaluation goes deep.
 * Properties: a parse error has a line and column >= 1 and a message
 * (out of memory: line and column 0, "out of memory while ...");
 * the free names are distinct and non-empty; evaluation ends in a block
 * or an error with a message; nothing leaks (hexpr_free).  The parser
 * never dies, so no FUZZ_TRY is needed.  */
#include <config.h>

#include <math.h>

#include "fuzz.h"
#include "hyperexpr.h"

static enum hexpr_binding
lookup (void *ctx, const char *name, double *num, struct hyper_cb *cb)
{
  (void) ctx;
  unsigned h = 2166136261u;
  for (const char *p = name; *p; p++)
    h = (h ^ (unsigned char) *p) * 16777619u;
  switch (h % 4)
    {
    case 0:
      return HEXPR_UNBOUND;
    case 1:
      *num = (double) (h % 17) - 3;      /* negative and zero included */
      return HEXPR_NUMBER;
    case 2:
      cb->a = (double) (h % 1000) / 7;
      cb->b = (double) (h % 13) / 1000;
      return HEXPR_BLOCK;
    default:
      cb->a = h % 3 ? 0 : 1e308;          /* extremes */
      cb->b = h % 5 ? 0 : NAN;
      return HEXPR_BLOCK;
    }
}

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  fuzz_setup ("hyperexpr-fuzz");
  char *text = malloc (size + 1);
  if (!text)
    abort ();
  memcpy (text, data, size);
  text[size] = '\0';
  struct hexpr_error err;
  memset (&err, 0, sizeof err);
  struct hexpr *e = hexpr_parse (text, &err);
  if (!e)
    {
      if (err.nomem)
        FUZZ_ASSERT (err.line == 0 && err.col == 0
                     && strncmp (err.msg, "out of memory while ", 20) == 0);
      else
        FUZZ_ASSERT (err.line >= 1 && err.col >= 1);
      FUZZ_ASSERT (err.msg[0] != '\0' && memchr (err.msg, '\0', sizeof err.msg));
    }
  else
    {
      size_t n = hexpr_nnames (e);
      for (size_t i = 0; i < n; i++)
        {
          const char *a = hexpr_name (e, i);
          FUZZ_ASSERT (a && a[0]);
          for (size_t j = 0; j < i; j++)
            FUZZ_ASSERT (strcmp (a, hexpr_name (e, j)) != 0);
        }
      struct hexpr_env env = { lookup, NULL };
      struct hyper_cb out = { -1, -1 };
      memset (&err, 0, sizeof err);
      if (hexpr_eval (e, &env, &out, &err) != 0)
        FUZZ_ASSERT (err.msg[0] != '\0'
                     && memchr (err.msg, '\0', sizeof err.msg)
                     && (!err.nomem
                         || strncmp (err.msg, "out of memory while ", 20)
                            == 0));
      hexpr_free (e);
    }
  free (text);
  return 0;
}
