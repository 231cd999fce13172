# dlb_library_target(target): what every part of the installed library is built with.
#  - position-independent code, so that the static archives can be linked whole into libdlb.so;
#  - the checkout's path mapped away in whatever the compiler records (__FILE__, debug info), so
#    that no installed file carries a path of the source tree or the build tree (checked by the
#    install test: tests/install/run_install_test.sh).
#    The relative form is for ccache: with CCACHE_BASEDIR it hands the compiler paths relative to
#    the directory it compiles in (the target's binary directory), climbing out of build/ to the sources
function(dlb_library_target target)
  set_target_properties(${target} PROPERTIES POSITION_INDEPENDENT_CODE ON)
  file(RELATIVE_PATH source_from_here "${CMAKE_CURRENT_BINARY_DIR}" "${PROJECT_SOURCE_DIR}")
  target_compile_options(${target} PRIVATE
    "-ffile-prefix-map=${PROJECT_BINARY_DIR}=build"
    "-ffile-prefix-map=${PROJECT_SOURCE_DIR}=."
    "-ffile-prefix-map=${source_from_here}=.")
endfunction()
