// sim_hipcpu.cpp — the kernels of bench/sim (bench/micro.hip, bench/reduce.hip,
// as written, unprepared) built with HIP-CPU (github: ROCm/HIP-CPU, header
// only, on TBB) instead of tt_sim: the baseline the issue compares the
// executor against.  bench/sim builds it when given a HIP-CPU checkout and
// runs it right before sim_bench with the same thread count; it prints one
// line per part, "<part> <value>", in sim_bench's units, and sim_bench
// prints each of its rows' ratio against them.  Arguments: OS threads (0 =
// all cores; HIP-CPU runs blocks through std::execution::par_unseq, which
// TBB's global_control limits) and the one part to run (barrier, shuffle,
// vadd, reduce, matmul, softmax).  One part per process: in one process, a
// kernel launched after others gives wrong results on HIP-CPU (the tiled
// matmul's C differs from the serial product after the barrier and shuffle
// kernels ran; HIP-CPU commit e112c93), so bench/sim runs each part alone,
// and every part checks its result.
#include <hip/hip_runtime.h>
#include <tbb/global_control.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

#include "micro.hip"
#include "reduce.hip"

static double now_ms()
{
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// best of reps, as sim_bench measures
template <class F> static double best_of(int reps, F f)
{
    double best = 1e30;
    for (int r = 0; r < reps; r++) {
        double t0 = now_ms();
        f();
        (void)hipDeviceSynchronize();
        best = std::min(best, now_ms() - t0);
    }
    return best;
}

template <class T> static T *dev(size_t n)
{
    T *p = nullptr;
    if (hipMalloc((void **)&p, n * sizeof(T)) != hipSuccess) {
        fprintf(stderr, "sim_hipcpu: hipMalloc failed\n");
        exit(1);
    }
    memset(p, 0, n * sizeof(T));
    return p;
}

int main(int argc, char **argv)
{
    int threads = argc > 1 ? atoi(argv[1]) : 0;
    const char *only = argc > 2 ? argv[2] : "";
    auto want = [&](const char *part) { return !*only || strcmp(only, part) == 0; };
    int bad = 0;
    std::unique_ptr<tbb::global_control> limit;
    if (threads > 0)
        limit = std::make_unique<tbb::global_control>(tbb::global_control::max_allowed_parallelism,
                                                      (size_t)threads);
    const int nb = 64, iters = 200;
    double per = 1e6 / ((double)nb * 256 * iters);
    int *iout = dev<int>(1);
    float *fout = dev<float>(1);
    double t;
    if (want("barrier")) {
        t = best_of(5, [&] { hipLaunchKernelGGL(barriers, dim3(nb), dim3(256), 0, 0, iout, iters); });
        printf("barrier %.4f\n", t * per);
    }
    if (want("shuffle")) {
        t = best_of(5, [&] { hipLaunchKernelGGL(shuffles, dim3(nb), dim3(256), 0, 0, fout, iters); });
        printf("shuffle %.4f\n", t * per);
    }

    const int n = 1 << 20;
    float *a = dev<float>(n), *b = dev<float>(n), *c = dev<float>(n);
    for (int i = 0; i < n; i++) {
        a[i] = (float)i;
        b[i] = 2.0f * (float)i;
    }
    if (want("vadd")) {
        t = best_of(10, [&] { hipLaunchKernelGGL(vadd, dim3(n / 256), dim3(256), 0, 0, a, b, c, n); });
        for (int i = 0; i < n; i++)
            bad |= c[i] != a[i] + b[i];
        printf("vadd %.4f\n", t * 1e6 / n);
    }

    float expect = 0;
    for (int i = 0; i < n; i++) {
        a[i] = (float)(i % 5);
        expect += a[i];
    }
    float *out = dev<float>(1);
    if (want("reduce")) {
        t = best_of(3, [&] {
            *out = 0;
            hipLaunchKernelGGL(reduce_prepared, dim3(n / 256), dim3(256), 0, 0, a, out, n);
        });
        if (*out != expect) {
            fprintf(stderr, "sim_hipcpu: reduce gave %.1f, expected %.1f\n", *out, expect);
            bad = 1;
        }
        printf("reduce %.4f\n", t);
    }

    const int mn = 256;
    float *A = dev<float>(mn * mn), *B = dev<float>(mn * mn), *C = dev<float>(mn * mn);
    for (int i = 0; i < mn * mn; i++) {
        A[i] = (float)(i % 7) - 3;
        B[i] = (float)(i % 5) - 2;
    }
    if (want("matmul")) {
        t = best_of(3, [&] {
            hipLaunchKernelGGL(tiled_matmul, dim3((mn / 16) * (mn / 16)), dim3(256), 0, 0, A, B, C, mn);
        });
        int wrong = 0;
        for (int i = 0; i < mn && !wrong; i++)
            for (int j = 0; j < mn && !wrong; j++) {
                float acc = 0;
                for (int k = 0; k < mn; k++)
                    acc += A[i * mn + k] * B[k * mn + j];
                if (C[i * mn + j] != acc) {
                    fprintf(stderr, "sim_hipcpu: tiled matmul C[%d][%d] = %g, expected %g\n", i, j,
                            C[i * mn + j], acc);
                    wrong = bad = 1;
                }
            }
        printf("matmul %.4f\n", t);
    }

    const int rows = 2048, ncols = 1024;
    float *X = dev<float>((size_t)rows * ncols), *Y = dev<float>((size_t)rows * ncols);
    for (size_t i = 0; i < (size_t)rows * ncols; i++)
        X[i] = (float)(i % 13) * 0.25f - 1.5f;
    if (want("softmax")) {
        t = best_of(3, [&] {
            hipLaunchKernelGGL(softmax_rows, dim3(rows / (256 / 64)), dim3(256), 0, 0, X, Y, ncols);
        });
        double s = 0;
        for (int c = 0; c < ncols; c++)
            s += Y[c];
        if (std::fabs(s - 1.0) > 1e-3) {
            fprintf(stderr, "sim_hipcpu: softmax row 0 sums to %g\n", s);
            bad = 1;
        }
        printf("softmax %.4f\n", t);
    }
    return bad;
}
