// tt_sim_host.hpp — the few host runtime calls kernel files commonly contain
// (cudaMalloc, hipMemcpy, ...), so that such files compile in a harness.
// Memory comes from tt_sim_alloc (guarded device buffers); copies are
// memcpy (host and device share memory here).  Kernel launches with <<<>>>
// are not C++ and must be replaced by tt_sim::launch in the harness.
#ifndef TT_SIM_HOST_HPP
#define TT_SIM_HOST_HPP

enum tt_sim_rt_error { tt_sim_rt_success = 0, tt_sim_rt_error_memory = 2, tt_sim_rt_error_value = 1 };
enum tt_sim_rt_copy_kind { tt_sim_rt_h2h = 0, tt_sim_rt_h2d = 1, tt_sim_rt_d2h = 2, tt_sim_rt_d2d = 3, tt_sim_rt_default = 4 };
namespace tt_sim {
inline tt_sim_rt_error rt_malloc(void **p, size_t n)
{
    *p = tt_sim_alloc(n);
    return *p ? tt_sim_rt_success : tt_sim_rt_error_memory;
}
template <class T> inline tt_sim_rt_error rt_malloc(T **p, size_t n) { return rt_malloc(reinterpret_cast<void **>(p), n); }
inline tt_sim_rt_error rt_free(void *p) { tt_sim_free(p); return tt_sim_rt_success; }
inline tt_sim_rt_error rt_memcpy(void *d, const void *s, size_t n, int = 0) { std::memmove(d, s, n); return tt_sim_rt_success; }
inline tt_sim_rt_error rt_memset(void *d, int v, size_t n) { std::memset(d, v, n); return tt_sim_rt_success; }
inline tt_sim_rt_error rt_ok() { return tt_sim_rt_success; }
inline const char *rt_error_string(int e) { return e == 0 ? "no error" : "tt_sim runtime error"; }
template <class T> inline tt_sim_rt_error rt_to_symbol(T &sym, const void *src, size_t n, size_t off = 0, int = 0)
{
    std::memcpy(reinterpret_cast<char *>(&sym) + off, src, n);
    return tt_sim_rt_success;
}
template <class T> inline tt_sim_rt_error rt_from_symbol(void *dst, const T &sym, size_t n, size_t off = 0, int = 0)
{
    std::memcpy(dst, reinterpret_cast<const char *>(&sym) + off, n);
    return tt_sim_rt_success;
}
} // namespace tt_sim

#if defined(TT_SIM_DIALECT_CUDA)
typedef tt_sim_rt_error cudaError_t;
typedef int cudaStream_t;
#define cudaSuccess tt_sim_rt_success
#define cudaMemcpyHostToHost tt_sim_rt_h2h
#define cudaMemcpyHostToDevice tt_sim_rt_h2d
#define cudaMemcpyDeviceToHost tt_sim_rt_d2h
#define cudaMemcpyDeviceToDevice tt_sim_rt_d2d
#define cudaMemcpyDefault tt_sim_rt_default
#define cudaMalloc(p, n) ::tt_sim::rt_malloc((p), (n))
#define cudaFree(p) ::tt_sim::rt_free(p)
#define cudaMemcpy(d, s, n, k) ::tt_sim::rt_memcpy((d), (s), (n), (k))
#define cudaMemset(d, v, n) ::tt_sim::rt_memset((d), (v), (n))
#define cudaMemcpyToSymbol(sym, ...) ::tt_sim::rt_to_symbol(sym, __VA_ARGS__)
#define cudaMemcpyFromSymbol(dst, sym, ...) ::tt_sim::rt_from_symbol(dst, sym, __VA_ARGS__)
#define cudaDeviceSynchronize() ::tt_sim::rt_ok()
#define cudaGetLastError() ::tt_sim::rt_ok()
#define cudaPeekAtLastError() ::tt_sim::rt_ok()
#define cudaGetErrorString(e) ::tt_sim::rt_error_string(e)
#else
typedef tt_sim_rt_error hipError_t;
typedef int hipStream_t;
#define hipSuccess tt_sim_rt_success
#define hipMemcpyHostToHost tt_sim_rt_h2h
#define hipMemcpyHostToDevice tt_sim_rt_h2d
#define hipMemcpyDeviceToHost tt_sim_rt_d2h
#define hipMemcpyDeviceToDevice tt_sim_rt_d2d
#define hipMemcpyDefault tt_sim_rt_default
#define hipMalloc(p, n) ::tt_sim::rt_malloc((p), (n))
#define hipFree(p) ::tt_sim::rt_free(p)
#define hipMemcpy(d, s, n, k) ::tt_sim::rt_memcpy((d), (s), (n), (k))
#define hipMemset(d, v, n) ::tt_sim::rt_memset((d), (v), (n))
#define hipMemcpyToSymbol(sym, ...) ::tt_sim::rt_to_symbol(sym, __VA_ARGS__)
#define hipMemcpyFromSymbol(dst, sym, ...) ::tt_sim::rt_from_symbol(dst, sym, __VA_ARGS__)
#define hipDeviceSynchronize() ::tt_sim::rt_ok()
#define hipGetLastError() ::tt_sim::rt_ok()
#define hipPeekAtLastError() ::tt_sim::rt_ok()
#define hipGetErrorString(e) ::tt_sim::rt_error_string(e)
#define HIP_SYMBOL(x) x
#endif

#endif
