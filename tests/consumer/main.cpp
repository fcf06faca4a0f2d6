// Compiles and links a program against typeformer::typeformer, the way a downstream user does.
#include <typeformer/typeformer.hpp>

static_assert(true, "typeformer consumer");

int main() {
    return 0;
}
