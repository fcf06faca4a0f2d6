/* The reference a firmware engineer writes by hand: one KV-cache decoding step of a GPT
 * (Algorithm 10, pre-norm, learned positions, GELU with erff, untied W_u) as plain C loops over
 * row-major float arrays, compiled with the firmware's flags. gpt_profile counts it beside
 * typeformer's decoding of the same weights and checks that the two give the same logits. */
#ifndef PLAIN_GPT_H
#define PLAIN_GPT_H

#ifdef __cplusplus
extern "C" {
#endif

struct plain_layer {
    const float *ln1_g, *ln1_b;
    const float *W_q, *b_q, *W_k, *b_k, *W_v, *b_v; /* (H·d_attn or H·d_mid) rows of d_e */
    const float *W_o, *b_o;                         /* d_e rows of H·d_mid */
    const float *ln2_g, *ln2_b;
    const float *W_1, *b_1; /* d_mlp rows of d_e */
    const float *W_2, *b_2; /* d_e rows of d_mlp */
};

struct plain_gpt {
    int N_V, l_max, L, H, d_e, d_attn, d_mid, d_mlp;
    float eps;
    const float* W_e; /* N_V rows of d_e: token v's embedding */
    const float* W_p; /* l_max rows of d_e */
    const struct plain_layer* layers;
    const float *lnf_g, *lnf_b;
    const float* W_u; /* N_V rows of d_e */
};

/* The keys and values of every layer (L · l_max rows of H·d_attn, H·d_mid) and the scratch. */
struct plain_state {
    float *K, *V;
    float *x, *xn, *q, *scores, *y, *h; /* d_e, d_e, H·d_attn, l_max, H·d_mid, d_mlp */
};

/* Token `token` at position `pos` (the keys and values of positions < pos in s): its logits. */
void plain_gpt_step(const struct plain_gpt* m, struct plain_state* s, int token, int pos,
                    float* logits);

#ifdef __cplusplus
}
#endif
#endif
