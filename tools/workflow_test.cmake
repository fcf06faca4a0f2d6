# The README's workflow on a short run: typeformer-train (tiny, byte tokens, 60 steps) writes a
# checkpoint, a loss curve and a CSV whose held-out loss falls; training resumes from the
# checkpoint; typeformer-generate continues a prompt from it; typeformer-attention draws its heads;
# typeformer-tokenize round-trips text with bytes and with BPE; typeformer-export-header writes the
# checkpoint as a firmware header with exactly its values, and with --q8 as int8 weights that the
# STM32F405 firmware example (built for the host) generates with; bad input fails with a message.
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")

function(run)
    execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    set(rc "${rc}" PARENT_SCOPE)
    set(out "${out}" PARENT_SCOPE)
    set(err "${err}" PARENT_SCOPE)
endfunction()
function(expect_ok what)
    if(NOT rc EQUAL 0)
        message(FATAL_ERROR "${what} failed (${rc}):\n${out}\n${err}")
    endif()
endfunction()

run(${TRAIN} /usr/share/common-licenses/GPL-3 --model tiny --steps 60 --seconds 0 --batch 8
    --lr 3e-3 --warmup 5 --eval-every 0 --out ${WORK}/run --sample-tokens 20)
expect_ok("typeformer-train")
foreach(f model.ckpt loss.csv loss.svg)
    if(NOT EXISTS "${WORK}/run/${f}")
        message(FATAL_ERROR "typeformer-train wrote no ${f}:\n${out}")
    endif()
endforeach()
file(STRINGS "${WORK}/run/loss.csv" rows)
list(LENGTH rows n)
if(n LESS 3)
    message(FATAL_ERROR "loss.csv has ${n} lines")
endif()
list(GET rows 1 first)
math(EXPR last_i "${n} - 1")
list(GET rows ${last_i} last)
string(REPLACE "," ";" first "${first}")
string(REPLACE "," ";" last "${last}")
list(GET first 4 first_loss)
list(GET last 4 last_loss)
if(NOT last_loss LESS first_loss)
    message(FATAL_ERROR "the held-out loss did not fall: ${first_loss} -> ${last_loss}")
endif()
file(READ "${WORK}/run/loss.svg" svg)
if(NOT svg MATCHES "<svg" OR NOT svg MATCHES "held-out loss" OR NOT svg MATCHES "polyline")
    message(FATAL_ERROR "loss.svg is not the loss plot")
endif()

# The checkpoint names its preset (tiny, byte tokens): --resume needs neither --model nor
# --tokenizer; --steps is the step to end at, as on the first run.
run(${TRAIN} /usr/share/common-licenses/GPL-3 --resume ${WORK}/run/model.ckpt
    --steps 70 --seconds 0 --eval-every 0 --out ${WORK}/resumed --sample-tokens 5)
expect_ok("typeformer-train --resume")
if(NOT out MATCHES "resuming .* at step 60" OR NOT out MATCHES "70 steps")
    message(FATAL_ERROR "the resumed run did not continue from step 60:\n${out}")
endif()

run(${GENERATE} ${WORK}/run/model.ckpt --prompt "The " -n 30 --tau 0)
expect_ok("typeformer-generate")
if(NOT out MATCHES "^The " OR NOT err MATCHES "30 tokens in .* tokens/s")
    message(FATAL_ERROR "typeformer-generate printed:\n${out}\n${err}")
endif()
# The attention pictures of the trained checkpoint: tiny has L = 2 layers of H = 2 heads; each
# heatmap carries the prompt's bytes as labels and causal rows that sum to 1 (plot_check.py).
set(prompt "to be, or not")  # the blanks are drawn as ␣
run(${ATTENTION} ${WORK}/run/model.ckpt --prompt "${prompt}" --out ${WORK}/attention.svg)
expect_ok("typeformer-attention")
run(${PYTHON} ${PLOT_CHECK} attention ${WORK}/attention.svg 2 2 "${prompt}")
expect_ok("plot_check.py on attention.svg")
string(REPEAT "x" 40 long_prompt)
run(${ATTENTION} ${WORK}/run/model.ckpt --prompt "${long_prompt}" --out ${WORK}/long.svg)
if(rc EQUAL 0 OR NOT err MATCHES "40 tokens; this model's l_max is 32")
    message(FATAL_ERROR "a prompt longer than l_max was not reported: ${err}")
endif()

# The checkpoint as a firmware header (weights in flash): the same values, every one exactly.
run(${EXPORT_HEADER} ${WORK}/run/model.ckpt -o ${WORK}/weights.hpp --name tiny_weights)
expect_ok("typeformer-export-header")
file(READ "${WORK}/weights.hpp" header)
if(NOT header MATCHES "inline constexpr Model tiny_weights = {")
    message(FATAL_ERROR "weights.hpp holds no constexpr parameter object:\n${out}")
endif()
run(${PYTHON} ${EXPORT_HEADER_CHECK} ${WORK}/run/model.ckpt ${WORK}/weights.hpp)
expect_ok("export_header_check.py")
# ... and with int8 weights, quantized by the tool (docs/embedded.md's second command): each
# weight within half a step of the checkpoint's; then the STM32F405 firmware example that
# generates with such a header, built for the host with it, runs and generates.
run(${EXPORT_HEADER} ${WORK}/run/model.ckpt -o ${WORK}/weights_q8.hpp --q8)
expect_ok("typeformer-export-header --q8")
run(${PYTHON} ${EXPORT_HEADER_CHECK} ${WORK}/run/model.ckpt ${WORK}/weights_q8.hpp --q8)
expect_ok("export_header_check.py --q8")
run(${CXX} -std=c++20 -O1 -DNDEBUG -I${SOURCE_DIR}/include -I${SOURCE_DIR}/examples/firmware
    -DTYPEFORMER_BOARD_TYPE=netduinoplus2 "-DTYPEFORMER_FIRMWARE_WEIGHTS=\"${WORK}/weights_q8.hpp\""
    -DTYPEFORMER_FIRMWARE_LARGEST=0 ${SOURCE_DIR}/examples/firmware/gpt_generate.cpp
    ${SOURCE_DIR}/examples/firmware/board/host.cpp -o ${WORK}/gpt_generate)
