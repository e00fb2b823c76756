/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-plotscript: unit tests of common/plot/gpquote.c, common/plot/plotscript.c
   and the testsuite's PNG reader (testsuite/unit/pngread.c), which needs
   zlib: without it (configure found none) the PNG tests are left out.  */
#include <config.h>

#include <stdint.h>
#include <stdlib.h>

#include "gpquote.h"
#include "plotscript.h"
#include "unit.h"
#if HAVE_ZLIB
# include <zlib.h>
# include "pngread.h"
#endif

/* ---------------------------------------------------------------- quoting */

static const char *
quote (const char *s)
{
  static char buf[1024];
  gp_quote (buf, s);
  return buf;
}

static const char *
quote_path (const char *s)
{
  static char buf[1024];
  gp_quote_path (buf, s);
  return buf;
}

static const char *
comment (const char *s)
{
  static char buf[1024];
  gp_comment (buf, s);
  return buf;
}

static void
test_quote (void)
{
  CHECK_STR (quote (""), "''");
  CHECK_STR (quote ("t (us)"), "'t (us)'");
  CHECK_STR (quote ("it's"), "'it''s'");
  CHECK_STR (quote ("''"), "''''''");
  /* no backslash processing in single quotes: kept as they are */
  CHECK_STR (quote ("a\\"), "'a\\'");
  CHECK_STR (quote ("a\\nb"), "'a\\nb'");
  /* a string cannot span lines: control characters become spaces */
  CHECK_STR (quote ("a\nb\rc\td\x1b" "e\x7f"), "'a b c d e '");
  /* backquotes, macros and commands stay text inside single quotes */
  CHECK_STR (quote ("`touch x`"), "'`touch x`'");
  CHECK_STR (quote ("@m"), "'@m'");
  CHECK_STR (quote ("x'; system(\"touch x\"); '"),
             "'x''; system(\"touch x\"); '''");
  /* UTF-8 passes through */
  CHECK_STR (quote ("\xc2\xb5s"), "'\xc2\xb5s'");
  CHECK (gp_quote_size ("''") == 7);
  CHECK (gp_quote ((char[8]) { 0 }, "''") == 6);

  CHECK_STR (quote_path ("fig.png"), "'./fig.png'");
  CHECK_STR (quote_path ("/tmp/fig.png"), "'/tmp/fig.png'");
  CHECK_STR (quote_path ("|touch x"), "'./|touch x'");
  CHECK_STR (quote_path ("< cat x"), "'./< cat x'");
  CHECK_STR (quote_path ("-"), "'./-'");
  CHECK_STR (quote_path ("~/x"), "'./~/x'");
  CHECK_STR (quote_path ("a'b\nc"), "'./a''b c'");
  CHECK (gp_quote_path_size ("ab") == gp_quote_size ("ab") + 2);

  CHECK_STR (comment ("plotgen -x bytes"), "plotgen -x bytes");
  CHECK_STR (comment ("a\nprint 1"), "a print 1");
  /* a final backslash would continue the comment onto the next line */
  CHECK_STR (comment ("a\\"), "a\\ #");
  CHECK_STR (comment (""), "");
}

static void
test_names (void)
{
  enum plot_term t = PLOT_TERM_DUMB;
  CHECK (plot_term_from_path ("a.png", &t) == 0 && t == PLOT_TERM_PNG);
  CHECK (plot_term_from_path ("dir/A.PNG", &t) == 0 && t == PLOT_TERM_PNG);
  CHECK (plot_term_from_path ("a.svg", &t) == 0 && t == PLOT_TERM_SVG);
  CHECK (plot_term_from_path ("x.y.Pdf", &t) == 0 && t == PLOT_TERM_PDF);
  CHECK (plot_term_from_path ("a.jpg", &t) == -1);
  CHECK (plot_term_from_path ("png", &t) == -1);
  CHECK (plot_term_from_path (".png", &t) == -1);
  CHECK (plot_term_from_path ("dir/.png", &t) == -1);
  CHECK (plot_term_from_path ("", &t) == -1);
  CHECK_STR (plot_term_name (PLOT_TERM_PNG), "pngcairo");
  CHECK_STR (plot_term_name (PLOT_TERM_DUMB), "dumb");

  enum plot_draw d = PLOT_DRAW_BOXES;
  CHECK (plot_draw_from_name ("lines", &d) == 0 && d == PLOT_DRAW_LINES);
  CHECK (plot_draw_from_name ("steps", &d) == 0 && d == PLOT_DRAW_STEPS);
  CHECK (plot_draw_from_name ("linespoints", &d) == 0
         && d == PLOT_DRAW_LINESPOINTS);
  CHECK (plot_draw_from_name ("errorbars", &d) == -1);
  CHECK (plot_draw_from_name ("", &d) == -1);
}

