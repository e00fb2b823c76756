! SPDX-License-Identifier: GPL-3.0-or-later
! trace-f08.f90: trace-fring.f90 written with the mpi_f08 module, for
! testsuite/msgperf-trace.at: the same calls, the same trace.
program f08
  use mpi_f08
  implicit none
  integer :: rank, nprocs, i
  type(MPI_Request) :: reqs(2)
  type(MPI_Status) :: st
  double precision :: x(4), y(4), a(8), b(8)
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs)
  x = rank
  do i = 1, 3
    call MPI_Allreduce(x, y, 4, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD)
  end do
  call MPI_Allreduce(MPI_IN_PLACE, x, 4, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD)
  call MPI_Irecv(b, 8, MPI_DOUBLE_PRECISION, mod(rank+1,2), 7, MPI_COMM_WORLD, reqs(1))
  call MPI_Isend(a, 8, MPI_DOUBLE_PRECISION, mod(rank+1,2), 7, MPI_COMM_WORLD, reqs(2))
  call MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE)
  if (rank == 0) call MPI_Send(a, 2, MPI_DOUBLE_PRECISION, 1, 9, MPI_COMM_WORLD)
  if (rank == 1) then
    call MPI_Recv(b, 8, MPI_DOUBLE_PRECISION, MPI_ANY_SOURCE, 9, MPI_COMM_WORLD, st)
    if (st%MPI_SOURCE /= 0 .or. st%MPI_TAG /= 9) stop 3
  end if
  call MPI_Barrier(MPI_COMM_WORLD)
  if (rank == 0) print '(F6.1,1X,F6.1)', y(1), x(1)
  call MPI_Finalize()
end program f08
