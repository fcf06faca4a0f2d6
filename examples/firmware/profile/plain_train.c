/* plain_train.h: the hand-written training step. Activations are token-major (row t of a
 * (T, n) buffer is token t's n features), as a firmware engineer lays them out. */
#include "plain_train.h"

#include <math.h>
#include <string.h>

struct layer_at {
    int ln1_g, ln1_b, W_q, b_q, W_k, b_k, W_v, b_v, W_o, b_o, ln2_g, ln2_b, W_1, b_1, W_2, b_2;
};

static int layer_params(const struct plain_dims* d) {
    const int e = d->d_e, dq = d->H * d->d_attn, dv = d->H * d->d_mid, f = d->d_mlp;
    return 4 * e + 2 * (dq * e + dq) + dv * e + dv + e * dv + e + f * e + f + e * f + e;
}

/* The offsets of layer l's tensors in the flat layout. */
static struct layer_at layer_offsets(const struct plain_dims* d, int l) {
    const int e = d->d_e, dq = d->H * d->d_attn, dv = d->H * d->d_mid, f = d->d_mlp;
    int o = d->N_V * e + d->l_max * e + l * layer_params(d);
    struct layer_at p;
    p.ln1_g = o, o += e, p.ln1_b = o, o += e;
    p.W_q = o, o += dq * e, p.b_q = o, o += dq, p.W_k = o, o += dq * e, p.b_k = o, o += dq;
    p.W_v = o, o += dv * e, p.b_v = o, o += dv, p.W_o = o, o += e * dv, p.b_o = o, o += e;
    p.ln2_g = o, o += e, p.ln2_b = o, o += e;
    p.W_1 = o, o += f * e, p.b_1 = o, o += f, p.W_2 = o, o += e * f, p.b_2 = o;
    return p;
}

int plain_train_params(const struct plain_dims* d) {
    return 2 * d->N_V * d->d_e + d->l_max * d->d_e + d->L * layer_params(d) + 2 * d->d_e;
}

/* Per layer: x_in, xn1, x_mid, xn2 (T, d_e); mu1, r1, mu2, r2 (T); q, k (T, H·d_attn); v, y
 * (T, H·d_mid); att (H, T, T); hpre, hact (T, d_mlp). */
static int layer_scratch(const struct plain_dims* d, int T) {
    const int dq = d->H * d->d_attn, dv = d->H * d->d_mid;
    return T * (4 * d->d_e + 4 + 2 * dq + 2 * dv + 2 * d->d_mlp) + d->H * T * T;
}

int plain_train_scratch(const struct plain_dims* d, int T) {
    const int e = d->d_e, dq = d->H * d->d_attn, dv = d->H * d->d_mid;
    return d->L * layer_scratch(d, T) + T * (2 * e + 2 + d->N_V) /* x_fin, xnf, muf, rf, z */
           + T * (3 * e + d->d_mlp + 2 * dv + 2 * dq + 1);       /* the backward's */
}

/* y[t] = W·x[t] + b for T tokens; W: rows × cols, b may be NULL. */
static void pt_linear(float* y, const float* W, const float* b, const float* x, int rows, int cols,
                      int T) {
    for (int t = 0; t < T; ++t)
        for (int i = 0; i < rows; ++i) {
            float s = 0.0f;
            for (int j = 0; j < cols; ++j)
                s += W[i * cols + j] * x[t * cols + j];
            y[t * rows + i] = b ? s + b[i] : s;
        }
}

/* The backward of pt_linear: dx[t] += Wᵀ·dy[t], gW += Σ_t dy[t]·x[t]ᵀ, gb += Σ_t dy[t]. */
static void pt_linear_backward(float* dx, float* gW, float* gb, const float* W, const float* x,
                               const float* dy, int rows, int cols, int T) {
    for (int t = 0; t < T; ++t)
        for (int i = 0; i < rows; ++i) {
            const float g = dy[t * rows + i];
            if (gb)
                gb[i] += g;
            for (int j = 0; j < cols; ++j) {
                gW[i * cols + j] += g * x[t * cols + j];
                dx[t * cols + j] += W[i * cols + j] * g;
            }
        }
}

static void pt_unembed(float* z, const float* W_u, const float* x, int N_V, int e, int T) {
    pt_linear(z, W_u, 0, x, N_V, e, T);
}

static void pt_unembed_backward(float* dx, float* gW_u, const float* W_u, const float* x,
                                const float* dz, int N_V, int e, int T) {
    pt_linear_backward(dx, gW_u, 0, W_u, x, dz, N_V, e, T);
}

