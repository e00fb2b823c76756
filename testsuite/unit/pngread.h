/* SPDX-License-Identifier: GPL-3.0-or-later */
/* pngread.h: a tiny PNG reader for plotgen's tests.
 *
 * Enough of the PNG specification (ISO/IEC 15948) to check what gnuplot
 * wrote: the signature, every chunk's CRC, IHDR first and IEND last, the
 * image data inflated (zlib) and unfiltered, for non-interlaced images of
 * bit depth 8 (gray, gray+alpha, RGB, RGBA, palette).  The pixels come back
 * as 32-bit RGBA so that the tests can count the colors.  No I/O.  */
#ifndef MSGPERF_PNGREAD_H
#define MSGPERF_PNGREAD_H

#include <stddef.h>
#include <stdint.h>

struct png_image
{
  uint32_t width, height;
  int depth, color_type;
  uint32_t *rgba;        /* width * height pixels, 0xRRGGBBAA */
};

/* Decode the N bytes at BUF.  Returns 0, or -1 with a reason in WHY (a
   static string).  */
int png_decode (const unsigned char *buf, size_t n, struct png_image *img,
                const char **why);

void png_free (struct png_image *img);

/* Number of distinct pixel values.  */
size_t png_count_colors (const struct png_image *img);

/* CRC-32 of the PNG specification (also zlib's).  */
uint32_t png_crc32 (const unsigned char *p, size_t n);

#endif
