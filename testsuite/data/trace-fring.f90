! SPDX-License-Identifier: GPL-3.0-or-later
! trace-fring.f90: a Fortran program (the mpi module) for
! testsuite/msgperf-trace.at: 4 MPI_Allreduce (the last in place), a ring
! of MPI_Irecv, MPI_Isend and MPI_Waitall, and an MPI_Recv from
! MPI_ANY_SOURCE whose status it checks; rank 0 prints two sums.
program fring
  use mpi
  implicit none
  integer :: ierr, rank, nprocs, i, next, prev
  integer :: reqs(2), stats(MPI_STATUS_SIZE, 2), st(MPI_STATUS_SIZE)
  double precision :: x(4), y(4), a(8), b(8)
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  next = mod(rank + 1, nprocs)
  prev = mod(rank + nprocs - 1, nprocs)
  x = rank
  do i = 1, 3
    call MPI_Allreduce(x, y, 4, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  end do
  call MPI_Allreduce(MPI_IN_PLACE, x, 4, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  call MPI_Irecv(b, 8, MPI_DOUBLE_PRECISION, prev, 7, MPI_COMM_WORLD, reqs(1), ierr)
  call MPI_Isend(a, 8, MPI_DOUBLE_PRECISION, next, 7, MPI_COMM_WORLD, reqs(2), ierr)
  call MPI_Waitall(2, reqs, stats, ierr)
  if (rank == 0) then
    call MPI_Send(a, 2, MPI_DOUBLE_PRECISION, next, 9, MPI_COMM_WORLD, ierr)
  else if (rank == 1) then
    call MPI_Recv(b, 8, MPI_DOUBLE_PRECISION, MPI_ANY_SOURCE, 9, MPI_COMM_WORLD, st, ierr)
    if (st(MPI_SOURCE) /= 0 .or. st(MPI_TAG) /= 9) stop 3
  end if
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  if (rank == 0) print '(F6.1,1X,F6.1)', y(1), x(1)
  call MPI_Finalize(ierr)
end program fring
