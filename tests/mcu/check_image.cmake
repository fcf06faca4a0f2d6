# Compiles and links SOURCE into a Cortex-M4F image (newlib-nano, nosys) and checks the image:
# nothing from the heap (malloc, sbrk) and no exception machinery may be linked in; with
# -DNO_DOUBLE=ON no double arithmetic either (as examples/firmware/sizes.py --no-double).
# Run as: cmake -DCXX=... -DNM=... -DSIZE=... -DSOURCE=... -DIMAGE=... -DINCLUDE=... -DSYSINCLUDE=... -P check_image.cmake
execute_process(
    COMMAND "${CXX}" -std=c++20 -mcpu=cortex-m4 -mfpu=fpv4-sp-d16 -mfloat-abi=hard -mthumb
            -fno-exceptions -fno-rtti -O2 -Wall -Wextra -Werror -ffunction-sections -fdata-sections
            -I "${INCLUDE}" -isystem "${SYSINCLUDE}" "${SOURCE}" -o "${IMAGE}"
            --specs=nosys.specs --specs=nano.specs -Wl,--gc-sections
    RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "mcu: ${CXX} failed to build ${IMAGE} from ${SOURCE}")
endif()
execute_process(COMMAND "${NM}" -C "${IMAGE}" OUTPUT_VARIABLE symbols RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "mcu: ${NM} failed on ${IMAGE}")
endif()
string(REGEX MATCHALL " (malloc|_malloc_r|calloc|realloc|_sbrk|_sbrk_r|operator new[^\n]*|__cxa_throw|__cxa_allocate_exception|_Unwind_Resume)\n" heap "${symbols}")
if(heap)
    message(FATAL_ERROR "mcu: the image links the heap or exceptions:${heap}")
endif()
if(NO_DOUBLE)
    string(REGEX MATCHALL " (__aeabi_d[a-z0-9_]*|__aeabi_[a-z0-9]*2d|__[a-z]+df[23]|sqrt|pow|log|exp|sin|cos)\n" double "${symbols}")
    if(double)
        string(REPLACE "\n;" "" double "${double}")
        message(FATAL_ERROR "mcu: the image links double arithmetic:${double}")
    endif()
endif()
execute_process(COMMAND "${SIZE}" "${IMAGE}" OUTPUT_VARIABLE size)
message(STATUS "mcu: ${IMAGE} links without heap or exceptions\n${size}")
