! dlb.f90: the DLB library from Fortran 2008 (`use dlb`), over its C layer (dlb/dlb.h), inside
! an MPI program that owns MPI. Installed as source (<prefix>/share/dlb/fortran/dlb.f90), so that
! it is compiled by the program's own compiler:
!
!   mkdir -p mod
!   mpifort -J mod <prefix>/share/dlb/fortran/dlb.f90 prog.f90 $(pkg-config --libs dlb-mpi-c)
!
! (-J DIR, gfortran's: dlb.mod goes to DIR, not the current folder.) A session's every wait is
! bounded by its timeout (120 s unless dlb_create_with says otherwise); before a loop and before
! dlb_finish every rank checks that the others do the same (DLB_ERR_USAGE naming what differs).
!
! Every rank of the communicator creates the session (collective); a loop is index-only: the
! library calls body(i, user) for every iteration 0..n-1 (zero-based, as the C layer counts) on
! the rank the policy gives it to and moves no data; the program combines what the ranks
! computed with its own MPI. Every function returns DLB_OK or an error code; dlb_error() is the
! text of the last error.
module dlb
  use, intrinsic :: iso_c_binding, only: c_ptr, c_funptr, c_int, c_int64_t, c_double, c_char, &
                                         c_null_char, c_null_ptr, c_null_funptr, c_funloc, &
                                         c_associated, c_f_pointer, c_size_t
  implicit none
  private

  integer, parameter, public :: DLB_OK = 0, DLB_ERR_USAGE = 1, DLB_ERR_RUN = 2, DLB_ERR_OTHER = 3
  ! dlb_create_with's path (dlb.h's dlb_session_params::path) and dlb_parallel_reduce's op.
  integer, parameter, public :: DLB_PATH_AUTO = 0, DLB_PATH_TWO_SIDED = 1, DLB_PATH_ONE_SIDED = 2
  integer, parameter, public :: DLB_REDUCE_SUM = 0, DLB_REDUCE_MIN = 1, DLB_REDUCE_MAX = 2, &
                                DLB_REDUCE_USER = 3

  ! One session of the library on one communicator.
  type, public :: dlb_session
    type(c_ptr) :: handle = c_null_ptr
  end type dlb_session

  public :: dlb_create, dlb_create_with, dlb_parallel_for, dlb_parallel_for_rc, dlb_finish
  public :: dlb_free, dlb_rank, dlb_is_master, dlb_error
  public :: dlb_body, dlb_body_rc, dlb_cost
  public :: dlb_parallel_reduce, dlb_value, dlb_combine

  abstract interface
    ! The loop's body: iteration i (0 .. n-1), with the program's pointer.
    subroutine dlb_body(i, user) bind(c)
      import :: c_int64_t, c_ptr
      integer(c_int64_t), value :: i
      type(c_ptr), value :: user
    end subroutine dlb_body
    ! A body that can fail: 0 for done, any other value stops the loop on every rank.
    function dlb_body_rc(i, user) bind(c) result(rc)
      import :: c_int64_t, c_ptr, c_int
      integer(c_int64_t), value :: i
      type(c_ptr), value :: user
      integer(c_int) :: rc
    end function dlb_body_rc
    ! What iteration i costs relative to the others (the balancing's input only).
    function dlb_cost(i, user) bind(c) result(cost)
      import :: c_int64_t, c_ptr, c_double
      integer(c_int64_t), value :: i
      type(c_ptr), value :: user
      real(c_double) :: cost
    end function dlb_cost
    function dlb_value(i, user) bind(c) result(v)
      import :: c_int64_t, c_ptr, c_double
      integer(c_int64_t), value :: i
      type(c_ptr), value :: user
      real(c_double) :: v
    end function dlb_value
    function dlb_combine(a, b, user) bind(c) result(v)
      import :: c_ptr, c_double
      real(c_double), value :: a, b
      type(c_ptr), value :: user
      real(c_double) :: v
    end function dlb_combine
  end interface

  interface
    function c_create_path_f(comm, policy, timeout, prefetch, options, path, session) &
        bind(c, name='dlb_session_create_path_f') result(rc)
      import :: c_int, c_char, c_ptr, c_double
      integer(c_int), value :: comm
      character(kind=c_char), dimension(*), intent(in) :: policy
      real(c_double), value :: timeout
      real(c_double), value :: prefetch
      character(kind=c_char), dimension(*), intent(in) :: options
      integer(c_int), value :: path
      type(c_ptr), intent(out) :: session
      integer(c_int) :: rc
    end function c_create_path_f
    function c_parallel_reduce(session, n, cost, body, op, combine, identity, user, result) &
        bind(c, name='dlb_parallel_reduce') result(rc)
      import :: c_ptr, c_int64_t, c_funptr, c_int, c_double
      type(c_ptr), value :: session
      integer(c_int64_t), value :: n
      type(c_funptr), value :: cost, body
      integer(c_int), value :: op
      type(c_funptr), value :: combine
      real(c_double), value :: identity
      type(c_ptr), value :: user
      real(c_double), intent(out) :: result
      integer(c_int) :: rc
    end function c_parallel_reduce
    function c_create_f(comm, policy, session) bind(c, name='dlb_session_create_f') result(rc)
      import :: c_int, c_char, c_ptr
      integer(c_int), value :: comm
      character(kind=c_char), dimension(*), intent(in) :: policy
      type(c_ptr), intent(out) :: session
      integer(c_int) :: rc
    end function c_create_f
    function c_create_with_f(comm, policy, timeout, prefetch, options, session) &
        bind(c, name='dlb_session_create_with_f') result(rc)
      import :: c_int, c_char, c_ptr, c_double
      integer(c_int), value :: comm
      character(kind=c_char), dimension(*), intent(in) :: policy
      real(c_double), value :: timeout
      real(c_double), value :: prefetch
      character(kind=c_char), dimension(*), intent(in) :: options
      type(c_ptr), intent(out) :: session
      integer(c_int) :: rc
    end function c_create_with_f
    function c_parallel_for_rc(session, n, cost, body, user) bind(c, name='dlb_parallel_for_rc') &
        result(rc)
      import :: c_ptr, c_int64_t, c_funptr, c_int
      type(c_ptr), value :: session
      integer(c_int64_t), value :: n
      type(c_funptr), value :: cost, body
      type(c_ptr), value :: user
      integer(c_int) :: rc
    end function c_parallel_for_rc
    function c_parallel_for(session, n, cost, body, user) bind(c, name='dlb_parallel_for') &
        result(rc)
      import :: c_ptr, c_int64_t, c_funptr, c_int
      type(c_ptr), value :: session
      integer(c_int64_t), value :: n
      type(c_funptr), value :: cost, body
      type(c_ptr), value :: user
      integer(c_int) :: rc
    end function c_parallel_for
    function c_finish(session) bind(c, name='dlb_session_finish') result(rc)
      import :: c_ptr, c_int
      type(c_ptr), value :: session
      integer(c_int) :: rc
    end function c_finish
    subroutine c_free(session) bind(c, name='dlb_session_free')
      import :: c_ptr
      type(c_ptr), intent(inout) :: session
    end subroutine c_free
    function c_rank(session) bind(c, name='dlb_session_rank') result(r)
      import :: c_ptr, c_int
      type(c_ptr), value :: session
      integer(c_int) :: r
    end function c_rank
    function c_is_master(session) bind(c, name='dlb_session_is_master') result(m)
      import :: c_ptr, c_int
      type(c_ptr), value :: session
      integer(c_int) :: m
    end function c_is_master
    function c_error_message() bind(c, name='dlb_error_message') result(p)
      import :: c_ptr
      type(c_ptr) :: p
    end function c_error_message
    function c_strlen(s) bind(c, name='strlen') result(n)
      import :: c_ptr, c_size_t
      type(c_ptr), value :: s
      integer(c_size_t) :: n
    end function c_strlen
  end interface

contains

  ! Creates the session on `comm` (an integer handle: MPI_COMM_WORLD of `use mpi`, or
  ! comm%MPI_VAL of `use mpi_f08`) under `policy` ("" : the environment's DLB_POLICY).
  integer function dlb_create(comm, policy, session) result(rc)
    integer, intent(in) :: comm
    character(len=*), intent(in) :: policy
    type(dlb_session), intent(out) :: session
    rc = int(c_create_f(int(comm, c_int), trim(policy)//c_null_char, session%handle))
  end function dlb_create

  ! The same with options: `timeout` in seconds (the default: 120), `options` the further options
  ! of the C layer as a command line's words ('--quiet --master-rank dedicated'), `prefetch` the
  ! self-scheduling rules' (a worker asks for its next chunk when this fraction of its chunk is
  ! left, in [0, 1); the default 0: when its chunk is done).
  integer function dlb_create_with(comm, policy, session, timeout, options, prefetch, path) &
      result(rc)
    integer, intent(in) :: comm
    character(len=*), intent(in) :: policy
    type(dlb_session), intent(out) :: session
    real(c_double), intent(in), optional :: timeout
    character(len=*), intent(in), optional :: options
    real(c_double), intent(in), optional :: prefetch
    integer, intent(in), optional :: path  ! DLB_PATH_AUTO (the default), _TWO_SIDED, _ONE_SIDED
    real(c_double) :: t, f
    t = 0
    f = 0
    if (present(timeout)) t = timeout
    if (present(prefetch)) f = prefetch
    if (present(path)) then
      if (present(options)) then
        rc = int(c_create_path_f(int(comm, c_int), trim(policy)//c_null_char, t, f, &
                                 trim(options)//c_null_char, int(path, c_int), session%handle))
      else
        rc = int(c_create_path_f(int(comm, c_int), trim(policy)//c_null_char, t, f, &
                                 c_null_char, int(path, c_int), session%handle))
      end if
    else if (present(options)) then
      rc = int(c_create_with_f(int(comm, c_int), trim(policy)//c_null_char, t, f, &
                               trim(options)//c_null_char, session%handle))
    else
      rc = int(c_create_with_f(int(comm, c_int), trim(policy)//c_null_char, t, f, c_null_char, &
                               session%handle))
    end if
  end function dlb_create_with

  ! A loop whose body returns an error code (0: done; any other stops the loop on every rank,
  ! which returns DLB_ERR_RUN naming the rank and the code); `cost` optional.
  integer function dlb_parallel_for_rc(session, n, body, user, cost) result(rc)
    type(dlb_session), intent(in) :: session
    integer(c_int64_t), intent(in) :: n
    procedure(dlb_body_rc) :: body
    type(c_ptr), intent(in) :: user
    procedure(dlb_cost), optional :: cost
    type(c_funptr) :: cost_ptr
    cost_ptr = c_null_funptr
    if (present(cost)) cost_ptr = c_funloc(cost)
    rc = int(c_parallel_for_rc(session%handle, n, cost_ptr, c_funloc(body), user))
  end function dlb_parallel_for_rc

  ! One balanced loop of n iterations (collective); `cost` optional.
  integer function dlb_parallel_for(session, n, body, user, cost) result(rc)
    type(dlb_session), intent(in) :: session
    integer(c_int64_t), intent(in) :: n
    procedure(dlb_body) :: body
    type(c_ptr), intent(in) :: user
    procedure(dlb_cost), optional :: cost
    type(c_funptr) :: cost_ptr
    cost_ptr = c_null_funptr
    if (present(cost)) cost_ptr = c_funloc(cost)
    rc = int(c_parallel_for(session%handle, n, cost_ptr, c_funloc(body), user))
  end function dlb_parallel_for

  ! An index-only loop whose body returns iteration i's value, reduced by op (DLB_REDUCE_SUM,
  ! _MIN, _MAX, or _USER with combine and identity) in iteration order by fixed blocks: result is
  ! bitwise the same under every policy, number of ranks and path, on every rank.
  integer function dlb_parallel_reduce(session, n, body, user, op, result, combine, identity, &
                                       cost) result(rc)
    type(dlb_session), intent(in) :: session
    integer(c_int64_t), intent(in) :: n
    procedure(dlb_value) :: body
    type(c_ptr), intent(in) :: user
    integer, intent(in) :: op
    real(c_double), intent(out) :: result
    procedure(dlb_combine), optional :: combine
    real(c_double), intent(in), optional :: identity
    procedure(dlb_cost), optional :: cost
    type(c_funptr) :: cost_ptr, combine_ptr
    real(c_double) :: e
    cost_ptr = c_null_funptr
    combine_ptr = c_null_funptr
    e = 0
    if (present(cost)) cost_ptr = c_funloc(cost)
    if (present(combine)) combine_ptr = c_funloc(combine)
    if (present(identity)) e = identity
    rc = int(c_parallel_reduce(session%handle, n, cost_ptr, c_funloc(body), int(op, c_int), &
                               combine_ptr, e, user, result))
  end function dlb_parallel_reduce

  integer function dlb_finish(session) result(rc)
    type(dlb_session), intent(in) :: session
    rc = int(c_finish(session%handle))
  end function dlb_finish

  subroutine dlb_free(session)
    type(dlb_session), intent(inout) :: session
    call c_free(session%handle)
  end subroutine dlb_free

  integer function dlb_rank(session) result(r)
    type(dlb_session), intent(in) :: session
    r = int(c_rank(session%handle))
  end function dlb_rank

  logical function dlb_is_master(session) result(m)
    type(dlb_session), intent(in) :: session
    m = c_is_master(session%handle) /= 0
  end function dlb_is_master

  ! The text of the last error ("" if none).
  function dlb_error() result(text)
    character(len=:), allocatable :: text
    type(c_ptr) :: p
    character(kind=c_char), pointer :: chars(:)
    integer :: k, n
    p = c_error_message()
    n = 0
    if (c_associated(p)) n = int(c_strlen(p))
    allocate (character(len=n) :: text)
    if (n == 0) return
    call c_f_pointer(p, chars, [n])
    do k = 1, n
      text(k:k) = chars(k)
    end do
  end function dlb_error

end module dlb
