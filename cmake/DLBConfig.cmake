# DLBConfig.cmake: find_package(DLB) for the installed DLB library (cmake/install.cmake).
#
#   find_package(DLB REQUIRED)                    # DLB::dlb
#   find_package(DLB REQUIRED COMPONENTS mpi)     # DLB::mpi: dlb::mpi::session (dlb/mpi.hpp)
#   target_link_libraries(myloop PRIVATE DLB::dlb)   # or DLB::mpi
#
# The components are the backends inside libdlb.so, as it was built (this file is configured
# by cmake/install.cmake): pvm (--backend pvm; libpvm3), sim (--backend sim; SimGrid) and mpi
# (--backend mpi and dlb::mpi::session; MPI). DLB_<component>_FOUND says which; asking for one
# the library lacks fails. Each backend's own dependency is checked before the targets are
# defined: libpvm3 and libsimgrid by find_library (neither ships a CMake package), MPI by
# find_dependency(MPI) (only when the mpi component is asked for: what its header needs).
#
# DLB::dlb carries the include directory, C++20 and threads; DLB::mpi adds MPI's headers and
# library, before libdlb.so (libsimgrid, when inside, defines MPI_Init too: SMPI). DLB_NETWORK_DIR
# is set to the installed network profiles. Relocatable: the prefix is found from this file.
include(CMakeFindDependencyMacro)
get_filename_component(_dlb_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)

set(DLB_pvm_FOUND @DLB_HAVE_PVM@)
set(DLB_sim_FOUND @DLB_HAVE_SIM@)
set(DLB_mpi_FOUND @DLB_HAVE_MPI@)
foreach(_dlb_component IN LISTS DLB_FIND_COMPONENTS)
  if(NOT _dlb_component MATCHES "^(pvm|sim|mpi)$")
    set(DLB_${_dlb_component}_FOUND FALSE)
  endif()
  if(NOT DLB_${_dlb_component}_FOUND AND DLB_FIND_REQUIRED_${_dlb_component})
    set(DLB_FOUND FALSE)
    set(DLB_NOT_FOUND_MESSAGE
        "DLB has no component '${_dlb_component}' (the components are the backends built into "
        "libdlb.so: pvm, sim, mpi, each only where its dependency was found when it was built)")
    return()
  endif()
endforeach()

find_dependency(Threads)
# The backends' own dependencies, which libdlb.so needs at run time.
if(DLB_pvm_FOUND)
  find_library(DLB_PVM3_LIBRARY pvm3)
  if(NOT DLB_PVM3_LIBRARY)
    set(DLB_FOUND FALSE)
    set(DLB_NOT_FOUND_MESSAGE "DLB's pvm backend needs libpvm3 (Debian package pvm-dev)")
    return()
  endif()
endif()
if(DLB_sim_FOUND)
  find_library(DLB_SIMGRID_LIBRARY simgrid)
  if(NOT DLB_SIMGRID_LIBRARY)
    set(DLB_FOUND FALSE)
    set(DLB_NOT_FOUND_MESSAGE "DLB's sim backend needs libsimgrid (Debian package libsimgrid-dev)")
    return()
  endif()
endif()
if(DLB_mpi_FOUND AND "mpi" IN_LIST DLB_FIND_COMPONENTS)
  set(MPI_CXX_SKIP_MPICXX ON)
  find_dependency(MPI COMPONENTS CXX)
endif()

if(NOT TARGET DLB::dlb)
  add_library(DLB::dlb SHARED IMPORTED)
  set_target_properties(DLB::dlb PROPERTIES
    IMPORTED_LOCATION "${_dlb_prefix}/lib/libdlb.so"
    IMPORTED_SONAME "libdlb.so"
    INTERFACE_INCLUDE_DIRECTORIES "${_dlb_prefix}/include"
    INTERFACE_COMPILE_FEATURES cxx_std_20
    INTERFACE_LINK_LIBRARIES "Threads::Threads")
endif()
if(DLB_mpi_FOUND AND "mpi" IN_LIST DLB_FIND_COMPONENTS AND NOT TARGET DLB::mpi)
  add_library(DLB::mpi INTERFACE IMPORTED)
  set_target_properties(DLB::mpi PROPERTIES INTERFACE_LINK_LIBRARIES "MPI::MPI_CXX;DLB::dlb")
endif()
set(DLB_NETWORK_DIR "${_dlb_prefix}/share/dlb/network")
unset(_dlb_prefix)