static void pt_layer_norm(float* y, float* mu, float* r, const float* x, const float* g,
                          const float* b, int n, int T, float eps) {
    for (int t = 0; t < T; ++t) {
        const float* xt = x + t * n;
        float mean = 0.0f, var = 0.0f;
        for (int i = 0; i < n; ++i)
            mean += xt[i];
        mean /= (float)n;
        for (int i = 0; i < n; ++i)
            var += (xt[i] - mean) * (xt[i] - mean);
        var /= (float)n;
        mu[t] = mean;
        r[t] = 1.0f / sqrtf(var + eps);
        for (int i = 0; i < n; ++i)
            y[t * n + i] = (xt[i] - mean) * r[t] * g[i] + b[i];
    }
}

/* dx[t] += the gradient through y = x̂·g + b, x̂ = (x − μ)·r; gg, gb accumulate. */
static void pt_layer_norm_backward(float* dx, float* gg, float* gb, const float* dy, const float* x,
                                   const float* mu, const float* r, const float* g, int n, int T) {
    for (int t = 0; t < T; ++t) {
        const float *xt = x + t * n, *dyt = dy + t * n;
        float m1 = 0.0f, m2 = 0.0f;
        for (int i = 0; i < n; ++i) {
            const float xhat = (xt[i] - mu[t]) * r[t], dxhat = dyt[i] * g[i];
            gg[i] += dyt[i] * xhat;
            gb[i] += dyt[i];
            m1 += dxhat;
            m2 += dxhat * xhat;
        }
        m1 /= (float)n;
        m2 /= (float)n;
        for (int i = 0; i < n; ++i) {
            const float xhat = (xt[i] - mu[t]) * r[t];
            dx[t * n + i] += r[t] * (dyt[i] * g[i] - m1 - xhat * m2);
        }
    }
}

/* Causal attention per head: att[h][t][u] = softmax_u≤t(q_h[t]·k_h[u] / √d_attn), y_h[t] =
 * Σ_u att·v_h[u]. */
static void pt_attention(float* y, float* att, const float* q, const float* k, const float* v,
                         int H, int da, int dm, int T) {
    const int dq = H * da, dv = H * dm;
    const float scale = 1.0f / sqrtf((float)da);
    for (int h = 0; h < H; ++h)
        for (int t = 0; t < T; ++t) {
            float* a = att + (h * T + t) * T;
            float mx = -INFINITY, sum = 0.0f;
            for (int u = 0; u <= t; ++u) {
                float s = 0.0f;
                for (int i = 0; i < da; ++i)
                    s += q[t * dq + h * da + i] * k[u * dq + h * da + i];
                a[u] = s * scale;
                mx = a[u] > mx ? a[u] : mx;
            }
            for (int u = 0; u <= t; ++u) {
                a[u] = expf(a[u] - mx);
                sum += a[u];
            }
            for (int u = 0; u <= t; ++u)
                a[u] /= sum;
            for (int i = 0; i < dm; ++i) {
                float s = 0.0f;
                for (int u = 0; u <= t; ++u)
                    s += a[u] * v[u * dv + h * dm + i];
                y[t * dv + h * dm + i] = s;
            }
        }
}

/* dq, dk, dv += the gradients through pt_attention, given dy; da: T floats of scratch. */
static void pt_attention_backward(float* dq, float* dk, float* dv, float* da, const float* att,
                                  const float* q, const float* k, const float* v, const float* dy,
                                  int H, int d_attn, int dm, int T) {
    const int nq = H * d_attn, nv = H * dm;
    const float scale = 1.0f / sqrtf((float)d_attn);
    for (int h = 0; h < H; ++h)
        for (int t = 0; t < T; ++t) {
            const float* a = att + (h * T + t) * T;
            const float* dyt = dy + t * nv + h * dm;
            float dot = 0.0f;
            for (int u = 0; u <= t; ++u) {
                float s = 0.0f;
                for (int i = 0; i < dm; ++i) {
                    s += dyt[i] * v[u * nv + h * dm + i];
                    dv[u * nv + h * dm + i] += a[u] * dyt[i];
                }
                da[u] = s;
                dot += a[u] * s;
            }
            for (int u = 0; u <= t; ++u) {
                const float ds = a[u] * (da[u] - dot) * scale;
                for (int i = 0; i < d_attn; ++i) {
                    dq[t * nq + h * d_attn + i] += ds * k[u * nq + h * d_attn + i];
                    dk[u * nq + h * d_attn + i] += ds * q[t * nq + h * d_attn + i];
                }
            }
        }
}

