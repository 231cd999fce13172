! sum.f90: an outside Fortran MPI program with the installed DLB library inside, through the
! module dlb (ctest install_c_mpi, tests/install/run_c_test.sh). It owns MPI; under each policy
! named on its command line it runs one index-only loop (each rank sums what it computed, the
! program reduces with its own MPI_Reduce), checks the total and the count against a
! sequential loop, and dlb_parallel_reduce of order-sensitive values (1e16, small ones, -1e16)
! against the bits of the sequential blocked reference (sum and a user operation; then on the
! one-sided path, path = DLB_PATH_ONE_SIDED); then checks that a bad policy is DLB_ERR_USAGE
! naming it. Prints "dlb_f: rank R: POLICY: OK" per policy and "dlb_f: rank R: done".
module sum_body
  use, intrinsic :: iso_c_binding, only: c_int64_t, c_ptr, c_double, c_null_ptr
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

  function mixed(i, user) bind(c) result(v)
    integer(c_int64_t), value :: i
    type(c_ptr), value :: user
    real(c_double) :: v
    select case (mod(i, 3_c_int64_t))
    case (0)
      v = 1.0e16_c_double + real(i, c_double)
    case (1)
      v = 1.0_c_double + 1.0e-3_c_double * real(i, c_double)
    case default
      v = -1.0e16_c_double
    end select
  end function mixed

  function half_and_add(a, b, user) bind(c) result(v)
    real(c_double), value :: a, b
    type(c_ptr), value :: user
    real(c_double) :: v
    v = 0.5_c_double * a + b
  end function half_and_add

  ! The documented blocked order: blocks of max(1, ceil(n / 1024)) iterations, each folded in
  ! order from the identity (0), then the blocks in order.
  real(c_double) function blocked(n, user_op)
    integer(c_int64_t), intent(in) :: n
    logical, intent(in) :: user_op
    integer(c_int64_t) :: b, i, bs
    real(c_double) :: acc
    type(c_ptr) :: none
    none = c_null_ptr
    bs = max(1_c_int64_t, (n + 1023) / 1024)
    blocked = 0
    b = 0
    do while (b * bs < n)
      acc = 0
      do i = b * bs, min(n, (b + 1) * bs) - 1
        if (user_op) then
          acc = half_and_add(acc, mixed(i, none), none)
        else
          acc = acc + mixed(i, none)
        end if
      end do
      if (user_op) then
        blocked = half_and_add(blocked, acc, none)
      else
        blocked = blocked + acc
      end if
      b = b + 1
    end do
  end function blocked

  ! The session's reductions against the reference's bits: 0 when they hold.
  integer function reduce_checked(s, n) result(rc)
    use dlb
    type(dlb_session), intent(in) :: s
    integer(c_int64_t), intent(in) :: n
    real(c_double) :: got
    rc = dlb_parallel_reduce(s, n, mixed, c_null_ptr, DLB_REDUCE_SUM, got)
    if (rc == DLB_OK .and. transfer(got, 0_c_int64_t) /= transfer(blocked(n, .false.), &
                                                                  0_c_int64_t)) rc = -1
    if (rc == DLB_OK) rc = dlb_parallel_reduce(s, n, mixed, c_null_ptr, DLB_REDUCE_USER, got, &
                                               half_and_add, 0.0_c_double)
    if (rc == DLB_OK .and. transfer(got, 0_c_int64_t) /= transfer(blocked(n, .true.), &
                                                                  0_c_int64_t)) rc = -1
  end function reduce_checked

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
    if (rc == DLB_OK) rc = reduce_checked(s, n)
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
  rc = dlb_create_with(MPI_COMM_WORLD, 'SS', s, options='--quiet', path=DLB_PATH_ONE_SIDED)
  if (rc == DLB_OK) rc = reduce_checked(s, n)
  if (rc == DLB_OK) rc = dlb_finish(s)
  call dlb_free(s)
  if (rc /= DLB_OK) then
    print '(a,i0,a,i0)', 'dlb_f: rank ', rank, ': FAILED: the reductions on the one-sided path: ', rc
    failures = failures + 1
  end if
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
