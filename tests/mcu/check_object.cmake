# Compiles mcu_core.cpp for a Cortex-M4F and checks the object: no heap, no exceptions.
# Run as: cmake -DCXX=... -DNM=... -DSOURCE=... -DOBJECT=... -DINCLUDE=... -DSYSINCLUDE=... -P check_object.cmake
execute_process(
    COMMAND "${CXX}" -std=c++20 -mcpu=cortex-m4 -mfpu=fpv4-sp-d16 -mfloat-abi=hard -mthumb
            -fno-exceptions -fno-rtti -O2 -Wall -Wextra -Werror
            -I "${INCLUDE}" -isystem "${SYSINCLUDE}" -c "${SOURCE}" -o "${OBJECT}"
    RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "mcu: ${CXX} failed to compile ${SOURCE}")
endif()
execute_process(COMMAND "${NM}" -u -C "${OBJECT}" OUTPUT_VARIABLE undefined RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "mcu: ${NM} failed on ${OBJECT}")
endif()
string(REGEX MATCHALL "(malloc|calloc|realloc|posix_memalign|operator new|operator delete|__cxa_throw|__cxa_allocate_exception)[^\n]*" heap "${undefined}")
if(heap)
    message(FATAL_ERROR "mcu: the core object needs the heap or exceptions: ${heap}")
endif()
message(STATUS "mcu: ${OBJECT} compiled; undefined symbols:\n${undefined}")
