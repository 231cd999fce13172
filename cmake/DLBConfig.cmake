# DLBConfig.cmake: find_package(DLB) for the installed DLB library (cmake/install.cmake).
#
#   find_package(DLB REQUIRED)                   # or: find_package(DLB REQUIRED COMPONENTS mpi)
#   target_link_libraries(myloop PRIVATE DLB::dlb)
#
# The component mpi is the MPI backend (--backend mpi): inside libdlb.so when the library was
# built where MPI was found (DLB_mpi_FOUND; this file is configured by cmake/install.cmake).
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
set(DLB_NETWORK_DIR "${_dlb_prefix}/share/dlb/network")
unset(_dlb_prefix)
