# `make install PREFIX=...` (cmake --install build --prefix ...): what an outside program needs.
#
#   <prefix>/include/{dlb,pvm}/...           the public headers (lib/include, pvm/include; not
#                                             the runtime's internal ones, lib/runtime/internal)
#   <prefix>/lib/libdlb.so                    the library: core, runtime and PVM wrapper in one,
#                                             and the MPI backend where MPI was found
#   <prefix>/lib/pkgconfig/dlb.pc             pkg-config (Requires.private: simgrid; -lpvm3)
#   <prefix>/lib/cmake/DLB/DLBConfig*.cmake   find_package(DLB): the imported target DLB::dlb;
#                                             the component mpi when the MPI backend is inside
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
install(DIRECTORY ${PROJECT_SOURCE_DIR}/lib/include/ ${PROJECT_SOURCE_DIR}/pvm/include/
        DESTINATION include FILES_MATCHING PATTERN "*.hpp")
install(FILES ${dlb_network_profiles} DESTINATION share/dlb/network)

if(DLB_HAVE_MPI)
  set(DLB_PC_MPI yes)
else()
  set(DLB_PC_MPI no)
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
