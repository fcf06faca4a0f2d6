# Runs one compile-fail case: cmake -P check.cmake with
#   -DCASE=<path/to/case.cpp>   the program
#   -DMODE=fail|compile         fail: must be rejected (the cases); compile: must compile (the control)
#   -DCXX=<compiler>            the compiler: the library's (CMAKE_CXX_COMPILER), or clang++ for the
#                               Clang pass (tests compile_fail_clang.<case>)
#   -DFLAGS_FILE=<file>         written by CMakeLists.txt: TF_STD, TF_CXX_FLAGS, TF_DEFINES,
#                               TF_OPTIONS, TF_INCLUDES, TF_IMPLICIT_INCLUDES, TF_SOURCE_DIR
#   -DLOG_DIR=<dir>             where <case>.log (the diagnostic) and <case>.lines are written
#   -DCXX_ID=<id>               GNU or Clang (the compiler's CMAKE_CXX_COMPILER_ID)
#
# A case passes when
#   (a) compilation fails,
#   (b) the whole diagnostic contains every entry of the case's `// expect:` line,
#   (c) the first line containing `error:` contains every entry of its `// first-error:` line
#       (the dimensions involved, e.g. both sides of a mismatch),
#   (d) the diagnostic points at the line marked `// error here` (`<case>.cpp:<line>:`), so a
#       case cannot pass by failing for an unrelated reason (a typo, a warning under -Werror),
#   (e) the diagnostic has at most the case's `// max-lines: N` lines (measured with GCC 12: a
#       header change that makes a message longer fails here first; docs/diagnostics.md).
# With Clang (CXX_ID Clang) the same holds with the case's `// clang-expect:`,
# `// clang-first-error:` and `// clang-max-lines:` lines where it has them (Clang words some
# messages differently), else with the GCC lines and a budget of 25 lines. With another compiler
# only (a) and (d) fail the test, and (b), (c), (e) are reported as warnings.
# Entries are comma-separated literal substrings. The diagnostic's line count is printed and
# recorded in <case>.lines. The control case (MODE=compile) must compile with the same command.
cmake_minimum_required(VERSION 3.25)

foreach(_var CASE MODE CXX FLAGS_FILE LOG_DIR)
    if(NOT DEFINED ${_var} OR "${${_var}}" STREQUAL "")
        message(FATAL_ERROR "check.cmake: -D${_var}=... is required")
    endif()
endforeach()
include("${FLAGS_FILE}")

get_filename_component(_dir "${CASE}" DIRECTORY)
get_filename_component(_file "${CASE}" NAME)
get_filename_component(_name "${CASE}" NAME_WE)

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
            set(${_var} 25)
        endif()
    endforeach()
endif()
set(_error_line "")
string(FIND "${_source}" "// error here" _at)
if(NOT _at EQUAL -1)
    string(SUBSTRING "${_source}" 0 ${_at} _before)
    string(REGEX MATCHALL "\n" _nl "${_before}")
    list(LENGTH _nl _error_line)  # the leading "\n" added above makes this 1-based
endif()
if(MODE STREQUAL "fail" AND (NOT _expect OR NOT _first_error OR NOT _max_lines OR NOT _error_line))
    message(FATAL_ERROR "${_file}: a compile-fail case needs `// expect: ...`, `// first-error: ...` "
                        "and `// max-lines: ...` lines and one line marked `// error here`")
endif()

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
list(REMOVE_DUPLICATES TF_INCLUDES)
foreach(_inc IN LISTS TF_INCLUDES)
    if(_inc STREQUAL "" OR _inc IN_LIST TF_IMPLICIT_INCLUDES)
        continue()  # -I/usr/include would break libstdc++'s #include_next
    endif()
    cmake_path(IS_PREFIX TF_SOURCE_DIR "${_inc}" NORMALIZE _ours)
    if(_ours)
        list(APPEND _cmd "-I${_inc}")
    else()
        list(APPEND _cmd "-isystem" "${_inc}")
    endif()
endforeach()
list(APPEND _cmd -fsyntax-only -fdiagnostics-color=never -fmessage-length=0 "${_file}")

set(ENV{LC_ALL} C)  # ASCII quotes, stable text
execute_process(
    COMMAND ${_cmd}
    WORKING_DIRECTORY "${_dir}"
    RESULT_VARIABLE _rc
    OUTPUT_VARIABLE _out
    ERROR_VARIABLE _out)

file(MAKE_DIRECTORY "${LOG_DIR}")
file(WRITE "${LOG_DIR}/${_name}.log" "${_out}")
string(REGEX MATCHALL "\n" _newlines "${_out}")
list(LENGTH _newlines _count)
if(NOT _out STREQUAL "" AND NOT _out MATCHES "\n$")
    math(EXPR _count "${_count} + 1")
endif()
file(WRITE "${LOG_DIR}/${_name}.lines" "${_count}\n")

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
