# `make install PREFIX=...` (cmake --install build --prefix ...): what an outside program needs.
#
#   <prefix>/include/{dlb,pvm}/...           the public headers (lib/include, pvm/include with the
#                                             PVM backend; not the runtime's internal ones)
#   <prefix>/lib/libdlb.so                    the library: core, runtime and the backends built
#                                             (DLB_PVM, DLB_SIM, DLB_MPI), with the PVM wrapper
#   <prefix>/lib/pkgconfig/dlb.pc             pkg-config (variables pvm, sim, mpi: yes or no)
#   <prefix>/lib/pkgconfig/dlb-mpi{,-c}.pc    with MPI: a program of your own in C++ or C, MPI's
#                                             flags included
#   <prefix>/share/dlb/fortran/dlb.f90        with MPI: the Fortran module dlb, as source
#   <prefix>/lib/cmake/DLB/DLBConfig*.cmake   find_package(DLB): DLB::dlb; the components pvm,
#                                             sim, mpi (DLB::mpi) as built
#   <prefix>/share/dlb/network/*.profile      the reference network profiles of the cost model
#
# Everything is relocatable: dlb.pc and DLBConfig.cmake find the prefix from their own location,
# and the library finds the profiles from its own file (lib/runtime/network_profile.cpp). The
# build tree has the same layout for the profiles (build/share/dlb/network), so programs run from
# build/ find them the same way.
file(GLOB dlb_network_profiles CONFIGURE_DEPENDS
     ${PROJECT_SOURCE_DIR}/experiments/network/*.profile)
foreach(profile ${dlb_network_profiles})
  get_filename_component(name ${profile} NAME)
  configure_file(${profile} ${PROJECT_BINARY_DIR}/share/dlb/network/${name} COPYONLY)
endforeach()

install(TARGETS dlb LIBRARY DESTINATION lib)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/lib/include/ DESTINATION include FILES_MATCHING PATTERN "*.hpp"
                                                                              PATTERN "*.h")
if(DLB_HAVE_PVM)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/pvm/include/ DESTINATION include FILES_MATCHING PATTERN "*.hpp")
endif()
install(FILES ${dlb_network_profiles} DESTINATION share/dlb/network)

# dlb.pc follows the backends: each one's yes/no variable (pkg-config --variable=mpi dlb), and its
# dependency among the private ones (for static linking).
foreach(b PVM SIM MPI)
  string(TOLOWER ${b} lower)
  if(DLB_HAVE_${b})
    set(DLB_PC_${b} yes)
  else()
    set(DLB_PC_${b} no)
  endif()
endforeach()
set(DLB_PC_REQUIRES_PRIVATE "")
set(DLB_PC_LIBS_PRIVATE "-lrt -pthread")
if(DLB_HAVE_SIM)
  set(DLB_PC_REQUIRES_PRIVATE "simgrid")
endif()
if(DLB_HAVE_PVM)
  set(DLB_PC_LIBS_PRIVATE "-lpvm3 ${DLB_PC_LIBS_PRIVATE}")
endif()
if(DLB_HAVE_MPI)
  set(DLB_PC_REQUIRES_PRIVATE "${DLB_PC_REQUIRES_PRIVATE} ompi")
endif()
configure_file(${CMAKE_CURRENT_LIST_DIR}/dlb.pc.in ${PROJECT_BINARY_DIR}/cmake/dlb.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/cmake/dlb.pc DESTINATION lib/pkgconfig)

# dlb-mpi.pc (C++) and dlb-mpi-c.pc (C): enough alone for a program that also calls MPI itself,
# so they require MPI's own pkg-config module (Open MPI's ompi-cxx / ompi-c, or MPICH's mpich).
if(DLB_HAVE_MPI)
  find_package(PkgConfig QUIET)
  set(DLB_PC_MPI_REQUIRES "")
  if(PKG_CONFIG_FOUND)
    pkg_check_modules(DLB_OMPI QUIET ompi-c)
    pkg_check_modules(DLB_MPICH QUIET mpich)
    if(DLB_OMPI_FOUND)
      set(DLB_PC_MPI_REQUIRES ompi-cxx)
      set(DLB_PC_MPI_C_REQUIRES ompi-c)
    elseif(DLB_MPICH_FOUND)
      set(DLB_PC_MPI_REQUIRES mpich)
      set(DLB_PC_MPI_C_REQUIRES mpich)
    endif()
  endif()
  if(DLB_PC_MPI_REQUIRES STREQUAL "")
    message(WARNING "no pkg-config module of this MPI (ompi-c, mpich): dlb-mpi.pc and "
                    "dlb-mpi-c.pc name none; compile with the MPI's own wrappers (mpicxx, mpicc)")
  endif()
  # The Fortran 2008 module over the C layer, as source: compiled by the program's own compiler.
  install(FILES ${PROJECT_SOURCE_DIR}/lib/fortran/dlb.f90 DESTINATION share/dlb/fortran)
  foreach(pc dlb-mpi dlb-mpi-c)
    configure_file(${CMAKE_CURRENT_LIST_DIR}/${pc}.pc.in ${PROJECT_BINARY_DIR}/cmake/${pc}.pc @ONLY)
    install(FILES ${PROJECT_BINARY_DIR}/cmake/${pc}.pc DESTINATION lib/pkgconfig)
  endforeach()
endif()

include(CMakePackageConfigHelpers)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/cmake/DLBConfigVersion.cmake
                                 VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
configure_file(${CMAKE_CURRENT_LIST_DIR}/DLBConfig.cmake ${PROJECT_BINARY_DIR}/cmake/DLBConfig.cmake
               @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/cmake/DLBConfig.cmake
              ${PROJECT_BINARY_DIR}/cmake/DLBConfigVersion.cmake
        DESTINATION lib/cmake/DLB)
