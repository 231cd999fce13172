# dlb_library_target(target): what every part of the installed library is built with.
#  - position-independent code, so that the static archives can be linked whole into libdlb.so;
#  - the checkout's path mapped away in whatever the compiler records (__FILE__, debug info), so
#    that no installed file carries a path of the source tree or the build tree (checked by the
#    install test: tests/install/run_install_test.sh).
function(dlb_library_target target)
  set_target_properties(${target} PROPERTIES POSITION_INDEPENDENT_CODE ON)
  target_compile_options(${target} PRIVATE
    "-ffile-prefix-map=${PROJECT_BINARY_DIR}=build"
    "-ffile-prefix-map=${PROJECT_SOURCE_DIR}=.")
endfunction()