/* ---------------------------------------------------------------- script */

static const char data2[] = "1 2\n2 4\n\n\n1 3\n2 NA\n";

static struct plot_desc
xy_desc (struct plot_series *s)
{
  s[0] = (struct plot_series) { .title = "hops=1", .block = 0, .ycol = 2,
                                .draw = PLOT_DRAW_LINESPOINTS,
                                .linetype = 1 };
  s[1] = (struct plot_series) { .title = "hops=2", .block = 1, .ycol = 2,
                                .draw = PLOT_DRAW_LINES, .linetype = 2,
                                .dashed = 1 };
  return (struct plot_desc) {
    .mode = PLOT_MODE_XY, .term = PLOT_TERM_PNG, .version = "v",
    .argv = "plotgen a", .output = "o.png", .width = 640, .height = 480,
    .xlabel = "bytes", .ylabel = "t (us)", .logx = 1,
    .data = data2, .data_len = sizeof data2 - 1, .series = s, .nseries = 2 };
}

static void
test_script (void)
{
  struct plot_series s[2];
  struct plot_desc d = xy_desc (s);
  struct plot_text t = { 0 };
  CHECK (plot_script (&d, &t) == 0);
  CHECK_STR (t.s,
             "# v\n"
             "# plotgen a\n"
             "set terminal pngcairo noenhanced size 640,480\n"
             "set output './o.png'\n"
             "set datafile missing 'NA'\n"
             "set xlabel 'bytes' noenhanced\n"
             "set ylabel 't (us)' noenhanced\n"
             "set logscale x\n"
             "set autoscale fix\n"
             "set offsets graph 0.05, graph 0.05, graph 0.05, graph 0.05\n"
             "set rmargin 5\n"
             "set grid\n"
             "set key top left\n"
             "$data << EOD\n"
             "1 2\n2 4\n\n\n1 3\n2 NA\n"
             "EOD\n"
             "plot $data index 0 using 1:2 with linespoints lt 1"
             " title 'hops=1' noenhanced, \\\n"
             "     $data index 1 using 1:2 with lines lt 2 dt 2"
             " title 'hops=2' noenhanced\n"
             "unset output\n");
  plot_text_free (&t);

  /* data by reference, the dumb terminal on stdout, a fitted curve with
     a negative parameter (in parentheses: -3**2 would be -(3**2)) */
  struct plot_curve c = { .kind = PLOT_CURVE_HYPERBOLIC, .p1 = -3,
                          .p2 = 0.5, .title = "fit", .linetype = 1 };
  d.term = PLOT_TERM_DUMB;
  d.output = NULL;
  d.width = 79;
  d.height = 24;
  d.logx = 0;
  d.data = NULL;
  d.data_len = 0;
  d.data_file = "d.dat";
  d.nseries = 1;
  d.curves = &c;
  d.ncurves = 1;
  CHECK (plot_script (&d, &t) == 0);
  CHECK (strstr (t.s, "set terminal dumb noenhanced size 79,24\n") != NULL);
  CHECK (strstr (t.s, "set output") == NULL);
  CHECK (strstr (t.s, "set label 1 't (us)' at graph 0, graph 1") != NULL);
  CHECK (strstr (t.s, "fit1(x) = (-3)**2/((-3)+0.5*x)+0.5*x\n") != NULL);
  CHECK (strstr (t.s, "plot './d.dat' index 0 using 1:2") != NULL);
  CHECK (strstr (t.s, "fit1(x) with lines lt 1 lw 2 title 'fit'") != NULL);
  CHECK (strstr (t.s, "EOD") == NULL);
  plot_text_free (&t);

  c.kind = PLOT_CURVE_LINEAR;
  c.p1 = 2;
  c.p2 = -1e-3;
  CHECK (plot_script (&d, &t) == 0);
  CHECK (strstr (t.s, "fit1(x) = 2+(-0.001)*x\n") != NULL);
  plot_text_free (&t);

  /* PDF sizes are inches, 100 pixels each */
  d.term = PLOT_TERM_PDF;
  d.output = "/abs/o.pdf";
  CHECK (plot_script (&d, &t) == 0);
  CHECK (strstr (t.s, "set terminal pdfcairo noenhanced size 0.79,0.24\n"
                 "set output '/abs/o.pdf'\n") != NULL);
  plot_text_free (&t);

  /* inconsistent descriptions are refused */
  c.p1 = NAN;
  CHECK (plot_script (&d, &t) == -1);
  plot_text_free (&t);
  c.p1 = 1;
  d.ncurves = 0;
  d.nseries = 0;
  CHECK (plot_script (&d, &t) == -1);
  plot_text_free (&t);
  d = xy_desc (s);
  d.data_len--; /* no final newline: EOD would be glued to the data */
  CHECK (plot_script (&d, &t) == -1);
  plot_text_free (&t);
  d = xy_desc (s);
  s[0].ycol = 0;
  CHECK (plot_script (&d, &t) == -1);
  plot_text_free (&t);
  d = xy_desc (s);
  s[0].draw = PLOT_DRAW_ERRORBARS; /* without the bar columns */
  CHECK (plot_script (&d, &t) == -1);
  plot_text_free (&t);
  s[0].locol = 3;
  s[0].hicol = 4;
  CHECK (plot_script (&d, &t) == 0);
  CHECK (strstr (t.s, "using 1:2:3:4 with yerrorbars lt 1") != NULL);
  plot_text_free (&t);

  /* Gantt and matrix modes */
  struct plot_series g = { .title = "send", .block = 0, .ycol = 3,
                           .draw = PLOT_DRAW_BOXES, .color = "#dd8452" };
  d = (struct plot_desc) {
    .mode = PLOT_MODE_GANTT, .term = PLOT_TERM_SVG, .width = 800,
    .height = 600, .integer_ytics = 1, .data = "0 1 0\n", .data_len = 6,
    .series = &g, .nseries = 1 };
  CHECK (plot_script (&d, &t) == 0);
  CHECK (strstr (t.s, "set yrange [*:*] reverse\n") != NULL);
  CHECK (strstr (t.s, "set ytics 1\n") != NULL);
  CHECK (strstr (t.s, "using (($1+$2)/2):3:1:2:($3-0.4):($3+0.4) with "
                 "boxxyerror lc rgb '#dd8452' title 'send' noenhanced\n")
         != NULL);
  plot_text_free (&t);
  g = (struct plot_series) { .block = 0, .ycol = 3,
                             .draw = PLOT_DRAW_CELLS };
  d.mode = PLOT_MODE_MATRIX;
  d.cblabel = "rtt";
  CHECK (plot_script (&d, &t) == 0);
  CHECK (strstr (t.s, "set cblabel 'rtt' noenhanced\n") != NULL);
  CHECK (strstr (t.s, "with boxxyerror fs solid lc palette notitle\n")
         != NULL);
  plot_text_free (&t);
  /* host names as tics, quoted; every rank on the axes, rank 0 on top */
  static const char *const names[] = { "a'b", "c" };
  d.names = names;
  d.nnames = 2;
  CHECK (plot_script (&d, &t) == 0);
  CHECK (strstr (t.s, "set xtics ('a''b' 0, 'c' 1) rotate by 45 right\n"
                 "set ytics ('a''b' 0, 'c' 1)\n"
                 "set xrange [-0.5:1.5]\nset yrange [1.5:-0.5]\n") != NULL);
  CHECK (strstr (t.s, "[*:*]") == NULL);
  plot_text_free (&t);
}

