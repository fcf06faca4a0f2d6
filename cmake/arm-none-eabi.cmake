# Cross toolchain for bare-metal Arm Cortex-M (Debian: gcc-arm-none-eabi, libnewlib-arm-none-eabi,
# libstdc++-arm-none-eabi-newlib). Included by cortex-m4.cmake and cortex-m7.cmake, which set
# TYPEFORMER_MCU_CPU_FLAGS, TYPEFORMER_MCU_BOARD (the QEMU machine), TYPEFORMER_MCU_BOARD_TYPE
# (the board's type in typeformer/deploy/board.hpp) and TYPEFORMER_MCU_CPU_HZ (SysTick's clock
# under QEMU) first.
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR arm)
set(CMAKE_C_COMPILER arm-none-eabi-gcc)
set(CMAKE_CXX_COMPILER arm-none-eabi-g++)
set(CMAKE_ASM_COMPILER arm-none-eabi-gcc)
# No operating system to link a test program against: compiler checks build a static library.
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)

set(CMAKE_C_FLAGS_INIT "${TYPEFORMER_MCU_CPU_FLAGS} -mthumb -ffunction-sections -fdata-sections")
set(CMAKE_CXX_FLAGS_INIT
    "${TYPEFORMER_MCU_CPU_FLAGS} -mthumb -ffunction-sections -fdata-sections -fno-exceptions -fno-rtti")
set(CMAKE_EXE_LINKER_FLAGS_INIT "-Wl,--gc-sections --specs=nano.specs --specs=nosys.specs")

# Programs (the host compiler, QEMU, python) come from the host; headers and libraries from the
# cross toolchain only.
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

set(TYPEFORMER_MCU_BOARD "${TYPEFORMER_MCU_BOARD}" CACHE STRING "QEMU machine of the firmware tests")
set(TYPEFORMER_MCU_BOARD_TYPE "${TYPEFORMER_MCU_BOARD_TYPE}" CACHE STRING
    "The board's type (typeformer::deploy::<type>): the firmware's memory map and its checks")
set(TYPEFORMER_MCU_CPU_HZ "${TYPEFORMER_MCU_CPU_HZ}" CACHE STRING "SysTick's clock under QEMU")
