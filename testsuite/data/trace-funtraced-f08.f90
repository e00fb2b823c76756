! SPDX-License-Identifier: GPL-3.0-or-later
! trace-funtraced-f08.f90: trace-funtraced.f90 written with the mpi_f08
! module, for testsuite/msgperf-trace.at: the same calls, counted alike.
program funtraced08
  use mpi_f08
  implicit none
  integer :: rank, nprocs, i
  type(MPI_Request) :: req
  double precision :: x(2), y(2)
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs)
  call MPI_Ibarrier(MPI_COMM_WORLD, req)
  call MPI_Wait(req, MPI_STATUS_IGNORE)
  x = rank + 1
  do i = 1, 2
    call MPI_Iallreduce(x, y, 2, MPI_DOUBLE_PRECISION, MPI_SUM, &
                        MPI_COMM_WORLD, req)
    call MPI_Wait(req, MPI_STATUS_IGNORE)
  end do
  call MPI_Sendrecv_replace(x, 2, MPI_DOUBLE_PRECISION, mod(rank+1,2), 3, &
                            mod(rank+1,2), 3, MPI_COMM_WORLD, &
                            MPI_STATUS_IGNORE)
  call MPI_Barrier(MPI_COMM_WORLD)
  if (rank == 0) print '(F6.1)', y(1)
  call MPI_Finalize()
end program funtraced08
