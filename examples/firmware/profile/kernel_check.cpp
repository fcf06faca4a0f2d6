// Firmware: the device kernel layer's products on the core itself, against naive loops in double
// (soft-float on a Cortex-M4F: slow, but this image only checks). What the host cannot run:
//
//   float products (kernels/cortexm/gemm.hpp's VLDM/VFMA assembly, kernels/helium/gemm.hpp's
//   MVE): gemm_nn, gemm_tn, gemm_nt over sizes around the register blocks (1…37 rows, 0…41
//   terms, 1–3 columns), padded leading dimensions, overwrite and accumulate, the epilogue (bias,
//   residual) and the causal bands; each entry within 1e-5 · (|ref| + Σ|terms|) of the double
//   sum, C's padding untouched
//   int8 products (kernels/cortexm/q8.hpp's SMLAD assembly, the Helium ones): gemm_q8a8 against
//   kernels/scalar/q8.hpp's to the bit (its sums are exact int32s), for shapes on and off the
//   fast paths (K a multiple of 8 up to 336, a multiple of 4, neither), and gemm_q8a8_gelu (GELU on
//   the codes by a table) likewise, over every exponent of its tables; the int8 KV cache's
//   attention sums (Kᵀq, V·β) and codes equal the scalar layer's for 1…l positions
//   the training step's GELU backward and cross-entropy (kernels/cortexm/gelu_backward.hpp,
//   cross_entropy.hpp) and Adam (cortexm/adam.hpp, each form) against the scalar layer's
//   within a stated tolerance (check_training)
//
// Prints one line per family and exits 1 at the first failure.
#include <cstddef>
#include <cstdint>

#include <typeformer/kernels.hpp>
#include <typeformer/kernels/q8.hpp>

#include "board/board.hpp"

namespace kn = typeformer::kernels;

TYPEFORMER_BOARD_STACK(8192);  // the board support puts it in the stack region

