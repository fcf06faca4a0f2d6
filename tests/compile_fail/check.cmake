# Runs one compile-fail case: cmake -P check.cmake with
#   -DCASE=<path/to/case.cpp>   the program
#   -DMODE=fail|compile|pch     fail: must be rejected (the cases); compile: must compile (the
#                               control); pch: precompile <typeformer/typeformer.hpp> into PCH with
#                               the same command (CTest's fixture before the cases)
#   -DCXX=<compiler>            the compiler: the library's (CMAKE_CXX_COMPILER), or clang++ for the
#                               Clang pass (tests compile_fail_clang.<case>)
#   -DFLAGS_FILE=<file>         written by CMakeLists.txt: TF_STD, TF_CXX_FLAGS, TF_DEFINES,
#                               TF_OPTIONS, TF_INCLUDES, TF_IMPLICIT_INCLUDES, TF_SOURCE_DIR
#   -DLOG_DIR=<dir>             where <case>.log (the diagnostic) and <case>.lines are written
#   -DCXX_ID=<id>               GNU or Clang (the compiler's CMAKE_CXX_COMPILER_ID)
#   -DPCH=<path>                optional: the precompiled umbrella header (GNU: a directory holding
#                               typeformer/typeformer.hpp.gch; Clang: the .pch file)
#   -DCASES_DIR=<dir>           MODE=pch: the cases' directory, where the header is precompiled
#   -DCOMPARE_WITH=<dir>        optional: the diagnostic must equal <dir>/<case>.log (the PCH's
#                               fidelity: this run without it, that one with it)
#
# A case passes when
#   (a) compilation fails,
#   (b) the whole diagnostic contains every entry of the case's `// expect:` line,
#   (c) the first line containing `error:` contains every entry of its `// first-error:` line
#       (the dimensions involved, e.g. both sides of a mismatch),
#   (d) the diagnostic points at the line marked `// error here` (`<case>.cpp:<line>:`), so a
#       case cannot pass by failing for an unrelated reason (a typo, a warning under -Werror),
#   (e) the diagnostic has at most the case's `// max-lines: N` lines (measured with GCC 12: a
#       header change that makes a message longer fails here first; docs/diagnostics.md), and no
#       case may allow more than 20.
# With Clang (CXX_ID Clang) the same holds with the case's `// clang-expect:`,
# `// clang-first-error:` and `// clang-max-lines:` lines where it has them (Clang words some
# messages differently), else with the GCC lines and a budget of 20 lines. With another compiler
# only (a) and (d) fail the test, and (b), (c), (e) are reported as warnings.
# Entries are comma-separated literal substrings. The diagnostic's line count is printed and
# recorded in <case>.lines. The control case (MODE=compile) must compile with the same command.
#
# The precompiled header changes only where the compilers say a header was included from: GCC
# drops the last line of the first include chain (`from <case>.cpp:<line>:`; later chains stop
# before it anyway, as GCC prints an include once), Clang names the header by its absolute path
# and the case's line 1. Those lines are put back as the compiler prints them
# without it (`<case>.cpp:<line>` is the case's `#include <typeformer/typeformer.hpp>`), so the log
# is what a user sees; CTest's compile_fail.pch_fidelity compiles cases without the PCH and
# compares. A case whose first include is another header is compiled without the PCH.
cmake_minimum_required(VERSION 3.25)

foreach(_var CASE MODE CXX FLAGS_FILE LOG_DIR)
    if(NOT DEFINED ${_var} OR "${${_var}}" STREQUAL "")
        message(FATAL_ERROR "check.cmake: -D${_var}=... is required")
    endif()
endforeach()
include("${FLAGS_FILE}")

get_filename_component(_dir "${CASE}" DIRECTORY)
if(MODE STREQUAL "pch")
    set(_dir "${CASES_DIR}")  # precompiled where the cases compile, so its paths print as theirs
