# Cortex-M7 (double-precision FPU fpv5-d16), run on QEMU's mps2-an500. Use: the `mcu-m7` preset.
set(TYPEFORMER_MCU_CPU_FLAGS "-mcpu=cortex-m7 -mfpu=fpv5-d16 -mfloat-abi=hard")
set(TYPEFORMER_MCU_BOARD mps2-an500)
set(TYPEFORMER_MCU_BOARD_TYPE mps2_an500)  # typeformer::deploy::mps2_an500
set(TYPEFORMER_MCU_CPU_HZ 25000000)
include("${CMAKE_CURRENT_LIST_DIR}/arm-none-eabi.cmake")
