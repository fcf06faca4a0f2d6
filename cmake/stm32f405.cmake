# STM32F405 (Cortex-M4F, single-precision FPU; 1 MiB flash, 128 KiB SRAM, 64 KiB CCM), run on
# QEMU's netduinoplus2. Use: the `mcu-stm32f405` preset. The memory map is the board type
# typeformer::deploy::netduinoplus2 (include/typeformer/deploy/board.hpp): the part's, with the
# CCM at 0x20020000, since QEMU 7.2 models no CCM and maps 192 KiB of SRAM at 0x20000000.
set(TYPEFORMER_MCU_CPU_FLAGS "-mcpu=cortex-m4 -mfpu=fpv4-sp-d16 -mfloat-abi=hard")
set(TYPEFORMER_MCU_BOARD netduinoplus2)
set(TYPEFORMER_MCU_BOARD_TYPE netduinoplus2)
set(TYPEFORMER_MCU_CPU_HZ 168000000)  # SysTick's clock in QEMU's STM32F405 model
include("${CMAKE_CURRENT_LIST_DIR}/arm-none-eabi.cmake")
