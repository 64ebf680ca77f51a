// sim_bench.cpp — micro-benchmarks of the SIMT CPU executor (run by bench/sim).
// Each figure is printed beside a native serial C++ baseline measured in the
// same run.  The kernels are bench/micro.hip and bench/reduce.hip after
// tt_xf_prepare_source, as `tiletrans check` runs them (region kernels,
// coroutine kernels, fused shuffle chains); the reduction also runs as
// coroutines (cfg.regions = 0), on fibers (cfg.coroutines = 0), and
// written here in the prepared form without chains (one collective per
// shuffle, fibers).
#define TT_SIM_WARP 64
#include "tt_sim_hip.h"

#include <chrono>
#include <cstring>
#include <vector>

static double now_ms()
{
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

__global__ void reduce(const float *in, float *out, int n)
{
    TT_SIM_SHARED(partial, 0, ([1024 / 64]), float);
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? in[i] : 0.0f;
    for (int o = warpSize / 2; o > 0; o /= 2)
        v += __shfl_down(v, o);
    int lane = threadIdx.x % warpSize, w = threadIdx.x / warpSize;
    if (lane == 0)
        partial[w] = v;
    __syncthreads();
    if (w == 0) {
        v = lane < blockDim.x / warpSize ? partial[lane] : 0.0f;
        for (int o = warpSize / 2; o > 0; o /= 2)
            v += __shfl_down(v, o);
        if (lane == 0)
            atomicAdd(out, v);
    }
}

// bench/micro.hip and bench/reduce.hip after tt_xf_prepare_source (made by bench/sim)
#include "micro.prep.hip"
#include "reduce.prep.hip"

template <class F> static double best_of(int reps, F f)
{
    double best = 1e30;
    for (int r = 0; r < reps; r++) {
        double t0 = now_ms();
        f();
        best = std::min(best, now_ms() - t0);
    }
    return best;
}

// HIP-CPU's figure for a part (bench/sim_hipcpu.cpp, same units), from the
// file named by TT_SIM_BENCH_HIPCPU ("<part> <value>" lines); 0: none.
static double hipcpu_figure(const char *part)
{
    const char *path = getenv("TT_SIM_BENCH_HIPCPU");
    FILE *f = path && *path ? fopen(path, "r") : nullptr;
    if (!f)
        return 0;
    char name[64];
    double v, found = 0;
    while (fscanf(f, "%63s %lf", name, &v) == 2)
        if (strcmp(name, part) == 0)
            found = v;
    fclose(f);
    return found;
}

static void row(const char *part, const char *what, double sim, double native, const char *unit)
{
    printf("%-44s %10.3f %-3s native %10.4f ratio %6.1fx", what, sim, unit, native, sim / native);
    if (double h = hipcpu_figure(part))
        printf("  HIP-CPU %10.3f ratio %6.2fx", h, sim / h);
    printf("\n");
}

int main(int argc, char **argv)
{
    int threads = argc > 1 ? atoi(argv[1]) : 0;
    // optional second argument: run only one part ("barrier", "shuffle",
    // "vadd", "reduce", "matmul", "softmax"), e.g. under valgrind --tool=callgrind
    const char *only = argc > 2 ? argv[2] : "";
    auto want = [&](const char *part) { return !*only || strcmp(only, part) == 0; };
    tt_sim_config cfg;
    tt_sim_config_init(&cfg);
    cfg.warp = 64;
    cfg.threads = threads;
    cfg.block.x = 256;
    cfg.regions = 1; // as `tiletrans check` runs kernels (it falls back when a launch needs to)
    volatile float sink = 0;
    printf("tt_sim bench: warp 64, 256-thread blocks, %d OS thread(s) (0 = all cores); default "
           "detection settings unless noted\n", threads);

    // 1. barriers
    int *iout = (int *)tt_sim_alloc(4);
    const int nb = 64, iters = 200;
    cfg.grid.x = nb;
    double t = 0, tn = 0;
    double per = 1e6 / ((double)nb * 256 * iters);
    if (want("barrier")) {
    // every part reports its best of several runs (the VM's load varies):
    // 5 of the ~10 ms micro-benchmarks, 10 of the ~1 ms vector add, 3 of the
    // ~50 ms reduction; the native baselines the same
    t = best_of(5, [&] { TT_SIM_LAUNCH(barriers, cfg, iout, iters); });
    std::vector<int> acc(256);
    tn = best_of(5, [&] {
        for (int b = 0; b < nb; b++)
            for (int i = 0; i < iters; i++)
                for (int x = 0; x < 256; x++)
                    acc[x] += i;
        sink = sink + acc[3];
    });
    row("barrier", "__syncthreads: ns per thread per barrier", t * per, tn * per, "ns");
    }

    // 2. shuffles
    float *fout = (float *)tt_sim_alloc(4);
    if (want("shuffle")) {
    t = best_of(5, [&] { TT_SIM_LAUNCH(shuffles, cfg, fout, iters); });
    std::vector<float> v(256), w(256);
    tn = best_of(5, [&] {
        for (int b = 0; b < nb; b++) {
            for (int x = 0; x < 256; x++)
                v[x] = x;
            for (int i = 0; i < iters; i++) {
                for (int x = 0; x < 256; x++)
                    w[x] = v[x] + v[(x & ~63) | ((x & 63) ^ (i & 63))];
                v.swap(w);
            }
        }
        sink = sink + v[5];
    });
    row("shuffle", "__shfl_xor: ns per lane per shuffle", t * per, tn * per, "ns");
    }

    // 3. barrier-free kernel
    const int n = 1 << 20;
    float *a = (float *)tt_sim_alloc(n * 4), *b = (float *)tt_sim_alloc(n * 4), *c = (float *)tt_sim_alloc(n * 4);
    for (int i = 0; i < n; i++) {
        a[i] = i;
        b[i] = 2 * i;
    }
    cfg.grid.x = n / 256;
    if (want("vadd")) {
    t = best_of(10, [&] { TT_SIM_LAUNCH(vadd, cfg, a, b, c, n); });
    tn = best_of(10, [&] {
        for (int i = 0; i < n; i++)
            c[i] = a[i] + b[i];
        sink = sink + c[7];
    });
    row("vadd", "vector add (1M): ns per thread", t * 1e6 / n, tn * 1e6 / n, "ns");
    }

    // 4. 1M-element shuffle reduction
    float *out = (float *)tt_sim_alloc(4);
    for (int i = 0; i < n; i++)
        a[i] = (float)(i % 5);
    tt_sim_result r;
    if (want("reduce")) {
    float expect = 0;
    for (int i = 0; i < n; i++)
        expect += (float)(i % 5); // exact: every partial sum is an integer < 2^24
    tn = best_of(3, [&] {
        float s = 0;
        for (int i = 0; i < n; i++)
            s += a[i];
        sink = sink + s;
    });
    auto reduction = [&](const char *what, auto launch) {
        t = best_of(3, [&] {
            *out = 0;
            r = launch();
        });
        if (r.status != TT_SIM_OK || *out != expect)
            printf("reduce failed: %s (sum %.1f, expected %.1f)\n", r.message, *out, expect);
        row("reduce", what, t, tn, "ms");
    };
    reduction("1M shuffle reduction: ms", [&] { return TT_SIM_LAUNCH(reduce_prepared, cfg, a, out, n); });
    // the same with the shared-memory race check off (cfg.race_check = 0);
    // everything else runs with the default detection settings
    tt_sim_config fast = cfg;
    fast.race_check = 0;
    reduction("1M shuffle reduction, race check off: ms",
              [&] { return TT_SIM_LAUNCH(reduce_prepared, fast, a, out, n); });
    tt_sim_config co = cfg;
    co.regions = 0;
    reduction("1M shuffle reduction, coroutines: ms",
              [&] { return TT_SIM_LAUNCH(reduce_prepared, co, a, out, n); });
    tt_sim_config fibers = cfg;
    fibers.coroutines = 0;
    reduction("1M shuffle reduction, fibers: ms",
              [&] { return TT_SIM_LAUNCH(reduce_prepared, fibers, a, out, n); });
    reduction("1M shuffle reduction, fibers, no chains: ms", [&] { return TT_SIM_LAUNCH(reduce, cfg, a, out, n); });
    }
    // 5. tiled matmul through shared memory (race check on, as in `tiletrans check`)
    if (want("matmul")) {
    const int mn = 256;
    float *A = (float *)tt_sim_alloc(mn * mn * 4), *B = (float *)tt_sim_alloc(mn * mn * 4),
          *C = (float *)tt_sim_alloc(mn * mn * 4);
    for (int i = 0; i < mn * mn; i++) {
        A[i] = (float)(i % 7) - 3;
        B[i] = (float)(i % 5) - 2;
    }
    tt_sim_config mc = cfg;
    mc.grid.x = (mn / 16) * (mn / 16);
    t = best_of(3, [&] { r = TT_SIM_LAUNCH(tiled_matmul, mc, A, B, C, mn); });
    std::vector<float> Cn(mn * mn);
    tn = best_of(3, [&] {
        for (int i = 0; i < mn; i++)
            for (int j = 0; j < mn; j++) {
                float acc = 0;
                for (int k = 0; k < mn; k++)
                    acc += A[i * mn + k] * B[k * mn + j];
                Cn[i * mn + j] = acc;
            }
        sink = sink + Cn[9];
    });
    if (r.status != TT_SIM_OK || memcmp(C, Cn.data(), sizeof(float) * mn * mn) != 0)
        printf("tiled matmul failed: %s\n", r.status != TT_SIM_OK ? r.message : "results differ");
    row("matmul", "tiled matmul 256^3 (16x16 shared tiles): ms", t, tn, "ms");
    tt_sim_config mf = mc;
    mf.race_check = 0;
    t = best_of(3, [&] { TT_SIM_LAUNCH(tiled_matmul, mf, A, B, C, mn); });
    row("matmul", "tiled matmul 256^3, race check off: ms", t, tn, "ms");
    }

    // 6. warp-per-row softmax (wavefront chains for max and sum)
    if (want("softmax")) {
    const int rows = 2048, ncols = 1024;
    float *X = (float *)tt_sim_alloc((size_t)rows * ncols * 4), *Y = (float *)tt_sim_alloc((size_t)rows * ncols * 4);
    for (size_t i = 0; i < (size_t)rows * ncols; i++)
        X[i] = (float)(i % 13) * 0.25f - 1.5f;
    tt_sim_config sc = cfg;
    sc.grid.x = rows / (256 / 64);
    t = best_of(3, [&] { r = TT_SIM_LAUNCH(softmax_rows, sc, X, Y, ncols); });
    if (r.status != TT_SIM_OK)
        printf("softmax failed: %s\n", r.message);
    std::vector<float> Yn((size_t)rows * ncols);
    tn = best_of(3, [&] {
        for (int i = 0; i < rows; i++) {
            const float *xr = X + (size_t)i * ncols;
            float m = -INFINITY, s = 0;
            for (int c = 0; c < ncols; c++)
                m = fmaxf(m, xr[c]);
            for (int c = 0; c < ncols; c++)
                s += expf(xr[c] - m);
            for (int c = 0; c < ncols; c++)
                Yn[(size_t)i * ncols + c] = expf(xr[c] - m) / s;
        }
        sink = sink + Yn[11];
    });
    row("softmax", "warp-per-row softmax 2048x1024: ms", t, tn, "ms");
    }
    return 0;
}