endif()
get_filename_component(_file "${CASE}" NAME)
get_filename_component(_name "${CASE}" NAME_WE)

# ---- the library's compile command, syntax only, plain and unwrapped diagnostics ----
set(_cmd "${CXX}" ${TF_STD})
separate_arguments(_flags UNIX_COMMAND "${TF_CXX_FLAGS}")
list(APPEND _cmd ${_flags})
foreach(_def IN LISTS TF_DEFINES)
    list(APPEND _cmd "-D${_def}")
endforeach()
# The scalar kernels: the backend changes nothing a diagnostic says (the shape checks stand before
# the kernels), and leaving xsimd's headers out takes a third off each case's parse time.
list(APPEND _cmd -DTYPEFORMER_FORCE_SCALAR=1)
list(APPEND _cmd ${TF_OPTIONS})
set(_includes "")
list(REMOVE_DUPLICATES TF_INCLUDES)
foreach(_inc IN LISTS TF_INCLUDES)
    if(_inc STREQUAL "" OR _inc IN_LIST TF_IMPLICIT_INCLUDES)
        continue()  # -I/usr/include would break libstdc++'s #include_next
    endif()
    cmake_path(IS_PREFIX TF_SOURCE_DIR "${_inc}" NORMALIZE _ours)
    if(_ours)
        # relative to the case, as docs/shape-errors.md shows paths: ../../include/typeformer/...
        cmake_path(RELATIVE_PATH _inc BASE_DIRECTORY "${_dir}" OUTPUT_VARIABLE _rel)
        list(APPEND _includes "-I${_rel}")
    else()
        list(APPEND _includes "-isystem" "${_inc}")
    endif()
endforeach()
set(ENV{LC_ALL} C)  # ASCII quotes, stable text

if(MODE STREQUAL "pch")
    # CASE is the umbrella header. Not -Werror: both compilers warn about `#pragma once` in the
    # file they precompile.
    list(REMOVE_ITEM _cmd -Werror)
    if(CXX_ID STREQUAL "GNU")
        set(_pch_file "${PCH}/typeformer/typeformer.hpp.gch")  # found by #include <typeformer/...>
    else()
        set(_pch_file "${PCH}")
    endif()
    get_filename_component(_out_dir "${_pch_file}" DIRECTORY)
    file(MAKE_DIRECTORY "${_out_dir}")
    cmake_path(RELATIVE_PATH CASE BASE_DIRECTORY "${_dir}" OUTPUT_VARIABLE _header)
    execute_process(
        COMMAND ${_cmd} ${_includes} -x c++-header "${_header}" -o "${_pch_file}"
        WORKING_DIRECTORY "${_dir}"
        RESULT_VARIABLE _rc
        OUTPUT_VARIABLE _out
        ERROR_VARIABLE _out)
    if(NOT _rc EQUAL 0)
        list(JOIN _cmd " " _cmd_text)
        message(FATAL_ERROR "precompiling ${CASE} failed:\n${_cmd_text}\n${_out}")
    endif()
    message(STATUS "precompiled ${CASE} into ${PCH}")
    return()
endif()

# ---- the case's directives (read without list splitting: C++ is full of `;` and `[`) ----
file(READ "${CASE}" _source)
set(_source "\n${_source}")
function(_tf_directive key out)
    set(_items "")
    if(_source MATCHES "\n// ${key}:([^\n]*)")
        string(REPLACE "," ";" _raw "${CMAKE_MATCH_1}")
        foreach(_item IN LISTS _raw)
            string(STRIP "${_item}" _item)
            if(NOT _item STREQUAL "")
                list(APPEND _items "${_item}")
            endif()
        endforeach()
    endif()
    set(${out} "${_items}" PARENT_SCOPE)
