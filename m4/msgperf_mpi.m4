# SPDX-License-Identifier: GPL-3.0-or-later
# MSGPERF_CHECK_MPI
# -----------------
# Find the MPI compile and link flags (for the MPI programs only) and the
# launcher.  pkg-config's ompi-c first, then the compiler wrapper's
# --showme (OpenMPI) or -show (MPICH).  Sets MPI_CFLAGS, MPI_LIBS, MPIEXEC.
AC_DEFUN([MSGPERF_CHECK_MPI],
[AC_ARG_VAR([MPICC], [MPI C compiler wrapper, used only to find MPI flags])
AC_ARG_VAR([MPIEXEC], [MPI launcher (mpiexec, mpirun)])
PKG_CHECK_MODULES([MPI], [ompi-c], [msgperf_have_mpi=yes],
  [PKG_CHECK_MODULES([MPI], [mpich], [msgperf_have_mpi=yes],
     [msgperf_have_mpi=no])])
AS_IF([test "x$msgperf_have_mpi" = xno],
  [AC_PATH_PROGS([MPICC], [mpicc mpicc.openmpi mpicc.mpich], [])
   AS_IF([test -n "$MPICC"],
     [AS_IF([MPI_CFLAGS=`$MPICC --showme:compile 2>/dev/null`],
        [MPI_LIBS=`$MPICC --showme:link`; msgperf_have_mpi=yes])])])
AS_IF([test "x$msgperf_have_mpi" = xno],
  [AC_MSG_ERROR([MPI was not found (the MPI programs need OpenMPI).
  On Debian/Ubuntu: apt-get install openmpi-bin libopenmpi-dev
  or ./configure --without-mpi to build the other programs])])
msgperf_save_CFLAGS=$CFLAGS
msgperf_save_LIBS=$LIBS
CFLAGS="$CFLAGS $MPI_CFLAGS"
LIBS="$MPI_LIBS $LIBS"
AC_MSG_CHECKING([whether an MPI program links])
AC_LINK_IFELSE([AC_LANG_PROGRAM([[#include <mpi.h>]],
                                [[MPI_Init (0, 0); MPI_Finalize ();]])],
  [AC_MSG_RESULT([yes])],
  [AC_MSG_RESULT([no])
   AC_MSG_ERROR([cannot link an MPI program with '$MPI_CFLAGS' '$MPI_LIBS'])])
CFLAGS=$msgperf_save_CFLAGS
LIBS=$msgperf_save_LIBS
AC_SUBST([MPI_CFLAGS])
AC_SUBST([MPI_LIBS])
AC_PATH_PROGS([MPIEXEC], [mpiexec mpirun mpiexec.openmpi], [])
AS_IF([test -z "$MPIEXEC"],
  [AC_MSG_WARN([no MPI launcher found: the MPI tests will be skipped])])
])
