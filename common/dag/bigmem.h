/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bigmem.h: the big arrays of the operation graph and of the simulator
 * (per operation, per dependency), in memory or in files.
 *
 * By default big_alloc, big_calloc and big_realloc are xmalloc, xcalloc
 * and xrealloc (xalloc.h): the same calls, the same speed.  After
 * big_use_dir (DIR), every array they make is a shared mapping
 * (MAP_SHARED) of a temporary file of its own in DIR, unlinked as soon
 * as it is created: the kernel can write its pages back to the file and
 * drop them when memory runs short, as it does with any file's pages,
 * so the arrays can be larger than the memory (though not than DIR's
 * free space), and nothing is left in DIR however the program ends.
 * The file's blocks are reserved when the array grows (posix_fallocate),
 * so a full disk is an error at that point, not a crash on a later
 * write to the mapping.
 *
 * Errors (a file that cannot be created, grown or mapped) end the
 * program through err.h's die, naming DIR and the system's reason, as
 * out of memory does in xalloc.h.  */
#ifndef MSGPERF_BIGMEM_H
#define MSGPERF_BIGMEM_H

#include <stddef.h>

/* Put the arrays made from now on in files in DIR (NULL: in memory
   again).  Checks that a file can be created there: returns 0, or the
   errno of the failure (then nothing changes).  DIR is copied.  */
int big_use_dir (const char *dir);

/* The directory of big_use_dir, or NULL.  */
const char *big_dir (void);

/* Is DIR on a file system whose pages are memory (tmpfs, ramfs), where
   files do not take the arrays out of memory?  1 yes, 0 no or not
   known.  */
int big_dir_in_memory (const char *dir);

void *big_alloc (size_t n);
/* N elements of SIZE bytes, zeroed; the product is checked.  */
void *big_calloc (size_t n, size_t size);
/* P (NULL, or from any big_ or x allocation) resized to N bytes, its
   first bytes kept.  */
void *big_realloc (void *p, size_t n);
void big_free (void *p);

/* P (NULL, or an array in memory) resized to N bytes when the system
   gives the memory, its first bytes kept; NULL, P as it was, when it
   does not, and whenever arrays go to files (big_use_dir), whose space
   a resize reserves on the disk.  For sizes that are a guess.  */
void *big_try_realloc (void *p, size_t n);

/* Is P an array in a file?  */
int big_in_file (const void *p);

/* Bytes of the files at most at once since the program started (their
   pages rounded up).  */
size_t big_file_peak (void);

#endif
