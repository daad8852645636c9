# The fuzz tree (RDMADIAG_BUILD_FUZZERS=ON): libFuzzer with ASan and UBSan, which only clang has.
# Every library is compiled with coverage instrumentation (fuzzer-no-link) so the fuzzers see the
# branches of the parsers they drive; only the fuzz targets themselves link libFuzzer's main.
# The GUI, the benchmarks and the unit tests are left out of this tree.

if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang" OR NOT CMAKE_C_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "RDMADIAG_BUILD_FUZZERS needs clang: configure with "
                        "-DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++")
endif()
if(RDMADIAG_SANITIZE)
    message(FATAL_ERROR "RDMADIAG_BUILD_FUZZERS brings its own sanitizers; leave RDMADIAG_SANITIZE empty")
endif()

set(RDMADIAG_BUILD_GUI OFF)
set(RDMADIAG_BUILD_BENCHMARKS OFF)
set(RDMADIAG_BUILD_TESTS OFF)

set(RDMADIAG_FUZZ_SANITIZERS address,undefined)
# Asserts stay on whatever the build type (Result::value() on an error is a finding too), and
# line tables are all the debug information a crash report needs.
add_compile_options(-fsanitize=fuzzer-no-link,${RDMADIAG_FUZZ_SANITIZERS} -fno-omit-frame-pointer
                    -fno-sanitize-recover=all -UNDEBUG -gline-tables-only)
add_link_options(-fsanitize=${RDMADIAG_FUZZ_SANITIZERS})
