# ctest reads this after test_interop's discovered tests (TEST_INCLUDE_FILES): the tests that read
# the Python side's files require PythonOracle.RunsOnceForTheBinary, which makes them (interop.hpp).
if(typeformer_tests_test_interop)
    foreach(_test IN LISTS typeformer_tests_test_interop)
        if(_test MATCHES "^(Import|TorchBridge|DDP)\\.")
            set_tests_properties(${_test} PROPERTIES FIXTURES_REQUIRED interop_python)
        endif()
    endforeach()
    set_tests_properties(PythonOracle.RunsOnceForTheBinary PROPERTIES
                         FIXTURES_SETUP interop_python)
endif()
