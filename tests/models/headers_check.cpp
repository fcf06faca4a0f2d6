// The models and the losses must build for a microcontroller: no exceptions, no RTTI, no heap
// (this file is compiled with -fno-exceptions -fno-rtti; the try_ forms return a status).
#include <typeformer/typeformer.hpp>

namespace tf = typeformer;

namespace {
struct cfg {
    static constexpr std::size_t N_V = 16, l_max = 8, L = 2, H = 2, d_e = 8, d_mlp = 16, d_attn = 4,
                                 d_mid = 4, d_f = 6;
    static constexpr auto norm = tf::norm_kind::rms_norm;
};
using D = tf::DTransformer<float, cfg>;
using E = tf::ETransformer<float, cfg>;
using ED = tf::EDTransformer<float, cfg>;

// Static objects, as on a device: nothing on the heap.
D d_model, d_grads;
tf::training_workspace<D> d_ws;
tf::inference_workspace<E> e_ws;
E e_model, e_grads;
tf::training_workspace<E> e_train;
ED ed_model, ed_grads;
tf::training_workspace<ED> ed_ws;

static_assert(tf::footprint<D>.inference_total < 64 * 1024, "fits a small device");
}  // namespace

int typeformer_models_headers_check(const tf::token* x, std::size_t n) {
    const std::span<const tf::token> s(x, n);
    float loss = 0;
    int bad = 0;
    bad += tf::try_loss_and_grad(d_model, s, d_grads, d_ws, loss) != tf::status::ok;
    bad += tf::try_forward(e_model, s, e_ws) != tf::status::ok;
    bad += tf::try_loss_and_grad(e_model, s, s, e_grads, e_train, loss) != tf::status::ok;
    bad += tf::try_loss_and_grad(ed_model, s, s, ed_grads, ed_ws, loss) != tf::status::ok;
    tf::sgd_step(d_model, d_grads, 0.1f);
    return bad + static_cast<int>(tf::forward(d_model, s, d_ws)(0, 0));
}
