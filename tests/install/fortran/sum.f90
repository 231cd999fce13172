! sum.f90: an outside Fortran MPI program with the installed DLB library inside, through the
! module dlb (ctest install_c_mpi, tests/install/run_c_test.sh). It owns MPI; under each policy
! named on its command line it runs one index-only loop (each rank sums what it computed, the
! program reduces with its own MPI_Reduce), checks the total and the count against a
! sequential loop, then checks that a bad policy is DLB_ERR_USAGE naming it. Prints
! "dlb_f: rank R: POLICY: OK" per policy and "dlb_f: rank R: done".
module sum_body
  use, intrinsic :: iso_c_binding, only: c_int64_t, c_ptr, c_double
  implicit none
  real(c_double) :: partial = 0
  integer(c_int64_t) :: computed = 0
contains
  real(c_double) function value(i)
    integer(c_int64_t), intent(in) :: i
    value = real(mod(i, 13_c_int64_t), c_double) + 0.5_c_double
  end function value

  subroutine body(i, user) bind(c)
    integer(c_int64_t), value :: i
    type(c_ptr), value :: user
    partial = partial + value(i)
    computed = computed + 1
  end subroutine body

  function cost(i, user) bind(c) result(c)
    integer(c_int64_t), value :: i
    type(c_ptr), value :: user
    real(c_double) :: c
    c = 1.0e-6_c_double * real(1 + mod(i, 5_c_int64_t), c_double)
  end function cost
end module sum_body

program sum
  use mpi
  use dlb
  use sum_body
  use, intrinsic :: iso_c_binding, only: c_int64_t, c_double, c_null_ptr
  implicit none
  integer(c_int64_t), parameter :: n = 5000
  integer :: ierr, rank, k, rc, failures, all_failures
  integer(c_int64_t) :: i, count
  real(c_double) :: total, expected
  character(len=32) :: policy
  type(dlb_session) :: s

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  failures = 0
  expected = 0
  do i = 0, n - 1
    expected = expected + value(i)
  end do
  do k = 1, command_argument_count()
    call get_command_argument(k, policy)
    partial = 0
    computed = 0
    rc = dlb_create(MPI_COMM_WORLD, policy, s)
    if (rc == DLB_OK) rc = dlb_parallel_for(s, n, body, c_null_ptr, cost)
    if (rc == DLB_OK) rc = dlb_finish(s)
    if (rc /= DLB_OK) print '(a,i0,a,a)', 'dlb_f: rank ', rank, ': error: ', dlb_error()
    call dlb_free(s)
    call MPI_Reduce(partial, total, 1, MPI_DOUBLE_PRECISION, MPI_SUM, 0, MPI_COMM_WORLD, ierr)
    call MPI_Reduce(computed, count, 1, MPI_INTEGER8, MPI_SUM, 0, MPI_COMM_WORLD, ierr)
    if (rank == 0) then
      if (rc == DLB_OK .and. count == n .and. total == expected) then
        print '(a,a,a)', 'dlb_f: rank 0: ', trim(policy), ': OK'
      else
        print '(a,a)', 'dlb_f: rank 0: FAILED: ', trim(policy)
        failures = failures + 1
      end if
    end if
  end do
  rc = dlb_create(MPI_COMM_WORLD, 'BOGUS', s)
  if (rc /= DLB_ERR_USAGE .or. index(dlb_error(), 'BOGUS') == 0) then
    print '(a,i0,a)', 'dlb_f: rank ', rank, ': FAILED: a bad policy is DLB_ERR_USAGE naming it'
    failures = failures + 1
  end if
  call MPI_Allreduce(failures, all_failures, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (all_failures == 0) print '(a,i0,a)', 'dlb_f: rank ', rank, ': done'
  call MPI_Finalize(ierr)
  if (all_failures /= 0) stop 1
end program sum