endfunction()
_tf_directive(expect _expect)
_tf_directive(first-error _first_error)
_tf_directive(max-lines _max_lines)
if(CXX_ID STREQUAL "Clang")
    foreach(_key expect first-error max-lines)
        string(REPLACE "-" "_" _var "_${_key}")
        _tf_directive(clang-${_key} _clang)
        if(_clang)
            set(${_var} "${_clang}")
        elseif(_key STREQUAL "max-lines")
            set(${_var} 20)
        endif()
    endforeach()
endif()
function(_tf_line_of marker out)  # the 1-based line of the first `marker` in the case, or ""
    set(_line "")
    string(FIND "${_source}" "${marker}" _at)
    if(NOT _at EQUAL -1)
        string(SUBSTRING "${_source}" 0 ${_at} _before)
        string(REGEX MATCHALL "\n" _nl "${_before}")
        list(LENGTH _nl _line)  # the leading "\n" added above makes this 1-based
    endif()
    set(${out} "${_line}" PARENT_SCOPE)
endfunction()
_tf_line_of("// error here" _error_line)
if(MODE STREQUAL "fail" AND (NOT _expect OR NOT _first_error OR NOT _max_lines OR NOT _error_line))
    message(FATAL_ERROR "${_file}: a compile-fail case needs `// expect: ...`, `// first-error: ...` "
                        "and `// max-lines: ...` lines and one line marked `// error here`")
endif()

# The precompiled umbrella, when it is the case's first include.
_tf_line_of("\n#include <typeformer/typeformer.hpp>" _umbrella_line)
_tf_line_of("\n#include" _first_include)
set(_use_pch FALSE)
if(DEFINED PCH AND NOT PCH STREQUAL "" AND _umbrella_line AND _umbrella_line EQUAL _first_include)
    set(_use_pch TRUE)
    math(EXPR _umbrella_line "${_umbrella_line} + 1")  # the marker starts with the "\n" before it
    if(CXX_ID STREQUAL "GNU")
        list(APPEND _cmd "-I${PCH}" -Winvalid-pch)
    elseif(CXX_ID STREQUAL "Clang")
        list(APPEND _cmd -include-pch "${PCH}")
    else()
        set(_use_pch FALSE)
    endif()
endif()
list(APPEND _cmd ${_includes})
list(APPEND _cmd -fsyntax-only -fdiagnostics-color=never -fmessage-length=0 "${_file}")

execute_process(
    COMMAND ${_cmd}
    WORKING_DIRECTORY "${_dir}"
    RESULT_VARIABLE _rc
    OUTPUT_VARIABLE _out
    ERROR_VARIABLE _out)

if(_use_pch AND CXX_ID STREQUAL "GNU")
    # `In file included from ../../include/typeformer/typeformer.hpp:18:` ends the chain at the
    # umbrella; without the PCH the first chain to reach it goes on, `...:18,` and
    # `                 from <case>.cpp:<line>:` (GCC prints an include it has printed once no more).
    string(REGEX MATCH
        "\n(In file included from|                 from) [^\n]*typeformer/typeformer\\.hpp:[0-9]+:\n"
        _chain "\n${_out}")
    if(_chain)
        string(FIND "\n${_out}" "${_chain}" _at)
        string(LENGTH "${_chain}" _n)
        math(EXPR _n "${_n} - 2")  # the chain without its ":\n"
        string(SUBSTRING "\n${_out}" 0 ${_at} _head)
        string(SUBSTRING "${_chain}" 0 ${_n} _link)
        math(EXPR _at "${_at} + ${_n} + 2")
        string(SUBSTRING "\n${_out}" ${_at} -1 _tail)
        set(_out "${_head}${_link},\n                 from ${_file}:${_umbrella_line}:\n${_tail}")
        string(SUBSTRING "${_out}" 1 -1 _out)
    endif()
elseif(_use_pch AND CXX_ID STREQUAL "Clang")
    string(REPLACE "${_dir}/" "" _out "${_out}")
    string(REPLACE "In file included from ${_file}:1:\n"
                   "In file included from ${_file}:${_umbrella_line}:\n" _out "${_out}")
endif()

