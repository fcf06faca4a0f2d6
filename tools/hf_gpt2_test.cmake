# typeformer-generate --hf-gpt2 end to end at GPT-2 small's true size: gpt_ref.py writes a random
# GPT-2 small in Hugging Face's layout (written from modeling_gpt2.py, 124M parameters); the tool
# imports it, encodes the prompt with GPT-2's own encoder.json and vocab.bpe and decodes greedily
# through the KV cache; gpt_ref.py rebuilds the same model in float64 PyTorch and checks that
# greedy decoding gives the same tokens. Then the errors: missing tokenizer files, a file of
# another size.
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
set(weights "${WORK}/model.safetensors")

execute_process(COMMAND ${PYTHON} ${GPT_REF} hf-small-write 7 ${weights} RESULT_VARIABLE rc
                ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "gpt_ref.py hf-small-write failed (${rc}): ${err}")
endif()

execute_process(COMMAND ${GENERATE} --hf-gpt2 ${weights} --gpt2-vocab ${GPT2}/encoder.json
                        --gpt2-merges ${GPT2}/vocab.bpe --prompt "Hello, typed world" --tau 0
                        -n 6 --no-stop --ids
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
# the preset (from config.json) needs GPT-2's tokenizer files: refused before the weights are read
execute_process(COMMAND ${GENERATE} --hf-gpt2 ${weights} RESULT_VARIABLE rc2 ERROR_VARIABLE err2)
file(REMOVE "${weights}")  # 500 MB
if(rc2 EQUAL 0 OR NOT err2 MATCHES "give --gpt2-vocab encoder.json and --gpt2-merges vocab.bpe")
    message(FATAL_ERROR "missing tokenizer files were not reported: ${err2}")
endif()
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "typeformer-generate --hf-gpt2 failed (${rc}):\n${out}\n${err}")
endif()
if(NOT out MATCHES "^Hello, typed world" OR NOT err MATCHES "6 tokens in "
   OR NOT err MATCHES "GPT-2 small, Hugging Face\\): N_V = 50257, l_max = 1024")
    message(FATAL_ERROR "typeformer-generate --hf-gpt2 printed:\n${out}\n${err}")
endif()
string(REGEX MATCH "prompt ids: ([0-9 ]+)" _ "${err}")
string(STRIP "${CMAKE_MATCH_1}" prompt_ids)
string(REGEX MATCH "\nids: ([0-9 ]+)" _ "${err}")
string(STRIP "${CMAKE_MATCH_1}" ids)
string(REPLACE " " "," prompt_ids "${prompt_ids}")
string(REPLACE " " "," ids "${ids}")
if(prompt_ids STREQUAL "" OR ids STREQUAL "")
    message(FATAL_ERROR "no ids in typeformer-generate's report:\n${err}")
endif()

execute_process(COMMAND ${PYTHON} ${GPT_REF} hf-small-check 7 ${prompt_ids} ${ids}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "greedy tokens differ from PyTorch's (${rc}):\n${out}\n${err}")
endif()
message(STATUS "${out}")

# A GPT of no preset's size: its configuration and the presets (gpt_presets.hpp).
execute_process(COMMAND ${PYTHON} ${GPT_REF} hf 3 ${WORK}/tiny ${WORK}/logits.tfx gelu_new 1e-5 1 1
                RESULT_VARIABLE rc)
execute_process(COMMAND ${GENERATE} --hf-gpt2 ${WORK}/tiny/model.safetensors --gpt2-vocab
                        ${GPT2}/encoder.json --gpt2-merges ${GPT2}/vocab.bpe
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(rc EQUAL 0 OR NOT err MATCHES "no preset of this tool matches: DTransformer<f32> N_V=50 ")
    message(FATAL_ERROR "a GPT-2 file of another size was not reported: ${err}")
endif()
