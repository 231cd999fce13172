! misuse.f90: an outside Fortran MPI program that gets the module dlb wrong the way a program
! can (ctest install_misuse_mpi, tests/install/run_misuse_test.sh). The first argument names the
! run:
!   before-init     dlb_create before MPI_Init: DLB_ERR_USAGE (not the job's end), then MPI_Init
!   after-finalize  dlb_create after MPI_Finalize: DLB_ERR_USAGE
!   run             each case, then a right session on the same communicator:
!     body-rc        the last rank's body returns 7 (dlb_parallel_for_rc): DLB_ERR_RUN on every
!                    rank, naming the value
!     create-with    dlb_create_with, a timeout, options and a prefetch: a right loop
!     auto-all-candidates  AUTO-ALL with --candidates GSS,FAC2: runs, every iteration once
!     policy-twice   GSS named and --strategy TSS in the options: DLB_ERR_USAGE naming both
!     bad-prefetch   dlb_create_with, a prefetch of 1: DLB_ERR_USAGE naming it
!     mismatched-n   the last rank's loop 300 iterations, the others' 400: DLB_ERR_USAGE
!     after-finish   dlb_parallel_for after dlb_finish: DLB_ERR_USAGE
! Each case prints "dlb_f_misuse: rank R: CASE: rc C: MESSAGE" and "... CASE: then right".
module misuse_body
  use, intrinsic :: iso_c_binding, only: c_int64_t, c_ptr, c_int
  implicit none
  integer(c_int64_t) :: computed = 0
  integer :: me = 0, last = 0
contains
  subroutine body(i, user) bind(c)
    integer(c_int64_t), value :: i
    type(c_ptr), value :: user
    computed = computed + 1
  end subroutine body

  function fails_on_last(i, user) bind(c) result(rc)
    integer(c_int64_t), value :: i
    type(c_ptr), value :: user
    integer(c_int) :: rc
    computed = computed + 1
    rc = 0
    if (me == last) rc = 7
  end function fails_on_last
end module misuse_body

program misuse
  use mpi
  use dlb
  use misuse_body
  use, intrinsic :: iso_c_binding, only: c_int64_t, c_double, c_null_ptr
  implicit none
  integer :: ierr, size, rc
  integer(c_int64_t) :: n
  character(len=32) :: what
  type(dlb_session) :: s

  call get_command_argument(1, what)
  if (what == 'before-init') then
    rc = dlb_create(MPI_COMM_WORLD, 'SS', s)
    print '(a,i0,a,a)', 'dlb_f_misuse: before MPI_Init: rc ', rc, ': ', dlb_error()
  end if
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, me, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, size, ierr)
  last = size - 1
  if (what == 'before-init') then
    print '(a,i0,a)', 'dlb_f_misuse: rank ', me, ': MPI_Init works'
  else if (what == 'after-finalize') then
    call MPI_Finalize(ierr)
    rc = dlb_create(MPI_COMM_WORLD, 'SS', s)
    print '(a,i0,a,a)', 'dlb_f_misuse: after MPI_Finalize: rc ', rc, ': ', dlb_error()
  else if (what == 'run') then
    computed = 0
    ! AWF keeps the two-sided path, where the master hands every rank its first chunk, so the
    ! last rank's body surely runs (on the one-sided path the others may take every chunk first).
    rc = dlb_create_with(MPI_COMM_WORLD, 'AWF', s, 20.0_c_double, '--quiet')
    if (rc == DLB_OK) rc = dlb_parallel_for_rc(s, 400_c_int64_t, fails_on_last, c_null_ptr)
    call said('body-rc', rc)
    call dlb_free(s)
    call then_right('body-rc')

    rc = dlb_create_with(MPI_COMM_WORLD, 'FAC2', s, 20.0_c_double, &
                         '--quiet --master-rank dedicated', prefetch=0.5_c_double)
    call said('create-with', rc)
    call dlb_free(s)
    call then_right('create-with')

    computed = 0
    rc = dlb_create_with(MPI_COMM_WORLD, 'AUTO-ALL', s, 20.0_c_double, '--quiet --candidates GSS,FAC2')
    if (rc == DLB_OK) rc = dlb_parallel_for(s, 500_c_int64_t, body, c_null_ptr)
    if (rc == DLB_OK) rc = dlb_finish(s)
    call dlb_free(s)
    call MPI_Allreduce(computed, n, 1, MPI_INTEGER8, MPI_SUM, MPI_COMM_WORLD, ierr)
    print '(a,i0,a,i0,a,i0,a)', 'dlb_f_misuse: rank ', me, ': auto-all-candidates: rc ', rc, ', ', &
      n, ' of 500'

    rc = dlb_create_with(MPI_COMM_WORLD, 'GSS', s, 20.0_c_double, '--quiet --strategy TSS')
    call said('policy-twice', rc)
    call dlb_free(s)
    call then_right('policy-twice')

    rc = dlb_create_with(MPI_COMM_WORLD, 'SS', s, 20.0_c_double, '--quiet', prefetch=1.0_c_double)
    call said('bad-prefetch', rc)
    call dlb_free(s)
    call then_right('bad-prefetch')

    n = 400
    if (me == last) n = 300
    rc = dlb_create_with(MPI_COMM_WORLD, 'GDDLB', s, 20.0_c_double, '--quiet')
    if (rc == DLB_OK) rc = dlb_parallel_for(s, n, body, c_null_ptr)
    call said('mismatched-n', rc)
    call dlb_free(s)
    call then_right('mismatched-n')

    rc = dlb_create_with(MPI_COMM_WORLD, 'SS', s, 20.0_c_double, '--quiet')
    if (rc == DLB_OK) rc = dlb_finish(s)
    if (rc == DLB_OK) rc = dlb_parallel_for(s, 10_c_int64_t, body, c_null_ptr)
    call said('after-finish', rc)
    call dlb_free(s)
    call then_right('after-finish')
  end if
  if (what /= 'after-finalize') call MPI_Finalize(ierr)

contains

  subroutine said(name, rc)
    character(len=*), intent(in) :: name
    integer, intent(in) :: rc
    print '(a,i0,a,a,a,i0,a,a)', 'dlb_f_misuse: rank ', me, ': ', name, ': rc ', rc, ': ', &
      dlb_error()
  end subroutine said

  ! A new session on the same communicator runs every iteration once over the ranks.
  subroutine then_right(name)
    character(len=*), intent(in) :: name
    integer(c_int64_t) :: total
    integer :: rc2
    type(dlb_session) :: t
    computed = 0
    rc2 = dlb_create_with(MPI_COMM_WORLD, 'GDDLB', t, 20.0_c_double, '--quiet')
    if (rc2 == DLB_OK) rc2 = dlb_parallel_for(t, 500_c_int64_t, body, c_null_ptr)
    if (rc2 == DLB_OK) rc2 = dlb_finish(t)
    call dlb_free(t)
    call MPI_Allreduce(computed, total, 1, MPI_INTEGER8, MPI_SUM, MPI_COMM_WORLD, ierr)
    if (rc2 == DLB_OK .and. total == 500) then
      print '(a,i0,a,a,a)', 'dlb_f_misuse: rank ', me, ': ', name, ': then right'
    else
      print '(a,i0,a,a,a)', 'dlb_f_misuse: rank ', me, ': ', name, ': then wrong'
    end if
  end subroutine then_right
end program misuse