expect_ok("building gpt_generate with the --q8 header")
run(${WORK}/gpt_generate)
expect_ok("gpt_generate")
string(REGEX MATCHALL "\ntoken [0-9]+" tokens "\n${out}")
list(LENGTH tokens generated)
if(NOT generated EQUAL 20 OR NOT out MATCHES "info parameters 34784")  # l_max 32 − 12 prompt bytes
    message(FATAL_ERROR "gpt_generate generated ${generated} tokens, expected 20:\n${out}")
endif()

# A checkpoint that cannot be used is reported with the reader's own reason: a missing file, a
# checkpoint cut inside its header (3000 bytes); a valid safetensors file (one F32 tensor, written
# by Python) that names no typeformer model, or a model no preset has, is reported as such.
function(expect_refused what path reason)
    run(${GENERATE} ${path})
    if(rc EQUAL 0 OR NOT err MATCHES "${reason}")
        message(FATAL_ERROR "${what} was not reported as '${reason}' (${rc}): ${err}")
    endif()
endfunction()
expect_refused("a missing checkpoint" ${WORK}/missing.ckpt
               "the checkpoint .*missing.ckpt does not exist")
execute_process(COMMAND ${PYTHON} -c
                "import sys; d = open(sys.argv[1], 'rb').read(); assert len(d) > 3000; open(sys.argv[2], 'wb').write(d[:3000])"
                ${WORK}/run/model.ckpt ${WORK}/cut.ckpt RESULT_VARIABLE rc)
expect_ok("truncating the checkpoint")
expect_refused("a truncated checkpoint" ${WORK}/cut.ckpt
               "cut.ckpt is not a readable checkpoint: header length [0-9]+ is larger than the file's [0-9]+ bytes")
set(write_st "import json, struct, sys
h = {'x': {'dtype': 'F32', 'shape': [1], 'data_offsets': [0, 4]}}
if len(sys.argv) > 2:
    h['__metadata__'] = {'typeformer.model': sys.argv[2]}
h = json.dumps(h).encode()
open(sys.argv[1], 'wb').write(struct.pack('<Q', len(h)) + h + struct.pack('<f', 1.5))")
execute_process(COMMAND ${PYTHON} -c "${write_st}" ${WORK}/plain.safetensors RESULT_VARIABLE rc)
expect_ok("writing a plain safetensors file")
expect_refused("a weights file that is no checkpoint" ${WORK}/plain.safetensors
               "plain.safetensors is not a training checkpoint")
# ... and one that names a model no preset of the tool has
execute_process(COMMAND ${PYTHON} -c "${write_st}" ${WORK}/other.safetensors "GPT<f64> L=99"
                RESULT_VARIABLE rc)
expect_ok("writing a safetensors file of another model")
expect_refused("a checkpoint of another model" ${WORK}/other.safetensors
               "holds a model that is none of this tool's presets .*: GPT<f64> L=99")

set(text "Hello, wörld! 42\tthe end\n")
file(WRITE "${WORK}/in.txt" "${text}")
run(${TOKENIZE} INPUT_FILE "${WORK}/in.txt")
execute_process(COMMAND ${TOKENIZE} INPUT_FILE "${WORK}/in.txt" OUTPUT_FILE "${WORK}/ids.txt"
                RESULT_VARIABLE rc)
execute_process(COMMAND ${TOKENIZE} --decode INPUT_FILE "${WORK}/ids.txt"
                OUTPUT_VARIABLE back RESULT_VARIABLE rc2)
if(NOT rc EQUAL 0 OR NOT rc2 EQUAL 0 OR NOT back STREQUAL text)
    message(FATAL_ERROR "byte round trip gave '${back}'")
endif()
run(${TOKENIZE} train --corpus /usr/share/common-licenses/GPL-3 --merges 100 --out ${WORK}/m.bpe)
expect_ok("typeformer-tokenize train")
execute_process(COMMAND ${TOKENIZE} --bpe ${WORK}/m.bpe INPUT_FILE "${WORK}/in.txt"
                OUTPUT_FILE "${WORK}/bpe_ids.txt" RESULT_VARIABLE rc)
execute_process(COMMAND ${TOKENIZE} --bpe ${WORK}/m.bpe --decode INPUT_FILE "${WORK}/bpe_ids.txt"
                OUTPUT_VARIABLE back RESULT_VARIABLE rc2)
if(NOT rc EQUAL 0 OR NOT rc2 EQUAL 0 OR NOT back STREQUAL text)
    message(FATAL_ERROR "BPE round trip gave '${back}'")
endif()
file(WRITE "${WORK}/bad.txt" "1 2 x")
execute_process(COMMAND ${TOKENIZE} --decode INPUT_FILE "${WORK}/bad.txt"
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(rc EQUAL 0 OR NOT err MATCHES "not a list of token ids")
    message(FATAL_ERROR "bad ids were not reported: ${err}")
endif()
message(STATUS "workflow: train, resume, generate, attention, tokenize all passed")