static void pt_gelu(float* y, const float* x, int n) {
    for (int i = 0; i < n; ++i)
        y[i] = 0.5f * x[i] * (1.0f + erff(x[i] * 0.70710678f));
}

/* d ← d · GELU′(x), GELU′(x) = Φ(x) + x·φ(x). */
static void pt_gelu_backward(float* d, const float* x, int n) {
    for (int i = 0; i < n; ++i) {
        const float cdf = 0.5f * (1.0f + erff(x[i] * 0.70710678f));
        const float pdf = 0.39894228f * expf(-0.5f * x[i] * x[i]);
        d[i] *= cdf + x[i] * pdf;
    }
}

/* −Σ_{t<T−1} log softmax(z[t])[x[t+1]]; z becomes its gradient (softmax − one-hot; 0 for the
 * last token, which has no target). */
static float pt_cross_entropy_backward(float* z, const int* x, int N_V, int T) {
    float loss = 0.0f;
    for (int t = 0; t < T; ++t) {
        float* zt = z + t * N_V;
        if (t + 1 == T) {
            memset(zt, 0, (size_t)N_V * sizeof(float));
            break;
        }
        float mx = zt[0], sum = 0.0f;
        for (int v = 1; v < N_V; ++v)
            mx = zt[v] > mx ? zt[v] : mx;
        const float target = zt[x[t + 1]];
        for (int v = 0; v < N_V; ++v) {
            zt[v] = expf(zt[v] - mx);
            sum += zt[v];
        }
        loss += logf(sum) + mx - target;
        for (int v = 0; v < N_V; ++v)
            zt[v] /= sum;
        zt[x[t + 1]] -= 1.0f;
    }
    return loss;
}

static void pt_embed(float* X, const float* W_e, const float* W_p, const int* x, int e, int T) {
    for (int t = 0; t < T; ++t)
        for (int i = 0; i < e; ++i)
            X[t * e + i] = W_e[x[t] * e + i] + W_p[t * e + i];
}

static void pt_embed_backward(float* gW_e, float* gW_p, const float* dX, const int* x, int e,
                              int T) {
    for (int t = 0; t < T; ++t)
        for (int i = 0; i < e; ++i) {
            gW_e[x[t] * e + i] += dX[t * e + i];
            gW_p[t * e + i] += dX[t * e + i];
        }
}

static void pt_sgd(float* theta, const float* grad, int n, float lr) {
    for (int i = 0; i < n; ++i)
        theta[i] -= lr * grad[i];
}

