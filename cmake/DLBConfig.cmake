# DLBConfig.cmake: find_package(DLB) for the installed DLB library (cmake/install.cmake).
#
#   find_package(DLB REQUIRED)                   # or: find_package(DLB REQUIRED COMPONENTS mpi)
#   target_link_libraries(myloop PRIVATE DLB::dlb)   # or DLB::mpi
#
# The component mpi is the MPI backend (--backend mpi, and dlb::mpi::session of dlb/mpi.hpp in a
# program of your own): inside libdlb.so when the library was built where MPI was found
# (DLB_mpi_FOUND; this file is configured by cmake/install.cmake). Asked for, it finds MPI
# (find_dependency) and defines DLB::mpi: DLB::dlb with MPI's headers and library.
#
# DLB::dlb carries the include directory, C++20, and the library's dependencies: PVM 3.4's
# libpvm3 (Debian: pvm-dev), SimGrid (libsimgrid-dev) and threads. DLB_NETWORK_DIR is set to the
# installed network profiles. Relocatable: the prefix is found from this file's location.
include(CMakeFindDependencyMacro)
get_filename_component(_dlb_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)

find_dependency(Threads)
find_library(DLB_PVM3_LIBRARY pvm3)
find_library(DLB_SIMGRID_LIBRARY simgrid)
if(NOT DLB_PVM3_LIBRARY OR NOT DLB_SIMGRID_LIBRARY)
  set(DLB_FOUND FALSE)
  set(DLB_NOT_FOUND_MESSAGE
      "DLB needs libpvm3 (Debian package pvm-dev) and libsimgrid (libsimgrid-dev)")
  return()
endif()

set(DLB_mpi_FOUND @DLB_HAVE_MPI@)
foreach(_dlb_component IN LISTS DLB_FIND_COMPONENTS)
  if(NOT _dlb_component STREQUAL "mpi")
    set(DLB_${_dlb_component}_FOUND FALSE)
  endif()
  if(NOT DLB_${_dlb_component}_FOUND AND DLB_FIND_REQUIRED_${_dlb_component})
    set(DLB_FOUND FALSE)
    set(DLB_NOT_FOUND_MESSAGE
        "DLB has no component '${_dlb_component}' (mpi: the MPI backend, built only where CMake "
        "found MPI when the library was built)")
    return()
  endif()
endforeach()

if(NOT TARGET DLB::dlb)
  add_library(DLB::dlb SHARED IMPORTED)
  set_target_properties(DLB::dlb PROPERTIES
    IMPORTED_LOCATION "${_dlb_prefix}/lib/libdlb.so"
    IMPORTED_SONAME "libdlb.so"
    INTERFACE_INCLUDE_DIRECTORIES "${_dlb_prefix}/include"
    INTERFACE_COMPILE_FEATURES cxx_std_20
    INTERFACE_LINK_LIBRARIES "${DLB_PVM3_LIBRARY};${DLB_SIMGRID_LIBRARY};Threads::Threads")
endif()
if(DLB_mpi_FOUND AND "mpi" IN_LIST DLB_FIND_COMPONENTS AND NOT TARGET DLB::mpi)
  set(MPI_CXX_SKIP_MPICXX ON)
  find_dependency(MPI COMPONENTS CXX)
  add_library(DLB::mpi INTERFACE IMPORTED)
  # MPI first: libsimgrid defines MPI_Init too (SMPI), and a program must bind to MPI's.
  set_target_properties(DLB::mpi PROPERTIES INTERFACE_LINK_LIBRARIES "MPI::MPI_CXX;DLB::dlb")
endif()
set(DLB_NETWORK_DIR "${_dlb_prefix}/share/dlb/network")
unset(_dlb_prefix)
