# Debian's libxsimd-dev 8.1 exports the imported target `xsimd` with
# INTERFACE_LINK_LIBRARIES "xtl" (it was packaged with xtl complex support), but
# Debian does not make libxsimd-dev depend on libxtl-dev. Without an `xtl` target
# that name reaches the linker as `-lxtl` and every link fails. typeformer does not
# use xsimd's xtl integration (XSIMD_ENABLE_XTL_COMPLEX is never defined), so when
# no `xtl` package is available the dependency is dropped.
#
# Included by the top-level CMakeLists.txt and by the installed typeformerConfig.cmake,
# right after xsimd has been found.
if(TARGET xsimd AND NOT TARGET xtl)
    get_target_property(_typeformer_xsimd_libs xsimd INTERFACE_LINK_LIBRARIES)
    if(_typeformer_xsimd_libs AND "xtl" IN_LIST _typeformer_xsimd_libs)
        find_package(xtl QUIET CONFIG)
        if(NOT TARGET xtl)
            list(REMOVE_ITEM _typeformer_xsimd_libs xtl)
            set_property(TARGET xsimd PROPERTY INTERFACE_LINK_LIBRARIES "${_typeformer_xsimd_libs}")
        endif()
    endif()
    unset(_typeformer_xsimd_libs)
endif()