namespace {

std::uint32_t state = 12345;
float next() {  // uniform in [-1, 1)
    state = state * 1664525u + 1013904223u;
    return static_cast<float>(static_cast<std::int32_t>(state >> 8) - (1 << 23)) / (1 << 23);
}
double fabs_d(double v) {
    return v < 0 ? -v : v;
}

constexpr std::size_t max_m = 40, max_k = 44, max_n = 3, pad = 3;
float A[(max_m + pad) * (max_k + pad)], B[(max_k + pad) * (max_n + pad)], C[(max_m + pad) * max_n],
    bias[max_m], R[(max_m + pad) * max_n];
constexpr float sentinel = -12345.25f;

enum class form { nn, tn, nt };

// A(i, p) of op(A), B(p, j) of op(B) for each form (A, B column-major with lda, ldb).
float a_at(form f, std::size_t i, std::size_t p, std::size_t lda) {
    return f == form::tn ? A[p + i * lda] : A[i + p * lda];
}
float b_at(form f, std::size_t p, std::size_t j, std::size_t ldb) {
    return f == form::nt ? B[j + p * ldb] : B[p + j * ldb];
}

bool check_float(form f, std::size_t m, std::size_t n, std::size_t k, bool accumulate,
                 bool epilogue, kn::gemm_band band) {
    const std::size_t lda = (f == form::tn ? k : m) + pad, ldb = (f == form::nt ? n : k) + 1,
                      ldc = m + 2;
    for (auto& v : A)
        v = next();
    for (auto& v : B)
        v = next();
    for (auto& v : bias)
        v = next();
    for (auto& v : R)
        v = next();
    for (std::size_t j = 0; j < n; ++j)
        for (std::size_t i = 0; i < ldc; ++i)
            C[i + j * ldc] = i < m ? next() : sentinel;
    static double ref[max_m * max_n], mag[max_m * max_n];
    for (std::size_t j = 0; j < n; ++j)
        for (std::size_t i = 0; i < m; ++i) {
            double s = accumulate ? C[i + j * ldc] : 0.0, g = fabs_d(s);
            for (std::size_t p = band.k_first(k, j); p < band.k_last(k, j + 1); ++p) {
                const double t = static_cast<double>(a_at(f, i, p, lda)) * b_at(f, p, j, ldb);
                s += t, g += fabs_d(t);
            }
            if (epilogue)
                s += bias[i] + R[i + j * ldc], g += fabs_d(bias[i]) + fabs_d(R[i + j * ldc]);
            ref[i + j * m] = s, mag[i + j * m] = g;
        }
    const auto ep = epilogue ? kn::gemm_epilogue<float>{}.with_bias(bias).with_residual(R, ldc)
                             : kn::gemm_epilogue<float>{};
    if (f == form::nn)
        kn::backend::gemm_nn(m, n, k, A, lda, B, ldb, C, ldc, accumulate, band, ep);
    else if (f == form::tn)
        kn::backend::gemm_tn(m, n, k, A, lda, B, ldb, C, ldc, accumulate, band, ep);
    else
        kn::backend::gemm_nt(m, n, k, A, lda, B, ldb, C, ldc, accumulate, band, ep);
    for (std::size_t j = 0; j < n; ++j) {
        for (std::size_t i = 0; i < band.rows_upto(m, j + 1); ++i) {
            const double d = fabs_d(C[i + j * ldc] - ref[i + j * m]);
            if (!(d <= 1e-5 * (fabs_d(ref[i + j * m]) + mag[i + j * m]))) {
                board::print("FAIL float form", static_cast<unsigned>(f), "m", m, "n", n, "k", k,
                             "acc", accumulate ? 1u : 0u, "ep", epilogue ? 1u : 0u, "entry", i, j,
                             "got", C[i + j * ldc], "ref", static_cast<float>(ref[i + j * m]));
                return false;
            }
        }
        for (std::size_t i = m; i < ldc; ++i)
            if (C[i + j * ldc] != sentinel) {
                board::print("FAIL float form", static_cast<unsigned>(f), "padding written m", m);
                return false;
            }
    }
    return true;
}

bool check_floats() {
    std::size_t cases = 0;
    for (const form f : {form::nn, form::tn, form::nt})
        for (std::size_t m : {1u, 3u, 4u, 5u, 8u, 11u, 12u, 13u, 16u, 20u, 24u, 25u, 37u})
            for (std::size_t k : {0u, 1u, 3u, 4u, 7u, 8u, 9u, 12u, 16u, 17u, 33u, 41u})
                for (std::size_t n : {1u, 3u})
                    for (const bool acc : {false, true})
                        for (const bool ep : {false, true}) {
                            if (!check_float(f, m, n, k, acc, ep, {}))
                                return false;
                            ++cases;
                        }
    // The causal bands attention passes: a band is a permission to skip, never a promise.
    using kind = kn::gemm_band::kind;
    for (const std::ptrdiff_t off : {0, 2, -1})
        for (std::size_t m : {5u, 13u})
            for (std::size_t k : {7u, 13u}) {
                if (!check_float(form::tn, m, 3, k, false, false, {kind::c_upper, off}) ||
                    !check_float(form::nn, m, 3, k, false, false, {kind::k_to_col, off}) ||
                    !check_float(form::nt, m, 3, k, false, false, {kind::k_from_col, off}))
                    return false;
                cases += 3;
            }
    board::print("float products ok, cases", cases);
    return true;
}

// gemm_q8a8<M, K> of the backend against the scalar layer's, to the bit.
template <std::size_t M, std::size_t K>
bool check_q8a8() {
    alignas(4) static std::int8_t Q[M * K];
    static float s[M], Bq[K * 2], C1[M * 2], C2[M * 2], b[M], r[M * 2];
    static std::int8_t scratch[K];
    for (auto& q : Q)
        q = static_cast<std::int8_t>(next() * 127.49f);
    for (auto& v : s)
        v = 0.01f + 0.04f * (next() + 1);
    for (auto& v : Bq)
        v = 3 * next();
    for (auto& v : b)
        v = next();
    for (auto& v : r)
        v = next();
    for (const bool per_tensor : {false, true})
        for (const bool acc : {false, true})
            for (const bool ep : {false, true}) {
                for (std::size_t i = 0; i < M * 2; ++i)
                    C1[i] = C2[i] = next();
                const auto e = ep ? kn::gemm_epilogue<float>{}.with_bias(b).with_residual(r, M)
                                  : kn::gemm_epilogue<float>{};
                kn::detail::gemm_q8a8<M, K>(2, Q, s, Bq, K, C1, M, acc, per_tensor, e);
                kn::scalar::gemm_q8a8(M, 2, K, Q, K, s, Bq, K, C2, M, acc, per_tensor, scratch, e);
                for (std::size_t i = 0; i < M * 2; ++i)
                    if (C1[i] != C2[i]) {
                        board::print("FAIL q8a8 M", M, "K", K, "entry", i, "got", C1[i], "scalar",
                                     C2[i]);
                        return false;
                    }
            }
    // W_2·GELU(H) on H's codes: columns of every exponent in the tables' range and past it, a
    // NaN (code 0) and a huge entry (saturated) in the second column.
    for (float range = 0.1f; range < 2000.0f; range *= 3.0f)
        for (const bool per_tensor : {false, true})
            for (const bool ep : {false, true}) {
                for (std::size_t p = 0; p < K * 2; ++p)
                    Bq[p] = range * next();
                if (range > 1000.0f)
                    Bq[K] = __builtin_nanf(""), Bq[2 * K - 1] = 1e30f;
                const auto e = ep ? kn::gemm_epilogue<float>{}.with_bias(b).with_residual(r, M)
                                  : kn::gemm_epilogue<float>{};
                kn::detail::gemm_q8a8_gelu<M, K>(2, Q, s, Bq, K, C1, M, per_tensor, e);
                kn::scalar::gemm_q8a8_gelu(M, 2, K, Q, K, s, Bq, K, C2, M, per_tensor, scratch, e);
                for (std::size_t i = 0; i < M * 2; ++i)
                    if (C1[i] != C2[i]) {
                        board::print("FAIL q8a8_gelu M", M, "K", K, "entry", i, "got", C1[i],
                                     "scalar", C2[i]);
                        return false;
                    }
            }
    return true;
}

// The int8 attention's integer parts (kernels/scalar/q8.hpp's attend_q8 operations): the
// backend's codes, Kᵀq and V·β sums equal the scalar layer's for every count of positions.
template <std::size_t Dattn, std::size_t LdK, std::size_t Dmid, std::size_t LdV>
bool check_attention_sums() {
#if TYPEFORMER_CORTEXM
#if TYPEFORMER_HELIUM
    using Device = kn::helium::q8_attention_ops<Dattn, LdK, Dmid, LdV>;
#else
    using Device = kn::cortexm::q8_attention_ops<Dattn, LdK, Dmid, LdV>;
#endif
    using Scalar = kn::scalar::q8_attention_ops<Dattn, LdK, Dmid, LdV>;
    constexpr std::size_t l = LdV;
    alignas(4) static std::int8_t K[LdK * l], Vt[Dmid * LdV];
    static float q[Dattn], beta[l];
    alignas(8) static typename Device::code dcodes[l + 8];
    static typename Scalar::code scodes[l + 8];
    static std::int32_t dsums[l], ssums[l];
    for (auto& v : K)
        v = static_cast<std::int8_t>(next() * 127.49f);
    for (auto& v : Vt)
        v = static_cast<std::int8_t>(next() * 127.49f);
    for (auto& v : q)
        v = next();
    for (std::size_t n = 1; n <= l; ++n) {
        for (auto& v : beta)
            v = (next() + 1) * 0.5f;
        if (Device::quantize(Dattn, q, dcodes) != Scalar::quantize(Dattn, q, scodes))
            return board::print("FAIL attention: q's scale"), false;
        Device::scores(n, K, dcodes, dsums);
        Scalar::scores(n, K, scodes, ssums);
        for (std::size_t u = 0; u < n; ++u)
            if (dsums[u] != ssums[u])
                return board::print("FAIL attention scores d_attn", Dattn, "n", n, "u", u), false;
        if (Device::quantize(n, beta, dcodes) != Scalar::quantize(n, beta, scodes))
            return board::print("FAIL attention: the weights' scale n", n), false;
        Device::mix(n, Vt, dcodes, dsums);
        Scalar::mix(n, Vt, scodes, ssums);
        for (std::size_t i = 0; i < Dmid; ++i)
            if (dsums[i] != ssums[i])
                return board::print("FAIL attention mix d_mid", Dmid, "n", n, "i", i), false;
    }
#endif
    return true;
}

// The training step's kernels the layer selects (kernels/cortexm/gelu_backward.hpp,
// cross_entropy.hpp: the layer's erf and exp) against the scalar layer's (newlib's erff, expf),
// per entry within 1e-6·(|dX₀| + |dY|·(1 + |x|)), the losses within 2e-6·(1 + Σ|terms|), for
// 1…67 rows around the vocabularies and widths the firmware trains (64, d_mlp 64), padded.
bool near(float a, float b) {
    const float d = a - b, tol = 1e-6f * (1 + (b < 0 ? -b : b));
    return d <= tol && -d <= tol;
}

bool check_training() {
    constexpr std::size_t max_r = 67, ld = max_r + 2, n = 3;
    static float X[ld * n], dY[ld * n], dA[ld * n], dB[ld * n];
    const typeformer::token targets[n] = {0, typeformer::no_target, 5};
    std::size_t cases = 0;
    for (std::size_t rows : {1u, 2u, 3u, 5u, 8u, 16u, 17u, 31u, 48u, 63u, 64u, 67u}) {
        for (std::size_t i = 0; i < ld * n; ++i) {
            X[i] = 6 * next(), dY[i] = next(), dA[i] = dB[i] = i % ld < rows ? next() : sentinel;
        }
        kn::backend::gelu_backward(rows, n, X, ld, dY, ld, dA, ld);
        kn::scalar::gelu_backward(rows, n, X, ld, dY, ld, dB, ld);
        for (std::size_t i = 0; i < ld * n; ++i) {
            const float x = X[i] < 0 ? -X[i] : X[i], g = dY[i] < 0 ? -dY[i] : dY[i];
            const float tol = 1e-6f * ((dB[i] < 0 ? -dB[i] : dB[i]) + g * (1 + x) + 1);
            if (!(i % ld < rows ? (dA[i] - dB[i] <= tol && dB[i] - dA[i] <= tol)
                                : dA[i] == sentinel))
                return board::print("FAIL gelu_backward rows", rows, "entry", i, "got", dA[i],
                                    "scalar", dB[i]),
                       false;
        }
        // logits in [-6, 6) (X), targets 0 and 5 (5 only where rows > 5), one column untargeted
        const typeformer::token t3[n] = {targets[0], targets[1], rows > 5 ? targets[2] : 0};
        const float lossA = kn::backend::cross_entropy(rows, n, X, ld, t3),
                    lossB = kn::scalar::cross_entropy(rows, n, X, ld, t3);
        for (std::size_t i = 0; i < ld * n; ++i)
            dA[i] = dB[i] = i % ld < rows ? dY[i] : sentinel;
        const float lossA2 = kn::backend::cross_entropy_backward(rows, n, X, ld, t3, 0.5f, dA, ld),
                    lossB2 = kn::scalar::cross_entropy_backward(rows, n, X, ld, t3, 0.5f, dB, ld);
        const float ltol = 2e-6f * (1 + 2 * 12 + (lossB < 0 ? -lossB : lossB));
        if (!(lossA - lossB <= ltol && lossB - lossA <= ltol) ||
            !(lossA2 - lossB2 <= ltol && lossB2 - lossA2 <= ltol))
            return board::print("FAIL cross_entropy rows", rows, "loss", lossA, lossA2, "scalar",
                                lossB, lossB2),
                   false;
        for (std::size_t i = 0; i < ld * n; ++i) {
            const float d = dA[i] - dB[i];
            if (!(i % ld < rows ? (d <= 1e-6f && -d <= 1e-6f) : dA[i] == sentinel))
                return board::print("FAIL cross_entropy_backward rows", rows, "entry", i, "got",
                                    dA[i], "scalar", dB[i]),
                       false;
        }
        cases += 2;
    }
    // Adam, each form: the same float operations in the same order, √ correctly rounded either
    // way (VSQRT, sqrtf); GCC contracts a multiply-add into a VFMA in one loop and not the other
    // (seen in the L2 form), so per entry within 1e-6·(1 + |scalar|)
    for (unsigned form = 0; form < 4; ++form) {
        kn::adam_coefficients<float> c{0.9f,  0.1f,   0.999f, 0.001f, 0.3f,
                                       1e-8f, -0.01f, 0.01f,  0.9999f};
        c.decoupled = form & 1, c.l2 = form & 2, c.grad_scale = 0.5f;
        for (std::size_t i = 0; i < ld * n; ++i)
            dA[i] = dB[i] = X[i], dY[i] = dY[i] * dY[i];  // θ (twice), v ≥ 0
        static float mA[ld * n], mB[ld * n], vB[ld * n];
        for (std::size_t i = 0; i < ld * n; ++i)
            mA[i] = mB[i] = next(), vB[i] = dY[i];
        kn::backend::adam(ld * n, c, dA, X, mA, dY);
        kn::scalar::adam(ld * n, c, dB, X, mB, vB);
        for (std::size_t i = 0; i < ld * n; ++i)
            if (!near(dA[i], dB[i]) || !near(mA[i], mB[i]) || !near(dY[i], vB[i]))
                return board::print("FAIL adam form", form, "entry", i, "got", dA[i], "scalar",
                                    dB[i]),
                       false;
        ++cases;
    }
    board::print("training kernels ok, cases", cases);
    return true;
}

bool check_int8() {
    const bool ok = check_q8a8<1, 8>() && check_q8a8<4, 8>() && check_q8a8<7, 16>() &&
                    check_q8a8<13, 48>() && check_q8a8<48, 48>() && check_q8a8<8, 192>() &&
                    check_q8a8<5, 336>() && check_q8a8<6, 344>() && check_q8a8<9, 12>() &&
                    check_q8a8<3, 6>() && check_q8a8<64, 128>() &&
                    check_attention_sums<12, 48, 12, 32>() &&
                    check_attention_sums<16, 32, 16, 32>() && check_attention_sums<8, 16, 5, 40>();
    if (ok)
        board::print("int8 products ok");
    return ok;
}

}  // namespace

int main() {
    return check_floats() && check_training() && check_int8() ? 0 : 1;
}
