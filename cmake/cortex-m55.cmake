# Cortex-M55 (Armv8.1-M with Helium, MVE with its float form, and an FPv5 FPU), run on QEMU's
# mps3-an547 in its secure state. Use: the `mcu-m55` preset. The kernels' backend is Helium's
# (kernels/helium/), chosen by these flags (__ARM_FEATURE_MVE).
set(TYPEFORMER_MCU_CPU_FLAGS "-mcpu=cortex-m55 -mfloat-abi=hard")
set(TYPEFORMER_MCU_BOARD mps3-an547)
set(TYPEFORMER_MCU_BOARD_TYPE mps3_an547)  # typeformer::deploy::mps3_an547
set(TYPEFORMER_MCU_CPU_HZ 32000000)        # SysTick's clock in QEMU's AN547 model
include("${CMAKE_CURRENT_LIST_DIR}/arm-none-eabi.cmake")
