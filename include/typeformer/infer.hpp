// Inference (Algorithms 14, 15): sampling, the KV cache, DInference, EDInference, fill-mask.
#pragma once

#include "infer/dinference.hpp"
#include "infer/edinference.hpp"
#include "infer/fill_mask.hpp"
#include "infer/kv_cache.hpp"
#include "infer/sampling.hpp"
