# `make install PREFIX=...` (cmake --install build --prefix ...): what an outside program needs.
#
#   <prefix>/include/{dlb,pvm}/...           the public headers (lib/include, pvm/include with the
#                                             PVM backend; not the runtime's internal ones)
#   <prefix>/lib/libdlb.so                    the library: core, runtime and the backends built
#                                             (DLB_PVM, DLB_SIM, DLB_MPI), with the PVM wrapper
#   <prefix>/lib/pkgconfig/dlb.pc             pkg-config (variables pvm, sim, mpi: yes or no)
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
install(DIRECTORY ${PROJECT_SOURCE_DIR}/lib/include/ DESTINATION include FILES_MATCHING PATTERN "*.hpp")
if(DLB_HAVE_PVM)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/pvm/include/ DESTINATION include FILES_MATCHING PATTERN "*.hpp")
endif()
install(FILES ${dlb_network_profiles} DESTINATION share/dlb/network)

# dlb.pc follows the backends: each one's yes/no variable (pkg-config --variable=mpi dlb), and its
# dependency among the private ones (for static linking). dlb-mpi.pc: a program of its own with
# dlb::mpi::session (MPI's flags come from mpicxx or the MPI's own pkg-config file).
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

include(CMakePackageConfigHelpers)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/cmake/DLBConfigVersion.cmake
                                 VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
configure_file(${CMAKE_CURRENT_LIST_DIR}/DLBConfig.cmake ${PROJECT_BINARY_DIR}/cmake/DLBConfig.cmake
               @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/cmake/DLBConfig.cmake
              ${PROJECT_BINARY_DIR}/cmake/DLBConfigVersion.cmake
        DESTINATION lib/cmake/DLB)
