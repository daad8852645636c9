# Helpers that give every target of ours the same language level and warnings.
# Third-party headers are included as SYSTEM so -Werror applies to our code only.

function(rdmadiag_warnings target)
    target_compile_features(${target} PUBLIC cxx_std_20)
    target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Werror -Wshadow
                                             -Wnon-virtual-dtor -Wold-style-cast -Wcast-align
                                             -Wunused -Woverloaded-virtual
                                             -Wdouble-promotion -Wformat=2 -Wimplicit-fallthrough
                                             -Wno-missing-field-initializers)
endfunction()

# rdmadiag_library(NAME <name> SOURCES ... DEPS ...)
# Builds static library rdmadiag_<name> with alias rdmadiag::<name>. Headers are included
# relative to the repository root ("collector/model/pkey.hpp").
function(rdmadiag_library)
    cmake_parse_arguments(ARG "" "NAME" "SOURCES;DEPS;PRIVATE_DEPS" ${ARGN})
    add_library(rdmadiag_${ARG_NAME} STATIC ${ARG_SOURCES})
    add_library(rdmadiag::${ARG_NAME} ALIAS rdmadiag_${ARG_NAME})
    target_include_directories(rdmadiag_${ARG_NAME} PUBLIC ${PROJECT_SOURCE_DIR})
    target_link_libraries(rdmadiag_${ARG_NAME} PUBLIC ${ARG_DEPS} PRIVATE ${ARG_PRIVATE_DEPS})
    set_target_properties(rdmadiag_${ARG_NAME} PROPERTIES POSITION_INDEPENDENT_CODE ON)
    rdmadiag_warnings(rdmadiag_${ARG_NAME})
    target_compile_options(rdmadiag_${ARG_NAME} PRIVATE ${RDMADIAG_LIBRARY_FLAGS})
endfunction()

# rdmadiag_test_wanted(<out> <labels>): whether a test with these labels is built and registered
# here. With RDMADIAG_TESTS=shipped only those labelled shipped are: the test command runs every
# test once, the ones about what ships in its optimised tree and all others (unit, integration,
# GUI) in its ASan+UBSan tree, where the same checks see more.
function(rdmadiag_test_wanted out labels)
    if(RDMADIAG_TESTS STREQUAL "all" OR "shipped" IN_LIST labels)
        set(${out} TRUE PARENT_SCOPE)
    else()
        set(${out} FALSE PARENT_SCOPE)
    endif()
endfunction()

# rdmadiag_test_program(<target>): what every GoogleTest program gets, whoever registers it. The
# code under test keeps the tree's optimisation; the test programs themselves (GoogleTest's macros
# expand to large functions) are compiled at -O1 in optimised trees, a fifth less compile time
# than -O2, and with RDMADIAG_TEST_PROGRAM_FLAGS (the test command's ASan+UBSan tree: no UBSan
# checks in the test code itself; ASan stays).
function(rdmadiag_test_program target)
    target_compile_options(${target} PRIVATE $<$<CONFIG:RelWithDebInfo,Release,MinSizeRel>:-O1>
                                             ${RDMADIAG_TEST_PROGRAM_FLAGS})
endfunction()

# rdmadiag_test(NAME <name> SOURCES ... DEPS ... LABELS ... [TIMEOUT s] [COST n] [ENV k=v ...])
# One GoogleTest executable registered with CTest under the given labels (default unit).
function(rdmadiag_test)
    cmake_parse_arguments(ARG "" "NAME;TIMEOUT;COST" "SOURCES;DEPS;LABELS;ENV" ${ARGN})
    if(NOT ARG_LABELS)
        set(ARG_LABELS unit)
    endif()
    rdmadiag_test_wanted(wanted "${ARG_LABELS}")
    if(NOT wanted)
        # The target is still made (outside `all`), so the lines that configure it need no guard.
        add_executable(${ARG_NAME} EXCLUDE_FROM_ALL ${ARG_SOURCES})
        target_link_libraries(${ARG_NAME} PRIVATE ${ARG_DEPS} GTest::gtest GTest::gmock
                                                  GTest::gtest_main)
        return()
    endif()
    add_executable(${ARG_NAME} ${ARG_SOURCES})
    target_link_libraries(${ARG_NAME} PRIVATE ${ARG_DEPS} GTest::gtest GTest::gmock GTest::gtest_main)
    target_include_directories(${ARG_NAME} PRIVATE ${PROJECT_SOURCE_DIR})
    rdmadiag_warnings(${ARG_NAME})
    rdmadiag_test_program(${ARG_NAME})
    if(NOT ARG_TIMEOUT)
        set(ARG_TIMEOUT 300)
    endif()
    add_test(NAME ${ARG_NAME} COMMAND ${ARG_NAME})
    set_tests_properties(${ARG_NAME} PROPERTIES LABELS "${ARG_LABELS}" TIMEOUT ${ARG_TIMEOUT}
                                               ENVIRONMENT "${ARG_ENV}")
    if(ARG_COST)
        set_tests_properties(${ARG_NAME} PROPERTIES COST ${ARG_COST})
    endif()
endfunction()

# rdmadiag_python_test(NAME <name> SCRIPT <file> ARGS ... LABELS ... [TIMEOUT s] [ENV k=v ...]
#                      [WRAPPER program args ...])
# A Python script test; it exits 77 (SKIP) with its reason when a program it needs is missing.
# The bed library (tests/beds/rdmadiag_bed) is found through PYTHONPATH, so a script carries no
# path of its own and runs by hand the same way (README.md, Building by hand). WRAPPER runs the interpreter
# inside a bed, e.g. tests/beds/ibsim/with-bed.
function(rdmadiag_python_test)
    cmake_parse_arguments(ARG "" "NAME;SCRIPT;TIMEOUT" "ARGS;LABELS;ENV;WRAPPER" ${ARGN})
    if(NOT Python3_EXECUTABLE)
        find_package(Python3 COMPONENTS Interpreter)
    endif()
    if(NOT Python3_EXECUTABLE)
        return()
    endif()
    rdmadiag_test_wanted(wanted "${ARG_LABELS}")
    if(NOT wanted)
        return()
    endif()
    if(NOT ARG_TIMEOUT)
        set(ARG_TIMEOUT 300)
    endif()
    add_test(NAME ${ARG_NAME}
             COMMAND ${ARG_WRAPPER} ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/${ARG_SCRIPT}
                     ${ARG_ARGS})
    # PYTHONDONTWRITEBYTECODE: a test run leaves no __pycache__ in the source tree.
    set(env PYTHONPATH=${PROJECT_SOURCE_DIR}/tests/beds PYTHONDONTWRITEBYTECODE=1 ${ARG_ENV})
    set_tests_properties(${ARG_NAME} PROPERTIES LABELS "${ARG_LABELS}" SKIP_RETURN_CODE 77
                                                TIMEOUT ${ARG_TIMEOUT} ENVIRONMENT "${env}")
endfunction()
