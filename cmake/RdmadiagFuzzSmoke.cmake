# The fuzz targets inside the ASan+UBSan tree (RDMADIAG_FUZZ_SMOKE_TARGETS=ON with
# RDMADIAG_SANITIZE=address,...): the test command's fuzz smoke stage then needs no tree of its
# own, which would compile every library it links a third time. Every object here carries the
# fuzzer's coverage instrumentation (fuzzer-no-link) so the fuzzers see the branches of the
# parsers they drive; programs and unit tests pay a few percent for it and link no libFuzzer.
# scripts/fuzz keeps its optimised tree (RDMADIAG_BUILD_FUZZERS) for long runs.

if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang" OR NOT CMAKE_C_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "RDMADIAG_FUZZ_SMOKE_TARGETS needs clang: configure with "
                        "-DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++")
endif()
if(NOT RDMADIAG_SANITIZE MATCHES "address")
    message(FATAL_ERROR "RDMADIAG_FUZZ_SMOKE_TARGETS needs RDMADIAG_SANITIZE to include address")
endif()
add_compile_options(-fsanitize=fuzzer-no-link)
