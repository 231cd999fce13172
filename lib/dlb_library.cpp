// dlb_library.cpp: libdlb.so, the installed library, is dlb_core, dlb_runtime and dlb_pvm linked
// whole (lib/CMakeLists.txt); CMake wants a shared library to have one source of its own, and
// this is it: everything else comes from the three archives.
