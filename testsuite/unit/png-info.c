/* SPDX-License-Identifier: GPL-3.0-or-later */
/* png-info FILE: check a PNG file and print "WIDTHxHEIGHT COLORS" (the
   number of distinct RGBA values).  Exit 1 with the reason on stderr for
   a file that is not a valid PNG.  A helper of plotgen's tests.  */
#include <config.h>
#include <stdio.h>
#include <stdlib.h>

#include "pngread.h"

int
main (int argc, char **argv)
{
  if (argc != 2)
    {
      fputs ("usage: png-info FILE\n", stderr);
      return 2;
    }
  FILE *fp = fopen (argv[1], "rb");
  if (!fp)
    {
      perror (argv[1]);
      return 1;
    }
  unsigned char *buf = NULL;
  size_t n = 0, cap = 0;
  for (;;)
    {
      if (n == cap)
        {
          cap = cap ? 2 * cap : 65536;
          unsigned char *b = realloc (buf, cap);
          if (!b)
            {
              fputs ("png-info: out of memory\n", stderr);
              return 1;
            }
          buf = b;
        }
      size_t r = fread (buf + n, 1, cap - n, fp);
      if (r == 0)
        break;
      n += r;
    }
  fclose (fp);
  struct png_image img;
  const char *why;
  if (png_decode (buf, n, &img, &why) != 0)
    {
      fprintf (stderr, "png-info: %s: %s\n", argv[1], why);
      free (buf);
      return 1;
    }
  printf ("%ux%u %zu\n", (unsigned) img.width, (unsigned) img.height,
          png_count_colors (&img));
  png_free (&img);
  free (buf);
  return 0;
}
