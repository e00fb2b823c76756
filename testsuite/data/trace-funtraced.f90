! SPDX-License-Identifier: GPL-3.0-or-later
! trace-funtraced.f90: calls libmsgperf-trace does not trace, from
! Fortran (the mpi module), for testsuite/msgperf-trace.at: an Ibarrier,
! two Iallreduces and a Sendrecv_replace between traced calls; each rank
! prints the allreduce's sum.
program funtraced
  use mpi
  implicit none
  integer :: rank, nprocs, ierr, req, i
  integer :: st(MPI_STATUS_SIZE)
  double precision :: x(2), y(2)
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  call MPI_Ibarrier(MPI_COMM_WORLD, req, ierr)
  call MPI_Wait(req, st, ierr)
  x = rank + 1
  do i = 1, 2
    call MPI_Iallreduce(x, y, 2, MPI_DOUBLE_PRECISION, MPI_SUM, &
                        MPI_COMM_WORLD, req, ierr)
    call MPI_Wait(req, st, ierr)
  end do
  call MPI_Sendrecv_replace(x, 2, MPI_DOUBLE_PRECISION, mod(rank+1,2), 3, &
                            mod(rank+1,2), 3, MPI_COMM_WORLD, st, ierr)
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  if (rank == 0) print '(F6.1)', y(1)
  call MPI_Finalize(ierr)
end program funtraced