float plain_sgd_step(const struct plain_dims* d, float* theta, float* grad, const int* x, int T,
                     float lr, float* scratch) {
    const int e = d->d_e, H = d->H, da = d->d_attn, dm = d->d_mid, f = d->d_mlp;
    const int dq = H * da, dv = H * dm, n = plain_train_params(d);
    const int W_p = d->N_V * e, lnf = d->N_V * e + d->l_max * e + d->L * layer_params(d);
    float* s = scratch;
    float *x_fin = s + d->L * layer_scratch(d, T), *xnf = x_fin + T * e, *muf = xnf + T * e;
    float *rf = muf + T, *z = rf + T;
    float *dX = z + T * d->N_V, *dxn = dX + T * e, *tmp = dxn + T * e, *dh = tmp + T * e;
    float *dy = dh + T * f, *dqb = dy + T * dv, *dkb = dqb + T * dq, *dvb = dkb + T * dq;
    float* row = dvb + T * dv;
    memset(grad, 0, (size_t)n * sizeof(float));

    /* the forward pass, each layer's activations kept */
    pt_embed(s, theta, theta + W_p, x, e, T);
    for (int l = 0; l < d->L; ++l) {
        const struct layer_at p = layer_offsets(d, l);
        float *x_in = s + l * layer_scratch(d, T), *xn1 = x_in + T * e, *x_mid = xn1 + T * e;
        float *xn2 = x_mid + T * e, *mu1 = xn2 + T * e, *r1 = mu1 + T, *mu2 = r1 + T;
        float *r2 = mu2 + T, *q = r2 + T, *k = q + T * dq, *v = k + T * dq, *y = v + T * dv;
        float *att = y + T * dv, *hpre = att + H * T * T, *hact = hpre + T * f;
        float* x_out = l + 1 < d->L ? s + (l + 1) * layer_scratch(d, T) : x_fin;
        pt_layer_norm(xn1, mu1, r1, x_in, theta + p.ln1_g, theta + p.ln1_b, e, T, d->eps);
        pt_linear(q, theta + p.W_q, theta + p.b_q, xn1, dq, e, T);
        pt_linear(k, theta + p.W_k, theta + p.b_k, xn1, dq, e, T);
        pt_linear(v, theta + p.W_v, theta + p.b_v, xn1, dv, e, T);
        pt_attention(y, att, q, k, v, H, da, dm, T);
        pt_linear(tmp, theta + p.W_o, theta + p.b_o, y, e, dv, T);
        for (int i = 0; i < T * e; ++i)
            x_mid[i] = x_in[i] + tmp[i];
        pt_layer_norm(xn2, mu2, r2, x_mid, theta + p.ln2_g, theta + p.ln2_b, e, T, d->eps);
        pt_linear(hpre, theta + p.W_1, theta + p.b_1, xn2, f, e, T);
        pt_gelu(hact, hpre, T * f);
        pt_linear(tmp, theta + p.W_2, theta + p.b_2, hact, e, f, T);
        for (int i = 0; i < T * e; ++i)
            x_out[i] = x_mid[i] + tmp[i];
    }
    pt_layer_norm(xnf, muf, rf, x_fin, theta + lnf, theta + lnf + e, e, T, d->eps);
    pt_unembed(z, theta + lnf + 2 * e, xnf, d->N_V, e, T);
    const float loss = pt_cross_entropy_backward(z, x, d->N_V, T);

    /* the backward pass */
    memset(dxn, 0, (size_t)(T * e) * sizeof(float));
    pt_unembed_backward(dxn, grad + lnf + 2 * e, theta + lnf + 2 * e, xnf, z, d->N_V, e, T);
    memset(dX, 0, (size_t)(T * e) * sizeof(float));
    pt_layer_norm_backward(dX, grad + lnf, grad + lnf + e, dxn, x_fin, muf, rf, theta + lnf, e, T);
    for (int l = d->L - 1; l >= 0; --l) {
        const struct layer_at p = layer_offsets(d, l);
        float *x_in = s + l * layer_scratch(d, T), *xn1 = x_in + T * e, *x_mid = xn1 + T * e;
        float *xn2 = x_mid + T * e, *mu1 = xn2 + T * e, *r1 = mu1 + T, *mu2 = r1 + T;
        float *r2 = mu2 + T, *q = r2 + T, *k = q + T * dq, *v = k + T * dq, *y = v + T * dv;
        float *att = y + T * dv, *hpre = att + H * T * T, *hact = hpre + T * f;
        /* the MLP: x_out = x_mid + W_2·GELU(W_1·LN(x_mid) + b_1) + b_2, dX = ∂loss/∂x_out */
        memset(dh, 0, (size_t)(T * f) * sizeof(float));
        pt_linear_backward(dh, grad + p.W_2, grad + p.b_2, theta + p.W_2, hact, dX, e, f, T);
        pt_gelu_backward(dh, hpre, T * f);
        memset(dxn, 0, (size_t)(T * e) * sizeof(float));
        pt_linear_backward(dxn, grad + p.W_1, grad + p.b_1, theta + p.W_1, xn2, dh, f, e, T);
        pt_layer_norm_backward(dX, grad + p.ln2_g, grad + p.ln2_b, dxn, x_mid, mu2, r2,
                               theta + p.ln2_g, e, T);
        /* attention: x_mid = x_in + W_o·Attention(LN(x_in)) + b_o, dX = ∂loss/∂x_mid */
        memset(dy, 0, (size_t)(T * dv) * sizeof(float));
        pt_linear_backward(dy, grad + p.W_o, grad + p.b_o, theta + p.W_o, y, dX, e, dv, T);
        memset(dqb, 0, (size_t)(T * (2 * dq + dv)) * sizeof(float)); /* dqb, dkb, dvb */
        pt_attention_backward(dqb, dkb, dvb, row, att, q, k, v, dy, H, da, dm, T);
        memset(dxn, 0, (size_t)(T * e) * sizeof(float));
        pt_linear_backward(dxn, grad + p.W_q, grad + p.b_q, theta + p.W_q, xn1, dqb, dq, e, T);
        pt_linear_backward(dxn, grad + p.W_k, grad + p.b_k, theta + p.W_k, xn1, dkb, dq, e, T);
        pt_linear_backward(dxn, grad + p.W_v, grad + p.b_v, theta + p.W_v, xn1, dvb, dv, e, T);
        pt_layer_norm_backward(dX, grad + p.ln1_g, grad + p.ln1_b, dxn, x_in, mu1, r1,
                               theta + p.ln1_g, e, T);
    }
    pt_embed_backward(grad, grad + W_p, dX, x, e, T);
    pt_sgd(theta, grad, n, lr);
    return loss;
}
