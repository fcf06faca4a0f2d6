# Cortex-M4F (single-precision FPU), run on QEMU's mps2-an386. Use: the `mcu-m4` preset.
set(TYPEFORMER_MCU_CPU_FLAGS "-mcpu=cortex-m4 -mfpu=fpv4-sp-d16 -mfloat-abi=hard")
set(TYPEFORMER_MCU_BOARD mps2-an386)
set(TYPEFORMER_MCU_BOARD_TYPE mps2_an386)  # typeformer::deploy::mps2_an386
set(TYPEFORMER_MCU_CPU_HZ 25000000)
include("${CMAKE_CURRENT_LIST_DIR}/arm-none-eabi.cmake")
