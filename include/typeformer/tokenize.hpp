// Tokenization (§3–4 of the paper), standing alone: host code, independent of any model.
//   tokenize/byte.hpp        byte_level: 256 bytes + mask, bos, eos
//   tokenize/bpe.hpp         bpe: byte-pair encoding trained here, saved and loaded
//   tokenize/gpt2.hpp        gpt2: GPT-2's byte-level BPE from its encoder.json and vocab.bpe
//   tokenize/characters.hpp  characters: a vocabulary of characters (nanoGPT's meta.pkl)
//   tokenize/dataset.hpp     wrap, chunk, split, window_sampler
//   tokenize/tokens.hpp      tokens<N_V<n>> (ids typed with their vocabulary), for_model<Model>(tok)
#pragma once

#include "tokenize/bpe.hpp"
#include "tokenize/byte.hpp"
#include "tokenize/characters.hpp"
#include "tokenize/dataset.hpp"
#include "tokenize/gpt2.hpp"
#include "tokenize/tokens.hpp"
