// typeformer: Formal Algorithms for Transformers with every dimension a type.
// The umbrella of the core headers (no fmt, no iostream, no heap): safe for microcontrollers.
// Host-only file and formatting support is in <typeformer/io.hpp>.
//
//   dim, tensor, token, config     named dimensions, vec / mat over them, token ids, checks
//   kernels                        the typed math (xsimd or scalar)
//   nn/                            Algorithms 1–7 as modules (embedding … unembedding)
//   params                         the generic walk: names, init, zero, counts
//   models/                        Algorithms 8–10: EDTransformer, ETransformer, DTransformer,
//                                  their workspaces, forward / logits / backward
//   train/                         Algorithms 11–13: DTraining, ETraining, EDTraining, their
//                                  losses (loss_and_grad), SGD, AdamW, clipping, schedules,
//                                  footprint<Model> (bytes of a training or inference set-up)
//   infer/                         Algorithms 14, 15: sampling, the KV cache, DInference,
//                                  EDInference, fill-mask
#pragma once

#include "shape_error.hpp"  // first: a mis-shaped call's note then names only this include

#include "config.hpp"
#include "dim.hpp"
#include "kernels.hpp"
#include "tensor.hpp"
#include "token.hpp"

#include "nn/activation.hpp"
#include "nn/attention.hpp"
#include "nn/embedding.hpp"
#include "nn/layer_norm.hpp"
#include "nn/mh_attention.hpp"
#include "nn/mlp.hpp"
#include "nn/single_query_attention.hpp"
#include "nn/unembedding.hpp"

#include "params.hpp"
#include "random.hpp"

#include "models/config.hpp"
#include "models/dtransformer.hpp"
#include "models/edtransformer.hpp"
#include "models/etransformer.hpp"
#include "models/forward.hpp"
#include "models/status.hpp"
#include "models/workspace.hpp"

#include "infer/dinference.hpp"
#include "infer/edinference.hpp"
#include "infer/fill_mask.hpp"
#include "infer/kv_cache.hpp"
#include "infer/sampling.hpp"

#include "train/adam.hpp"
#include "train/clip.hpp"
#include "train/dtraining.hpp"
#include "train/edtraining.hpp"
#include "train/etraining.hpp"
#include "train/footprint.hpp"
#include "train/loss.hpp"
#include "train/schedule.hpp"
#include "train/sgd.hpp"
#include "train/step.hpp"
#include "train/trainable.hpp"
#include "train/training.hpp"

// deploy/: boards as types, deployments (model × use × placement × board) checked by the
// compiler, and the signature check of exported weights
#include "deploy/board.hpp"
#include "deploy/deployment.hpp"
#include "deploy/exported.hpp"
#include "deploy/use.hpp"
