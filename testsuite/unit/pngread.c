/* SPDX-License-Identifier: GPL-3.0-or-later */
/* pngread.c: a tiny PNG reader for plotgen's tests (see pngread.h).  */
#include <config.h>
#include "pngread.h"

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

uint32_t
png_crc32 (const unsigned char *p, size_t n)
{
  static uint32_t table[256];
  if (table[1] == 0)
    for (uint32_t i = 0; i < 256; i++)
      {
        uint32_t c = i;
        for (int k = 0; k < 8; k++)
          c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
        table[i] = c;
      }
  uint32_t c = 0xffffffffu;
  for (size_t i = 0; i < n; i++)
    c = table[(c ^ p[i]) & 0xff] ^ (c >> 8);
  return c ^ 0xffffffffu;
}

static uint32_t
be32 (const unsigned char *p)
{
  return (uint32_t) p[0] << 24 | (uint32_t) p[1] << 16
    | (uint32_t) p[2] << 8 | p[3];
}

static int
paeth (int a, int b, int c)
{
  int p = a + b - c;
  int pa = abs (p - a), pb = abs (p - b), pc = abs (p - c);
  if (pa <= pb && pa <= pc)
    return a;
  return pb <= pc ? b : c;
}

#define FAIL(msg) do { *why = (msg); goto fail; } while (0)

