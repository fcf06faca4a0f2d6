// The typed kernels: every operation of the paper's algorithms on vec / mat over named
// dimensions, checked at compile time (dims) and at run time (extents), running on
// kernels::backend (xsimd when available, plain loops otherwise; see kernels/backend.hpp).
//
//   gemm.hpp           matmul, matmul_add, matvec, matvec_add (A·B, Aᵀ·B, A·Bᵀ)
//   bias.hpp           add_bias, add_bias_grad
//   elementwise.hpp    axpy, scale
//   softmax.hpp        mask_bidirectional, mask_unidirectional, softmax_columns(+_backward)
//   norm.hpp           layer_norm, rms_norm (+_backward)
//   activation.hpp     relu, gelu, gelu_tanh (+_backward)
//   cross_entropy.hpp  cross_entropy, cross_entropy_backward
#pragma once

#include "shape_error.hpp"  // first: an error's note then names only this include

#include "kernels/activation.hpp"
#include "kernels/backend.hpp"
#include "kernels/bias.hpp"
#include "kernels/cross_entropy.hpp"
#include "kernels/elementwise.hpp"
#include "kernels/gemm.hpp"
#include "kernels/norm.hpp"
#include "kernels/softmax.hpp"
