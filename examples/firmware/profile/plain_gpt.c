/* plain_gpt.h: the hand-written reference. */
#include "plain_gpt.h"

#include <math.h>

static void layer_norm(float* y, const float* x, const float* g, const float* b, int n, float eps) {
    float mean = 0.0f, var = 0.0f;
    for (int i = 0; i < n; ++i)
        mean += x[i];
    mean /= (float)n;
    for (int i = 0; i < n; ++i)
        var += (x[i] - mean) * (x[i] - mean);
    var /= (float)n;
    const float r = 1.0f / sqrtf(var + eps);
    for (int i = 0; i < n; ++i)
        y[i] = (x[i] - mean) * r * g[i] + b[i];
}

/* y = W x + b, W row-major (rows × cols); b may be NULL. */
static void matvec(float* y, const float* W, const float* x, const float* b, int rows, int cols) {
    for (int i = 0; i < rows; ++i) {
        const float* w = W + i * cols;
        float s = 0.0f;
        for (int j = 0; j < cols; ++j)
            s += w[j] * x[j];
        y[i] = b ? s + b[i] : s;
    }
}

void plain_gpt_step(const struct plain_gpt* m, struct plain_state* s, int token, int pos,
                    float* logits) {
    const int d_e = m->d_e, H = m->H, dq = m->H * m->d_attn, dv = m->H * m->d_mid;
    const float scale = 1.0f / sqrtf((float)m->d_attn);
    for (int i = 0; i < d_e; ++i)
        s->x[i] = m->W_e[token * d_e + i] + m->W_p[pos * d_e + i];
    for (int l = 0; l < m->L; ++l) {
        const struct plain_layer* p = &m->layers[l];
        float* K = s->K + l * m->l_max * dq;
        float* V = s->V + l * m->l_max * dv;
        layer_norm(s->xn, s->x, p->ln1_g, p->ln1_b, d_e, m->eps);
        matvec(s->q, p->W_q, s->xn, p->b_q, dq, d_e);
        matvec(K + pos * dq, p->W_k, s->xn, p->b_k, dq, d_e);
        matvec(V + pos * dv, p->W_v, s->xn, p->b_v, dv, d_e);
        for (int h = 0; h < H; ++h) {
            const float* q = s->q + h * m->d_attn;
            float mx = -INFINITY, sum = 0.0f;
            for (int u = 0; u <= pos; ++u) {
                const float* k = K + u * dq + h * m->d_attn;
                float d = 0.0f;
                for (int i = 0; i < m->d_attn; ++i)
                    d += q[i] * k[i];
                s->scores[u] = d * scale;
                if (s->scores[u] > mx)
                    mx = s->scores[u];
            }
            for (int u = 0; u <= pos; ++u) {
                s->scores[u] = expf(s->scores[u] - mx);
                sum += s->scores[u];
            }
            float* y = s->y + h * m->d_mid;
            for (int i = 0; i < m->d_mid; ++i)
                y[i] = 0.0f;
            for (int u = 0; u <= pos; ++u) {
                const float a = s->scores[u] / sum;
                const float* v = V + u * dv + h * m->d_mid;
                for (int i = 0; i < m->d_mid; ++i)
                    y[i] += a * v[i];
            }
        }
        matvec(s->xn, p->W_o, s->y, p->b_o, d_e, dv);
        for (int i = 0; i < d_e; ++i)
            s->x[i] += s->xn[i];
        layer_norm(s->xn, s->x, p->ln2_g, p->ln2_b, d_e, m->eps);
        matvec(s->h, p->W_1, s->xn, p->b_1, m->d_mlp, d_e);
        for (int i = 0; i < m->d_mlp; ++i)
            s->h[i] = 0.5f * s->h[i] * (1.0f + erff(s->h[i] * 0.70710678f));
        matvec(s->xn, p->W_2, s->h, p->b_2, d_e, m->d_mlp);
        for (int i = 0; i < d_e; ++i)
            s->x[i] += s->xn[i];
    }
    layer_norm(s->xn, s->x, m->lnf_g, m->lnf_b, d_e, m->eps);
    matvec(logits, m->W_u, s->xn, 0, m->N_V, d_e);
}
