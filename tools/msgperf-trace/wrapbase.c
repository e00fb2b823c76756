/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wrapbase.c: the table of the predefined types' sizes (wrapbase.h).  */
#include <config.h>

#include "wrapbase.h"

MPI_Datatype wrap_type_keys[NTYPES];
int wrap_type_sizes[NTYPES];

void
types_start (void)
{
  const MPI_Datatype predefined[] = {
    MPI_CHAR, MPI_SIGNED_CHAR, MPI_UNSIGNED_CHAR, MPI_BYTE, MPI_WCHAR,
    MPI_SHORT, MPI_UNSIGNED_SHORT, MPI_INT, MPI_UNSIGNED, MPI_LONG,
    MPI_UNSIGNED_LONG, MPI_LONG_LONG_INT, MPI_UNSIGNED_LONG_LONG,
    MPI_FLOAT, MPI_DOUBLE, MPI_LONG_DOUBLE, MPI_C_BOOL, MPI_INT8_T,
    MPI_INT16_T, MPI_INT32_T, MPI_INT64_T, MPI_UINT8_T, MPI_UINT16_T,
    MPI_UINT32_T, MPI_UINT64_T, MPI_C_FLOAT_COMPLEX, MPI_C_DOUBLE_COMPLEX,
    MPI_C_LONG_DOUBLE_COMPLEX, MPI_AINT, MPI_OFFSET, MPI_COUNT,
    MPI_FLOAT_INT, MPI_DOUBLE_INT, MPI_LONG_INT, MPI_2INT, MPI_SHORT_INT,
    MPI_LONG_DOUBLE_INT, MPI_PACKED
  };
  for (size_t i = 0; i < NTYPES; i++)
    wrap_type_keys[i] = MPI_DATATYPE_NULL;
  for (size_t i = 0; i < sizeof predefined / sizeof predefined[0]; i++)
    {
      MPI_Datatype t = predefined[i];
      int size;
      /* A type this MPI does not provide is MPI_DATATYPE_NULL.  */
      if (t == MPI_DATATYPE_NULL || PMPI_Type_size (t, &size) != MPI_SUCCESS)
        continue;
      size_t j = type_slot (t);
      while (wrap_type_keys[j] != MPI_DATATYPE_NULL && wrap_type_keys[j] != t)
        j = (j + 1) & (NTYPES - 1);
      wrap_type_keys[j] = t;
      wrap_type_sizes[j] = size;
    }
}
