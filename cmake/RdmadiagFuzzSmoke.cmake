# The fuzz targets inside the ASan+UBSan tree (RDMADIAG_FUZZ_SMOKE_TARGETS=ON with
# RDMADIAG_SANITIZE=address,...): the test command's fuzz smoke stage then needs no tree of its
# own, which would compile every library it links a third time. The libraries the fuzz targets
# link, and what those link, carry the fuzzer's coverage instrumentation (fuzzer-no-link) so the
# fuzzers see the branches of the parsers they drive (rdmadiag_fuzz_coverage, below, called once
# every fuzz target is declared); the rest of the tree (the CLI, the GUI, the test programs)
# neither pays for it nor links libFuzzer. scripts/fuzz keeps its optimised tree
# (RDMADIAG_BUILD_FUZZERS) for long runs.

if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang" OR NOT CMAKE_C_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "RDMADIAG_FUZZ_SMOKE_TARGETS needs clang: configure with "
                        "-DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++")
endif()
if(NOT RDMADIAG_SANITIZE MATCHES "address")
    message(FATAL_ERROR "RDMADIAG_FUZZ_SMOKE_TARGETS needs RDMADIAG_SANITIZE to include address")
endif()

# rdmadiag_fuzz_coverage(<target>...): coverage instrumentation for these targets' libraries and,
# transitively, every library of ours they link.
function(rdmadiag_fuzz_coverage)
    set(pending ${ARGN})
    set(done)
    while(pending)
        list(POP_FRONT pending target)
        # A private dependency of a static library is passed on as $<LINK_ONLY:...>.
        string(REGEX REPLACE "^\\$<LINK_ONLY:(.*)>$" "\\1" target "${target}")
        if(NOT TARGET ${target})
            continue()
        endif()
        get_target_property(real ${target} ALIASED_TARGET)
        if(real)
            set(target ${real})
        endif()
        get_target_property(imported ${target} IMPORTED)
        if(imported OR target IN_LIST done)
            continue()
        endif()
        list(APPEND done ${target})
        get_target_property(type ${target} TYPE)
        if(type STREQUAL "STATIC_LIBRARY" OR type STREQUAL "OBJECT_LIBRARY")
            target_compile_options(${target} PRIVATE -fsanitize=fuzzer-no-link)
        endif()
        foreach(property LINK_LIBRARIES INTERFACE_LINK_LIBRARIES)
            get_target_property(deps ${target} ${property})
            if(deps)
                list(APPEND pending ${deps})
            endif()
        endforeach()
    endwhile()
endfunction()