/* Lex the script the way gnuplot reads a command line: outside single and
   double quotes, a backquote starts command substitution and '@' a macro;
   a line must not end inside a quote.  Data lines are skipped.  Returns 1
   when no line has either outside quotes.  */
static int
script_is_inert (const char *s)
{
  int in_data = 0;
  while (*s)
    {
      const char *e = strchr (s, '\n');
      size_t n = e ? (size_t) (e - s) : strlen (s);
      if (in_data)
        {
          if (n == 3 && memcmp (s, "EOD", 3) == 0)
            in_data = 0;
          else
            for (size_t i = 0; i < n; i++)
              if (!strchr ("0123456789.eE+-NA ", s[i]))
                return 0;
        }
      else if (n >= 12 && memcmp (s, "$data << EOD", 12) == 0)
        in_data = 1;
      else if (s[0] != '#')
        {
          int q = 0; /* 0, '\'' or '"' */
          for (size_t i = 0; i < n; i++)
            {
              char c = s[i];
              if (q == '\'')
                {
                  if (c == '\'' && i + 1 < n && s[i + 1] == '\'')
                    i++;
                  else if (c == '\'')
                    q = 0;
                }
              else if (q == '"')
                {
                  if (c == '\\')
                    i++;
                  else if (c == '"')
                    q = 0;
                }
              else if (c == '\'' || c == '"')
                q = c;
              else if (c == '`' || c == '@' || c == '#' || c == ';')
                return 0;
            }
          if (q)
            return 0;
        }
      else
        {
          /* a comment must not continue onto the next line */
          if (n > 0 && s[n - 1] == '\\')
            return 0;
        }
      s += n + (e != NULL);
    }
  return 1;
}

