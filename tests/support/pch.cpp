// The translation unit whose precompiled header the tests reuse (tests/CMakeLists.txt,
// TYPEFORMER_TEST_PCH).