file(MAKE_DIRECTORY "${LOG_DIR}")
file(WRITE "${LOG_DIR}/${_name}.log" "${_out}")
string(REGEX MATCHALL "\n" _newlines "${_out}")
list(LENGTH _newlines _count)
if(NOT _out STREQUAL "" AND NOT _out MATCHES "\n$")
    math(EXPR _count "${_count} + 1")
endif()
file(WRITE "${LOG_DIR}/${_name}.lines" "${_count}\n")
if(DEFINED COMPARE_WITH AND NOT COMPARE_WITH STREQUAL "")
    file(READ "${COMPARE_WITH}/${_name}.log" _other)
    if(NOT _other STREQUAL _out)
        message(FATAL_ERROR "${_file}: the diagnostic without the precompiled header is not the one "
                            "logged with it (${COMPARE_WITH}/${_name}.log):\n---- without ----\n"
                            "${_out}\n---- with (after check.cmake's restoring of the include lines) ----\n"
                            "${_other}")
    endif()
    message(STATUS "${_file}: the same diagnostic with and without the precompiled header")
endif()

list(JOIN _cmd " " _cmd_text)
if(MODE STREQUAL "compile")
    if(NOT _rc EQUAL 0)
        message(FATAL_ERROR "${_file} must compile (it is the harness's control) but did not:\n"
                            "${_cmd_text}\n${_out}")
    endif()
    message(STATUS "${_file}: compiles, as it must (diagnostic: ${_count} lines)")
    return()
endif()

# (a)
if(_rc EQUAL 0)
    message(FATAL_ERROR "${_file} compiled, but it must be rejected:\n${_cmd_text}\n${_out}")
endif()

set(_failures "")  # (b), (c), (e): the diagnostic's content
set(_wrong_place "")  # (d): rejected somewhere else
# (b)
foreach(_item IN LISTS _expect)
    string(FIND "${_out}" "${_item}" _at)
    if(_at EQUAL -1)
        string(APPEND _failures "  the diagnostic does not mention `${_item}`\n")
    endif()
endforeach()
# (c)
string(REGEX MATCH "[^\n]*error:[^\n]*" _first "${_out}")  # no list splitting: `;` is common in GCC's text
if(_first STREQUAL "")
    string(APPEND _failures "  no line contains `error:`\n")
else()
    foreach(_item IN LISTS _first_error)
        string(FIND "${_first}" "${_item}" _at)
        if(_at EQUAL -1)
            string(APPEND _failures "  the first error line does not mention `${_item}`\n")
        endif()
    endforeach()
endif()
# (d)
string(FIND "${_out}" "${_file}:${_error_line}:" _at)
if(_at EQUAL -1)
    string(APPEND _wrong_place "  the diagnostic does not point at ${_file}:${_error_line} (the `// error here` line)\n")
endif()
# (e)
if(_max_lines AND _count GREATER _max_lines)
    string(APPEND _failures "  the diagnostic has ${_count} lines, more than the case's max-lines ${_max_lines}\n")
endif()
if(_max_lines GREATER 20)
    string(APPEND _failures "  the case allows ${_max_lines} lines: no diagnostic may take more than 20\n")
endif()

if(_failures AND DEFINED CXX_ID AND NOT CXX_ID STREQUAL "" AND NOT CXX_ID STREQUAL "GNU" AND
   NOT CXX_ID STREQUAL "Clang")
    message(WARNING "${_file}: the diagnostic of ${CXX_ID} differs from GCC's expectations:\n${_failures}")
    set(_failures "")
endif()
string(APPEND _failures "${_wrong_place}")
if(_failures)
    message(FATAL_ERROR "${_file} was rejected, but not with the expected diagnostic:\n${_failures}"
                        "command: ${_cmd_text}\n---- diagnostic (${_count} lines) ----\n${_out}")
endif()
message(STATUS "${_file}: rejected as expected; diagnostic ${_count} lines; first error:\n${_first}")