static void
test_inert (void)
{
  static const char *const nasty[] = {
    "x'; system(\"touch canary\"); '",
    "`touch canary`",
    "@m",
    "a\nsystem('touch canary')\n",
    "'''",
    "\\",
    "a\\\nb",
    "; # ' \" ` @",
    "\"`touch canary`\"",
    "{/Symbol a}^2_x &{x} ~a",
  };
  for (size_t i = 0; i < sizeof nasty / sizeof nasty[0]; i++)
    {
      struct plot_series s[2];
      struct plot_desc d = xy_desc (s);
      s[0].title = nasty[i];
      d.title = nasty[i];
      d.xlabel = nasty[i];
      d.argv = nasty[i];
      d.output = nasty[i];
      struct plot_text t = { 0 };
      CHECK (plot_script (&d, &t) == 0);
      CHECK (script_is_inert (t.s));
      plot_text_free (&t);
    }
  /* random bytes */
  srand (12345);
  for (int k = 0; k < 2000; k++)
    {
      char buf[24];
      size_t n = (size_t) (rand () % 23);
      for (size_t i = 0; i < n; i++)
        buf[i] = (char) (1 + rand () % 255);
      buf[n] = '\0';
      struct plot_series s[2];
      struct plot_desc d = xy_desc (s);
      s[1].title = buf;
      d.ylabel = buf;
      d.argv = buf;
      d.data_file = buf[0] ? buf : "x";
      d.term = (enum plot_term) (k % 4);
      struct plot_text t = { 0 };
      CHECK (plot_script (&d, &t) == 0);
      if (!script_is_inert (t.s))
        {
          CHECK (!"script not inert");
          fprintf (stderr, "%s\n", t.s);
          plot_text_free (&t);
          break;
        }
      plot_text_free (&t);
    }
  /* the checker itself sees code outside quotes */
  CHECK (!script_is_inert ("set title 'a' . `x`\n"));
  CHECK (!script_is_inert ("set title 'a''\n"));
  CHECK (!script_is_inert ("print @m\n"));
  CHECK (!script_is_inert ("# a \\\nsystem('x')\n"));
  CHECK (!script_is_inert ("$data << EOD\n1 `x`\nEOD\n"));
  CHECK (script_is_inert ("set title 'a''`x`'\n"));
}

/* ---------------------------------------------------------------- PNG */
#if HAVE_ZLIB