int
png_decode (const unsigned char *buf, size_t n, struct png_image *img,
            const char **why)
{
  static const unsigned char sig[8] = { 137, 'P', 'N', 'G', 13, 10, 26, 10 };
  unsigned char *z = NULL, *raw = NULL;
  size_t zlen = 0;
  uint32_t palette[256];
  size_t npalette = 0;
  int seen_end = 0;
  memset (img, 0, sizeof *img);

  if (n < 8 || memcmp (buf, sig, 8) != 0)
    FAIL ("not a PNG file (bad signature)");
  size_t pos = 8;
  int first = 1;
  while (pos < n)
    {
      if (seen_end)
        FAIL ("data after IEND");
      if (n - pos < 12)
        FAIL ("truncated chunk");
      uint32_t len = be32 (buf + pos);
      if (len > n - pos - 12)
        FAIL ("truncated chunk");
      const unsigned char *type = buf + pos + 4;
      const unsigned char *data = buf + pos + 8;
      if (png_crc32 (type, len + 4) != be32 (data + len))
        FAIL ("bad chunk CRC");
      if (first && memcmp (type, "IHDR", 4) != 0)
        FAIL ("IHDR is not the first chunk");
      if (memcmp (type, "IHDR", 4) == 0)
        {
          if (!first || len != 13)
            FAIL ("bad IHDR");
          img->width = be32 (data);
          img->height = be32 (data + 4);
          img->depth = data[8];
          img->color_type = data[9];
          if (img->width == 0 || img->height == 0
              || img->width > 100000 || img->height > 100000)
            FAIL ("bad image size");
          if (data[10] != 0 || data[11] != 0)
            FAIL ("unknown compression or filter method");
          if (data[12] != 0)
            FAIL ("interlaced images are not supported");
          if (img->depth != 8)
            FAIL ("only bit depth 8 is supported");
          if (img->color_type != 0 && img->color_type != 2
              && img->color_type != 3 && img->color_type != 4
              && img->color_type != 6)
            FAIL ("bad color type");
        }
      else if (memcmp (type, "PLTE", 4) == 0)
        {
          if (len % 3 != 0 || len / 3 > 256)
            FAIL ("bad PLTE");
          npalette = len / 3;
          for (size_t i = 0; i < npalette; i++)
            palette[i] = (uint32_t) data[3 * i] << 24
              | (uint32_t) data[3 * i + 1] << 16
              | (uint32_t) data[3 * i + 2] << 8 | 0xff;
        }
      else if (memcmp (type, "IDAT", 4) == 0)
        {
          unsigned char *nz = realloc (z, zlen + len + 1);
          if (!nz)
            FAIL ("out of memory");
          z = nz;
          memcpy (z + zlen, data, len);
          zlen += len;
        }
      else if (memcmp (type, "IEND", 4) == 0)
        seen_end = 1;
      else if (!(type[0] & 0x20))
        FAIL ("unknown critical chunk");
      first = 0;
      pos += 12 + (size_t) len;
    }
  if (!seen_end)
    FAIL ("no IEND chunk");
  if (zlen == 0)
    FAIL ("no image data");
  if (img->color_type == 3 && npalette == 0)
    FAIL ("palette image without PLTE");

  static const int channels[7] = { 1, 0, 3, 1, 2, 0, 4 };
  size_t bpp = (size_t) channels[img->color_type];
  size_t stride = (size_t) img->width * bpp;
  size_t rawlen = (stride + 1) * img->height;
  raw = malloc (rawlen);
  if (!raw)
    FAIL ("out of memory");
  uLongf got = (uLongf) rawlen;
  if (uncompress (raw, &got, z, (uLong) zlen) != Z_OK || got != rawlen)
    FAIL ("bad compressed image data");

  img->rgba = malloc ((size_t) img->width * img->height * sizeof *img->rgba);
  if (!img->rgba)
    FAIL ("out of memory");
  for (uint32_t y = 0; y < img->height; y++)
    {
      unsigned char *line = raw + y * (stride + 1);
      unsigned char *cur = line + 1;
      const unsigned char *prev = y ? raw + (y - 1) * (stride + 1) + 1 : NULL;
      for (size_t i = 0; i < stride; i++)
        {
          int a = i >= bpp ? cur[i - bpp] : 0;
          int b = prev ? prev[i] : 0;
          int c = prev && i >= bpp ? prev[i - bpp] : 0;
          switch (line[0])
            {
            case 0: break;
            case 1: cur[i] = (unsigned char) (cur[i] + a); break;
            case 2: cur[i] = (unsigned char) (cur[i] + b); break;
            case 3: cur[i] = (unsigned char) (cur[i] + (a + b) / 2); break;
            case 4: cur[i] = (unsigned char) (cur[i] + paeth (a, b, c)); break;
            default: FAIL ("bad filter type");
            }
        }
      for (uint32_t x = 0; x < img->width; x++)
        {
          const unsigned char *p = cur + x * bpp;
          uint32_t v;
          switch (img->color_type)
            {
            case 0: v = (uint32_t) p[0] * 0x01010100u | 0xff; break;
            case 4: v = (uint32_t) p[0] * 0x01010100u | p[1]; break;
            case 2: v = (uint32_t) p[0] << 24 | (uint32_t) p[1] << 16
                      | (uint32_t) p[2] << 8 | 0xff; break;
            case 6: v = be32 (p); break;
            default:
              if (p[0] >= npalette)
                FAIL ("palette index out of range");
              v = palette[p[0]];
            }
          img->rgba[(size_t) y * img->width + x] = v;
        }
    }
  free (z);
  free (raw);
  return 0;

fail:
  free (z);
  free (raw);
  png_free (img);
  return -1;
}

void
png_free (struct png_image *img)
{
  free (img->rgba);
  img->rgba = NULL;
}

static int
cmp_u32 (const void *a, const void *b)
{
  uint32_t x = *(const uint32_t *) a, y = *(const uint32_t *) b;
  return x < y ? -1 : x > y;
}

size_t
png_count_colors (const struct png_image *img)
{
  size_t n = (size_t) img->width * img->height;
  uint32_t *v = malloc (n * sizeof *v);
  if (!v)
    return 0;
  memcpy (v, img->rgba, n * sizeof *v);
  qsort (v, n, sizeof *v, cmp_u32);
  size_t k = n > 0;
  for (size_t i = 1; i < n; i++)
    k += v[i] != v[i - 1];
  free (v);
  return k;
}
