/* The training step a firmware engineer writes by hand, beside plain_gpt.h's decoding step: the
 * loss of Algorithm 13 (−Σ_{t<l−1} log P[x[t+1], t], a sum) of the same GPT (pre-norm, learned
 * positions, GELU with erff, untied W_u, no bias on W_u), its gradient by backpropagation, and
 * θ ← θ − lr·∇, as plain C loops over one flat row-major parameter array. gpt_profile counts it
 * beside typeformer's SGD step and checks that the two give the same loss and gradient.
 *
 * The flat layout (every matrix row-major, as plain_gpt.h):
 *   W_e (N_V rows of d_e), W_p (l_max rows of d_e),
 *   per layer: ln1_g, ln1_b (d_e), W_q (H·d_attn rows of d_e), b_q, W_k, b_k, W_v (H·d_mid rows
 *   of d_e), b_v, W_o (d_e rows of H·d_mid), b_o, ln2_g, ln2_b, W_1 (d_mlp rows of d_e), b_1,
 *   W_2 (d_e rows of d_mlp), b_2,
 *   lnf_g, lnf_b (d_e), W_u (N_V rows of d_e). */
#ifndef PLAIN_TRAIN_H
#define PLAIN_TRAIN_H

#ifdef __cplusplus
extern "C" {
#endif

struct plain_dims {
    int N_V, l_max, L, H, d_e, d_attn, d_mid, d_mlp;
    float eps;
};

/* The parameters of the flat layout, and the floats of scratch plain_sgd_step needs for l
 * tokens (the forward's activations, kept for the backward, and the backward's own). */
int plain_train_params(const struct plain_dims* d);
int plain_train_scratch(const struct plain_dims* d, int l);

/* One SGD step on the tokens x[0..l−1] (2 ≤ l ≤ l_max): writes ∇loss into grad (zeroed first;
 * the flat layout), then theta −= lr·grad; returns the loss. */
float plain_sgd_step(const struct plain_dims* d, float* theta, float* grad, const int* x, int l,
                     float lr, float* scratch);

#ifdef __cplusplus
}
#endif
#endif
