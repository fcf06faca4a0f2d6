// The ThreadSanitizer pass's control (.ci/test): a data race between OpenMP threads, which TSan
// with LLVM's libomp and its Archer tool must report. If it does not, the pass could not fail.
#include <cstdio>

int main() {
    long sum = 0;
#pragma omp parallel for num_threads(2)
    for (int i = 0; i < 100000; ++i)
        sum += i;  // the race
    std::printf("%ld\n", sum);
}