static size_t
put_chunk (unsigned char *p, const char *type, const unsigned char *data,
           uint32_t len)
{
  p[0] = (unsigned char) (len >> 24);
  p[1] = (unsigned char) (len >> 16);
  p[2] = (unsigned char) (len >> 8);
  p[3] = (unsigned char) len;
  memcpy (p + 4, type, 4);
  if (len)
    memcpy (p + 8, data, len);
  uint32_t crc = png_crc32 (p + 4, len + 4);
  p[8 + len] = (unsigned char) (crc >> 24);
  p[9 + len] = (unsigned char) (crc >> 16);
  p[10 + len] = (unsigned char) (crc >> 8);
  p[11 + len] = (unsigned char) crc;
  return 12 + len;
}

/* A 3x5 RGB image whose rows use filters 0 to 4, each encoding the same
   pixels: red, green, blue.  */
static size_t
make_png (unsigned char *out)
{
  static const unsigned char px[9] = { 255, 0, 0, 0, 255, 0, 0, 0, 255 };
  unsigned char raw[5 * 10];
  for (int y = 0; y < 5; y++)
    {
      unsigned char *r = raw + y * 10;
      r[0] = (unsigned char) y;
      for (int i = 0; i < 9; i++)
        {
          int a = i >= 3 ? px[i - 3] : 0;
          int b = y ? px[i] : 0;
          int c = y && i >= 3 ? px[i - 3] : 0;
          int pred = 0;
          switch (y)
            {
            case 1: pred = a; break;
            case 2: pred = b; break;
            case 3: pred = (a + b) / 2; break;
            case 4:
              {
                int p = a + b - c, pa = abs (p - a), pb = abs (p - b),
                  pc = abs (p - c);
                pred = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
              }
            }
          r[1 + i] = (unsigned char) (px[i] - pred);
        }
    }
  unsigned char z[256];
  uLongf zlen = sizeof z;
  compress (z, &zlen, raw, sizeof raw);
  static const unsigned char sig[8] = { 137, 'P', 'N', 'G', 13, 10, 26, 10 };
  unsigned char ihdr[13] = { 0, 0, 0, 3, 0, 0, 0, 5, 8, 2, 0, 0, 0 };
  size_t n = 0;
  memcpy (out, sig, 8);
  n = 8;
  n += put_chunk (out + n, "IHDR", ihdr, 13);
  n += put_chunk (out + n, "tEXt", (const unsigned char *) "a\0b", 3);
  n += put_chunk (out + n, "IDAT", z, (uint32_t) zlen);
  n += put_chunk (out + n, "IEND", NULL, 0);
  return n;
}

static void
test_png (void)
{
  unsigned char buf[512];
  size_t n = make_png (buf);
  struct png_image img;
  const char *why = NULL;
  CHECK (png_decode (buf, n, &img, &why) == 0);
  CHECK (img.width == 3 && img.height == 5);
  CHECK (img.depth == 8 && img.color_type == 2);
  for (int y = 0; y < 5; y++)
    {
      CHECK (img.rgba[y * 3 + 0] == 0xff0000ffu);
      CHECK (img.rgba[y * 3 + 1] == 0x00ff00ffu);
      CHECK (img.rgba[y * 3 + 2] == 0x0000ffffu);
    }
  CHECK (png_count_colors (&img) == 3);
  png_free (&img);

  /* the CRC of the specification: crc32 ("IEND") */
  CHECK (png_crc32 ((const unsigned char *) "IEND", 4) == 0xae426082u);

  unsigned char bad[512];
  memcpy (bad, buf, n);
  bad[0] = 'x';
  CHECK (png_decode (bad, n, &img, &why) == -1);
  CHECK_STR (why, "not a PNG file (bad signature)");
  memcpy (bad, buf, n);
  bad[20] ^= 1; /* inside IHDR */
  CHECK (png_decode (bad, n, &img, &why) == -1);
  CHECK_STR (why, "bad chunk CRC");
  CHECK (png_decode (buf, n - 12, &img, &why) == -1);
  CHECK_STR (why, "no IEND chunk");
  CHECK (png_decode (buf, n - 5, &img, &why) == -1);
  CHECK_STR (why, "truncated chunk");
  CHECK (png_decode (buf, 8, &img, &why) == -1);
}
#endif

int
main (void)
{
  test_quote ();
  test_names ();
  test_script ();
  test_inert ();
#if HAVE_ZLIB
  test_png ();
#endif
  return unit_done ();
}
