/* tiletrans_hip_compat.h — CUDA pieces that HIP 5.2 lacks, for ports written by `tiletrans
 * rewrite --target hip`. It ships with the port: `rewrite --out`/`--in-place` writes it next
 * to every rewritten file that includes it. The rules under rules/hip/misc/hip-compat-*.yaml
 * rename the CUDA names to the ones below; each is explained there.
 *
 * Holds for wave64 (gfx90a, gfx940) and wave32 (gfx1030): every lane count comes from the
 * wavefront (__ballot, __lane_id, warpSize), never from a constant 32.
 *
 *   bf16          __hip_bfloat16 / __hip_bfloat162 (the ROCm 6 names; <hip/hip_bf16.h> is used
 *                 where it exists) with CUDA's cuda_bf16.h conversions and arithmetic.
 *   cg reduce     cooperative_groups::reduce with plus, less, greater, bit_and, bit_or, bit_xor;
 *                 inclusive_scan / exclusive_scan of cooperative_groups/scan.h.
 *   meta groups   tiletrans::meta_group_rank(tile) / meta_group_size(tile) for tiles
 *                 partitioned from the thread block (what tile.meta_group_rank() means there).
 *   bf16 atomics  atomicAdd on __hip_bfloat16 / __hip_bfloat162 (a CAS loop).
 *   group votes   tiletrans::group_ballot(g, p) / group_any(g, p) / group_all(g, p) for a
 *                 coalesced_group or thread_block_tile (HIP 5.2's groups have no ballot, any
 *                 or all): bit r of the ballot is member rank r's vote, as in CUDA, in a
 *                 64-bit mask (a coalesced group spans up to 64 lanes).
 *   cache hints   tiletrans::ldcs, ldcg, ldca, ldlu, ldcv, stcs, stcg, stwb, stwt: plain loads
 *                 and stores (the hints change caching only, never values).
 *   match         tiletrans::match_any_sync(v) / match_all_sync(v, &pred) over the active
 *                 lanes of the wavefront (64-bit masks); tiletrans::logical32::match_any_sync /
 *                 match_all_sync over the caller's 32-lane group (32-bit masks, for functions
 *                 ported as logical-32).
 *   min / max     tiletrans::min(a, b) / max(a, b) of two arithmetic types, as CUDA's
 *                 overloads: integers in their common type (min(int, unsigned) compares as
 *                 unsigned), floating point with fmin/fmax. HIP 5.2 has no min(int, unsigned)
 *                 and picks its double overload.
 *   math consts   CUDART_INF_F, CUDART_PI_F, ... of math_constants.h.
 */
#ifndef TILETRANS_HIP_COMPAT_H
#define TILETRANS_HIP_COMPAT_H

#include <hip/hip_runtime.h>
#include <hip/hip_cooperative_groups.h>
#include <stdint.h>
#include <type_traits>

/* ---- bf16 ------------------------------------------------------------------------------ */
#if __has_include(<hip/hip_bf16.h>)
#include <hip/hip_bf16.h>
#else
#define TILETRANS_BF16_EMULATED 1
#define TT_HD_ __host__ __device__ inline

typedef struct __hip_bfloat16_raw { unsigned short x; } __hip_bfloat16_raw;
typedef struct __hip_bfloat162_raw { unsigned short x, y; } __hip_bfloat162_raw;

namespace tiletrans { namespace bf16_detail {
TT_HD_ unsigned int f2u(float f) { unsigned int u; __builtin_memcpy(&u, &f, 4); return u; }
TT_HD_ float u2f(unsigned int u) { float f; __builtin_memcpy(&f, &u, 4); return f; }
/* Round to nearest, ties to even; NaN stays a (quiet) NaN of the same sign. */
TT_HD_ unsigned short from_float(float f) {
  unsigned int u = f2u(f);
  if ((u & 0x7fffffffu) > 0x7f800000u) return (unsigned short)((u >> 16) | 0x0040u);
  u += 0x7fffu + ((u >> 16) & 1u);
  return (unsigned short)(u >> 16);
}
TT_HD_ float to_float(unsigned short b) { return u2f((unsigned int)b << 16); }
}} // namespace tiletrans::bf16_detail

struct __hip_bfloat16 {
  unsigned short __x;
  __hip_bfloat16() = default;
  TT_HD_ __hip_bfloat16(const __hip_bfloat16_raw &r) : __x(r.x) {}
  TT_HD_ __hip_bfloat16(float f) : __x(tiletrans::bf16_detail::from_float(f)) {}
  TT_HD_ __hip_bfloat16(double d) : __x(tiletrans::bf16_detail::from_float((float)d)) {}
  TT_HD_ __hip_bfloat16(int i) : __x(tiletrans::bf16_detail::from_float((float)i)) {}
  TT_HD_ __hip_bfloat16(unsigned int i) : __x(tiletrans::bf16_detail::from_float((float)i)) {}
  TT_HD_ __hip_bfloat16(long long i) : __x(tiletrans::bf16_detail::from_float((float)i)) {}
  TT_HD_ __hip_bfloat16(unsigned long long i) : __x(tiletrans::bf16_detail::from_float((float)i)) {}
  TT_HD_ __hip_bfloat16(short i) : __x(tiletrans::bf16_detail::from_float((float)i)) {}
  TT_HD_ __hip_bfloat16(unsigned short i) : __x(tiletrans::bf16_detail::from_float((float)i)) {}
  TT_HD_ operator float() const { return tiletrans::bf16_detail::to_float(__x); }
  TT_HD_ operator __hip_bfloat16_raw() const { __hip_bfloat16_raw r; r.x = __x; return r; }
  TT_HD_ __hip_bfloat16 &operator=(float f) { __x = tiletrans::bf16_detail::from_float(f); return *this; }
  TT_HD_ __hip_bfloat16 &operator=(double d) { __x = tiletrans::bf16_detail::from_float((float)d); return *this; }
  TT_HD_ __hip_bfloat16 &operator=(const __hip_bfloat16_raw &r) { __x = r.x; return *this; }
};

struct __hip_bfloat162 {
  __hip_bfloat16 x, y;
  __hip_bfloat162() = default;
  TT_HD_ __hip_bfloat162(__hip_bfloat16 a, __hip_bfloat16 b) : x(a), y(b) {}
  TT_HD_ __hip_bfloat162(const __hip_bfloat162_raw &r) { x.__x = r.x; y.__x = r.y; }
  TT_HD_ operator __hip_bfloat162_raw() const { __hip_bfloat162_raw r; r.x = x.__x; r.y = y.__x; return r; }
};

TT_HD_ __hip_bfloat16 __float2bfloat16(float f) { return __hip_bfloat16(f); }
TT_HD_ __hip_bfloat16 __float2bfloat16_rn(float f) { return __hip_bfloat16(f); }
TT_HD_ __hip_bfloat16 __double2bfloat16(double d) { return __hip_bfloat16(d); }
TT_HD_ __hip_bfloat16 __int2bfloat16_rn(int i) { return __hip_bfloat16(i); }
TT_HD_ __hip_bfloat16 __uint2bfloat16_rn(unsigned int i) { return __hip_bfloat16(i); }
TT_HD_ float __bfloat162float(__hip_bfloat16 b) { return (float)b; }
TT_HD_ int __bfloat162int_rn(__hip_bfloat16 b) { return (int)__builtin_rintf((float)b); }
TT_HD_ int __bfloat162int_rz(__hip_bfloat16 b) { return (int)(float)b; }
TT_HD_ unsigned int __bfloat162uint_rn(__hip_bfloat16 b) { return (unsigned int)__builtin_rintf((float)b); }
TT_HD_ long long __bfloat162ll_rn(__hip_bfloat16 b) { return (long long)__builtin_rintf((float)b); }
TT_HD_ unsigned long long __bfloat162ull_rn(__hip_bfloat16 b) { return (unsigned long long)__builtin_rintf((float)b); }
TT_HD_ unsigned short __bfloat16_as_ushort(__hip_bfloat16 b) { return b.__x; }
TT_HD_ __hip_bfloat16 __ushort_as_bfloat16(unsigned short u) { __hip_bfloat16 b; b.__x = u; return b; }
TT_HD_ short __bfloat16_as_short(__hip_bfloat16 b) { return (short)b.__x; }
TT_HD_ __hip_bfloat16 __short_as_bfloat16(short s) { __hip_bfloat16 b; b.__x = (unsigned short)s; return b; }

TT_HD_ __hip_bfloat162 __halves2bfloat162(__hip_bfloat16 a, __hip_bfloat16 b) { return __hip_bfloat162(a, b); }
TT_HD_ __hip_bfloat162 __bfloat162bfloat162(__hip_bfloat16 a) { return __hip_bfloat162(a, a); }
TT_HD_ __hip_bfloat162 __float2bfloat162_rn(float f) { return __hip_bfloat162(__hip_bfloat16(f), __hip_bfloat16(f)); }
TT_HD_ __hip_bfloat162 __floats2bfloat162_rn(float a, float b) { return __hip_bfloat162(__hip_bfloat16(a), __hip_bfloat16(b)); }
TT_HD_ __hip_bfloat162 __float22bfloat162_rn(float2 f) { return __hip_bfloat162(__hip_bfloat16(f.x), __hip_bfloat16(f.y)); }
TT_HD_ float2 __bfloat1622float2(__hip_bfloat162 b) { return make_float2((float)b.x, (float)b.y); }
TT_HD_ __hip_bfloat16 __low2bfloat16(__hip_bfloat162 b) { return b.x; }
TT_HD_ __hip_bfloat16 __high2bfloat16(__hip_bfloat162 b) { return b.y; }
TT_HD_ float __low2float(__hip_bfloat162 b) { return (float)b.x; }
TT_HD_ float __high2float(__hip_bfloat162 b) { return (float)b.y; }
TT_HD_ __hip_bfloat162 __lows2bfloat162(__hip_bfloat162 a, __hip_bfloat162 b) { return __hip_bfloat162(a.x, b.x); }
TT_HD_ __hip_bfloat162 __highs2bfloat162(__hip_bfloat162 a, __hip_bfloat162 b) { return __hip_bfloat162(a.y, b.y); }

/* Arithmetic rounds once, from float, as CUDA's does on devices without native bf16 math. */
#define TT_BF16_BINOP_(NAME, OP)                                                              \
  TT_HD_ __hip_bfloat16 NAME(__hip_bfloat16 a, __hip_bfloat16 b) { return __hip_bfloat16((float)a OP (float)b); } \
  TT_HD_ __hip_bfloat162 NAME##2(__hip_bfloat162 a, __hip_bfloat162 b) {                      \
    return __hip_bfloat162(NAME(a.x, b.x), NAME(a.y, b.y));                                   \
  }
TT_BF16_BINOP_(__hadd, +)
TT_BF16_BINOP_(__hsub, -)
TT_BF16_BINOP_(__hmul, *)
TT_BF16_BINOP_(__hdiv, /)
#undef TT_BF16_BINOP_
TT_HD_ __hip_bfloat16 __hfma(__hip_bfloat16 a, __hip_bfloat16 b, __hip_bfloat16 c) {
  return __hip_bfloat16(__builtin_fmaf((float)a, (float)b, (float)c));
}
TT_HD_ __hip_bfloat162 __hfma2(__hip_bfloat162 a, __hip_bfloat162 b, __hip_bfloat162 c) {
  return __hip_bfloat162(__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y));
}
TT_HD_ __hip_bfloat16 __hneg(__hip_bfloat16 a) { return __ushort_as_bfloat16(a.__x ^ 0x8000u); }
TT_HD_ __hip_bfloat16 __habs(__hip_bfloat16 a) { return __ushort_as_bfloat16(a.__x & 0x7fffu); }
TT_HD_ __hip_bfloat162 __hneg2(__hip_bfloat162 a) { return __hip_bfloat162(__hneg(a.x), __hneg(a.y)); }
TT_HD_ __hip_bfloat162 __habs2(__hip_bfloat162 a) { return __hip_bfloat162(__habs(a.x), __habs(a.y)); }
TT_HD_ bool __hisnan(__hip_bfloat16 a) { return (a.__x & 0x7fffu) > 0x7f80u; }
/* CUDA's __hmax/__hmin return the other operand when one is NaN. */
TT_HD_ __hip_bfloat16 __hmax(__hip_bfloat16 a, __hip_bfloat16 b) {
  return __hisnan(a) ? b : __hisnan(b) ? a : ((float)a < (float)b ? b : a);
}
TT_HD_ __hip_bfloat16 __hmin(__hip_bfloat16 a, __hip_bfloat16 b) {
  return __hisnan(a) ? b : __hisnan(b) ? a : ((float)b < (float)a ? b : a);
}
TT_HD_ __hip_bfloat162 __hmax2(__hip_bfloat162 a, __hip_bfloat162 b) { return __hip_bfloat162(__hmax(a.x, b.x), __hmax(a.y, b.y)); }
TT_HD_ __hip_bfloat162 __hmin2(__hip_bfloat162 a, __hip_bfloat162 b) { return __hip_bfloat162(__hmin(a.x, b.x), __hmin(a.y, b.y)); }
TT_HD_ bool __heq(__hip_bfloat16 a, __hip_bfloat16 b) { return (float)a == (float)b; }
TT_HD_ bool __hne(__hip_bfloat16 a, __hip_bfloat16 b) { return (float)a != (float)b; }
TT_HD_ bool __hlt(__hip_bfloat16 a, __hip_bfloat16 b) { return (float)a < (float)b; }
TT_HD_ bool __hle(__hip_bfloat16 a, __hip_bfloat16 b) { return (float)a <= (float)b; }
TT_HD_ bool __hgt(__hip_bfloat16 a, __hip_bfloat16 b) { return (float)a > (float)b; }
TT_HD_ bool __hge(__hip_bfloat16 a, __hip_bfloat16 b) { return (float)a >= (float)b; }

#define TT_BF16_OP_(OP)                                                                       \
  TT_HD_ __hip_bfloat16 operator OP(const __hip_bfloat16 &a, const __hip_bfloat16 &b) {       \
    return __hip_bfloat16((float)a OP (float)b);                                              \
  }                                                                                           \
  TT_HD_ __hip_bfloat16 &operator OP##=(__hip_bfloat16 &a, const __hip_bfloat16 &b) {         \
    a = __hip_bfloat16((float)a OP (float)b);                                                 \
    return a;                                                                                 \
  }                                                                                           \
  TT_HD_ __hip_bfloat162 operator OP(const __hip_bfloat162 &a, const __hip_bfloat162 &b) {    \
    return __hip_bfloat162(a.x OP b.x, a.y OP b.y);                                           \
  }
TT_BF16_OP_(+)
TT_BF16_OP_(-)
TT_BF16_OP_(*)
TT_BF16_OP_(/)
#undef TT_BF16_OP_
#define TT_BF16_CMP_(OP)                                                                      \
  TT_HD_ bool operator OP(const __hip_bfloat16 &a, const __hip_bfloat16 &b) { return (float)a OP (float)b; }
TT_BF16_CMP_(==)
TT_BF16_CMP_(!=)
TT_BF16_CMP_(<)
TT_BF16_CMP_(<=)
TT_BF16_CMP_(>)
TT_BF16_CMP_(>=)
#undef TT_BF16_CMP_
TT_HD_ __hip_bfloat16 operator-(const __hip_bfloat16 &a) { return __hneg(a); }
TT_HD_ __hip_bfloat16 operator+(const __hip_bfloat16 &a) { return a; }

/* Warp shuffles of bf16 values move their 16 bits. The names are parenthesised so that a
 * function-like macro of the same name (a CPU executor's, which records the call site)
 * does not expand in the declaration. */
__device__ inline __hip_bfloat16 (__shfl)(__hip_bfloat16 v, int src, int width = warpSize) {
  return __ushort_as_bfloat16((unsigned short)__shfl((int)v.__x, src, width));
}
__device__ inline __hip_bfloat16 (__shfl_xor)(__hip_bfloat16 v, int m, int width = warpSize) {
  return __ushort_as_bfloat16((unsigned short)__shfl_xor((int)v.__x, m, width));
}
__device__ inline __hip_bfloat16 (__shfl_down)(__hip_bfloat16 v, unsigned int d, int width = warpSize) {
  return __ushort_as_bfloat16((unsigned short)__shfl_down((int)v.__x, d, width));
}
__device__ inline __hip_bfloat16 (__shfl_up)(__hip_bfloat16 v, unsigned int d, int width = warpSize) {
  return __ushort_as_bfloat16((unsigned short)__shfl_up((int)v.__x, d, width));
}

/* atomicAdd on bf16 (HIP 5.2 has none): a compare-and-swap loop on the aligned 32-bit word
 * that holds the value, as for any 16-bit atomic on AMD GPUs. Returns the old value. */
__device__ inline __hip_bfloat162 atomicAdd(__hip_bfloat162 *addr, __hip_bfloat162 v) {
  unsigned int *word = reinterpret_cast<unsigned int *>(addr);
  unsigned int old = *word, assumed;
  __hip_bfloat162 cur;
  do {
    assumed = old;
    __builtin_memcpy(&cur, &assumed, 4);
    __hip_bfloat162 sum = cur + v;
    unsigned int next;
    __builtin_memcpy(&next, &sum, 4);
    old = atomicCAS(word, assumed, next);
  } while (assumed != old);
  __builtin_memcpy(&cur, &old, 4);
  return cur;
}
__device__ inline __hip_bfloat16 atomicAdd(__hip_bfloat16 *addr, __hip_bfloat16 v) {
  uintptr_t a = reinterpret_cast<uintptr_t>(addr);
  unsigned int *word = reinterpret_cast<unsigned int *>(a & ~(uintptr_t)3);
  const unsigned int shift = (a & 2) ? 16u : 0u;
  unsigned int old = *word, assumed;
  do {
    assumed = old;
    __hip_bfloat16 sum = __ushort_as_bfloat16((unsigned short)(assumed >> shift)) + v;
    unsigned int next = (assumed & ~(0xffffu << shift)) | ((unsigned int)sum.__x << shift);
    old = atomicCAS(word, assumed, next);
  } while (assumed != old);
  return __ushort_as_bfloat16((unsigned short)(old >> shift));
}
#undef TT_HD_
#endif /* bf16 */

/* ---- group shuffles of any type ----------------------------------------------------------
 * CUDA's group shuffles take any trivially copyable type (llm.c's SumMax struct, a pair);
 * HIP 5.2's take 32- and 64-bit integers and floating point only ("Neither an integer or
 * float type"). The reduce and scans below shuffle other types as 32-bit words. */
namespace tiletrans { namespace shfl_detail {
template <class T> struct native : std::integral_constant<bool, (std::is_integral<T>::value ||
                                                                  std::is_floating_point<T>::value) &&
                                                                     sizeof(T) >= 4> {};
enum kind { DOWN, UP, IDX, XOR };
/* One shuffle of the group per kind: only the one a caller names is instantiated (HIP 5.2's
 * coalesced_group has shfl, shfl_up and shfl_down but no shfl_xor). */
template <kind K> struct op;
template <> struct op<DOWN> { template <class G, class T> __device__ static T of(const G &g, const T &v, unsigned a) { return g.shfl_down(v, a); } };
template <> struct op<UP> { template <class G, class T> __device__ static T of(const G &g, const T &v, unsigned a) { return g.shfl_up(v, a); } };
template <> struct op<IDX> { template <class G, class T> __device__ static T of(const G &g, const T &v, unsigned a) { return g.shfl(v, (int)a); } };
template <> struct op<XOR> { template <class G, class T> __device__ static T of(const G &g, const T &v, unsigned a) { return g.shfl_xor(v, a); } };
template <kind K, class Group, class T> __device__ inline T move(const Group &g, const T &v, unsigned a, std::true_type) {
  return op<K>::of(g, v, a);
}
template <kind K, class Group, class T> __device__ inline T move(const Group &g, const T &v, unsigned a, std::false_type) {
  int w[(sizeof(T) + 3) / 4] = {};
  __builtin_memcpy(w, &v, sizeof(T));
  for (unsigned i = 0; i < sizeof w / sizeof w[0]; ++i) w[i] = op<K>::of(g, w[i], a);
  T out;
  __builtin_memcpy(&out, w, sizeof(T));
  return out;
}
template <class Group, class T> __device__ inline T down(const Group &g, const T &v, unsigned d) { return move<DOWN>(g, v, d, native<T>()); }
template <class Group, class T> __device__ inline T up(const Group &g, const T &v, unsigned d) { return move<UP>(g, v, d, native<T>()); }
template <class Group, class T> __device__ inline T idx(const Group &g, const T &v, unsigned r) { return move<IDX>(g, v, r, native<T>()); }
template <class Group, class T> __device__ inline T xor_(const Group &g, const T &v, unsigned m) { return move<XOR>(g, v, m, native<T>()); }
}} // namespace tiletrans::shfl_detail

/* A group's own shuffles for any type (hip-compat-group-shuffle): `tile.shfl_xor(v, m)` of a
 * uint4 or a struct is `tiletrans::group_shfl_xor(tile, v, m)`; native types take the group's. */
namespace tiletrans {
template <class Group, class T> __device__ inline T group_shfl(const Group &g, const T &v, int src) { return shfl_detail::idx(g, v, (unsigned)src); }
template <class Group, class T> __device__ inline T group_shfl_up(const Group &g, const T &v, unsigned d) { return shfl_detail::up(g, v, d); }
template <class Group, class T> __device__ inline T group_shfl_down(const Group &g, const T &v, unsigned d) { return shfl_detail::down(g, v, d); }
template <class Group, class T> __device__ inline T group_shfl_xor(const Group &g, const T &v, unsigned m) { return shfl_detail::xor_(g, v, m); }
} // namespace tiletrans

/* ---- cooperative_groups/reduce.h -------------------------------------------------------- */
namespace cooperative_groups {
template <class T> struct plus { __host__ __device__ T operator()(const T &a, const T &b) const { return a + b; } };
template <class T> struct less { __host__ __device__ T operator()(const T &a, const T &b) const { return b < a ? b : a; } };
template <class T> struct greater { __host__ __device__ T operator()(const T &a, const T &b) const { return a < b ? b : a; } };
template <class T> struct bit_and { __host__ __device__ T operator()(const T &a, const T &b) const { return a & b; } };
template <class T> struct bit_or { __host__ __device__ T operator()(const T &a, const T &b) const { return a | b; } };
template <class T> struct bit_xor { __host__ __device__ T operator()(const T &a, const T &b) const { return a ^ b; } };

/* Every member of `g` (a thread_block_tile or coalesced_group) gets op over all members'
 * values. A shfl_down tree in rank order works for any group size (a coalesced group need
 * not be a power of two); the result of rank 0 is then broadcast. */
template <class Group, class T, class Op> __device__ inline T reduce(const Group &g, T val, Op op) {
  const unsigned n = g.size(), r = g.thread_rank();
  for (unsigned o = 1; o < n; o <<= 1) {
    T other = tiletrans::shfl_detail::down(g, val, o);
    if (r + o < n) val = op(val, other);
  }
  return tiletrans::shfl_detail::idx(g, val, 0);
}

/* cooperative_groups/scan.h: Hillis-Steele scans with shfl_up, in rank order, for any
 * group size. exclusive_scan gives rank 0 a value-initialised T (0 for plus; CUDA leaves
 * it unspecified for other operators). */
template <class Group, class T, class Op> __device__ inline T inclusive_scan(const Group &g, T val, Op op) {
  const unsigned n = g.size(), r = g.thread_rank();
  for (unsigned o = 1; o < n; o <<= 1) {
    T other = tiletrans::shfl_detail::up(g, val, o);
    if (r >= o) val = op(other, val);
  }
  return val;
}
template <class Group, class T> __device__ inline T inclusive_scan(const Group &g, T val) {
  return inclusive_scan(g, val, plus<T>());
}
template <class Group, class T, class Op> __device__ inline T exclusive_scan(const Group &g, T val, Op op) {
  T inc = inclusive_scan(g, val, op);
  T prev = tiletrans::shfl_detail::up(g, inc, 1);
  return g.thread_rank() == 0 ? T() : prev;
}
template <class Group, class T> __device__ inline T exclusive_scan(const Group &g, T val) {
  return exclusive_scan(g, val, plus<T>());
}
} // namespace cooperative_groups

namespace tiletrans {
/* ---- meta_group_rank / meta_group_size ------------------------------------------------
 * For a tile partitioned from the thread block: its index among the block's tiles and
 * their count (CUDA's members; HIP 5.2's tiles have neither). */
template <class Tile> __device__ inline unsigned meta_group_rank(const Tile &t) {
  return cooperative_groups::this_thread_block().thread_rank() / t.size();
}
template <class Tile> __device__ inline unsigned meta_group_size(const Tile &t) {
  return (cooperative_groups::this_thread_block().size() + t.size() - 1) / t.size();
}

/* ---- group votes: g.ballot(p), g.any(p), g.all(p) -------------------------------------
 * Rank r's vote is fetched with g.shfl, so bit r is member rank r's vote whatever lanes
 * the group holds (a coalesced group's members need not be contiguous lanes). n shuffles
 * for n members: correct for every group type HIP 5.2 has, not the fastest. */
template <class Group> __device__ inline unsigned long long group_ballot(const Group &g, int pred) {
  const unsigned n = g.size();
  const int mine = pred ? 1 : 0;
  unsigned long long votes = 0;
  for (unsigned r = 0; r < n; ++r) votes |= (unsigned long long)(g.shfl(mine, (int)r) & 1) << r;
  return votes;
}
template <class Group> __device__ inline int group_any(const Group &g, int pred) { return group_ballot(g, pred) != 0; }
template <class Group> __device__ inline int group_all(const Group &g, int pred) {
  const unsigned n = g.size();
  const unsigned long long all = n >= 64 ? ~0ull : (1ull << n) - 1;
  return group_ballot(g, pred) == all;
}

/* ---- cache-hinted loads and stores ----------------------------------------------------- */
template <class T> __device__ inline T ldcs(const T *p) { return *p; }
template <class T> __device__ inline T ldcg(const T *p) { return *p; }
template <class T> __device__ inline T ldca(const T *p) { return *p; }
template <class T> __device__ inline T ldlu(const T *p) { return *p; }
template <class T> __device__ inline T ldcv(const T *p) { return *(const volatile T *)p; }
template <class T> __device__ inline void stcs(T *p, T v) { *p = v; }
template <class T> __device__ inline void stcg(T *p, T v) { *p = v; }
template <class T> __device__ inline void stwb(T *p, T v) { *p = v; }
template <class T> __device__ inline void stwt(T *p, T v) { *p = v; }
/* __ldg: HIP has overloads for the built-in and vector types; this one serves the rest. */
template <class T> __device__ inline T ldg(const T *p) { return *p; }

/* ---- __match_any_sync / __match_all_sync ------------------------------------------------ */
namespace match_detail {
template <int Size> struct word;
template <> struct word<4> { typedef unsigned int type; };
template <> struct word<8> { typedef unsigned long long type; };
/* The value's bits (CUDA compares bits: a NaN matches itself). 32- and 64-bit types only. */
template <class T> __device__ inline unsigned long long bits(T v) {
  typename word<sizeof(T)>::type u;
  __builtin_memcpy(&u, &v, sizeof u);
  return u;
}
/* Lanes of `lanes` (a subset of the active lanes) whose bits equal the caller's. One round
 * per distinct value: each takes the lowest lane left as leader and removes its matches, so
 * the loop is uniform across the lanes and ends. */
__device__ inline unsigned long long same_value(unsigned long long lanes, unsigned long long mine) {
  unsigned long long result = 0;
  while (lanes) {
    int leader = (int)__ffsll(lanes) - 1;
    unsigned long long lv = __shfl(mine, leader);
    unsigned long long same = __ballot(mine == lv) & lanes;
    if (mine == lv) result = same;
    lanes &= ~same;
  }
  return result;
}
/* The caller's 32-lane group of the wavefront (all of it on wave32). The wavefront size is
 * the compiler's, per target (gfx90a/gfx940: 64, gfx1030: 32). */
__device__ inline unsigned long long group32_lanes() {
#if defined(__AMDGCN_WAVEFRONT_SIZE) && __AMDGCN_WAVEFRONT_SIZE == 32
  return ~0ull;
#else
  return 0xffffffffull << (__lane_id() & 32);
#endif
}
} // namespace match_detail

/* __match_any_sync / __match_all_sync without the member mask: every active lane takes
 * part. match_any_sync: the active lanes of the wavefront holding the caller's value
 * (64-bit on wave64). match_all_sync: every active lane when all hold the same value
 * (*pred = 1), else 0 (*pred = 0). */
template <class T> __device__ inline unsigned long long match_any_sync(T v) {
  return match_detail::same_value(__ballot(1), match_detail::bits(v));
}
template <class T> __device__ inline unsigned long long match_all_sync(T v, int *pred) {
  unsigned long long active = __ballot(1);
  unsigned long long same = match_detail::same_value(active, match_detail::bits(v));
  *pred = same == active;
  return same == active ? active : 0ull;
}
/* The same within the caller's 32-lane group, as a 32-bit mask of that group's lanes: for
 * functions ported as logical-32 (a CUDA warp is a 32-lane group of the wavefront). */
namespace logical32 {
template <class T> __device__ inline unsigned match_any_sync(T v) {
  unsigned long long group = __ballot(1) & match_detail::group32_lanes();
  return (unsigned)(match_detail::same_value(group, match_detail::bits(v)) >> (__lane_id() & 32));
}
template <class T> __device__ inline unsigned match_all_sync(T v, int *pred) {
  unsigned long long group = __ballot(1) & match_detail::group32_lanes();
  unsigned long long same = match_detail::same_value(group, match_detail::bits(v));
  *pred = same == group;
  return same == group ? (unsigned)(group >> (__lane_id() & 32)) : 0u;
}
} // namespace logical32

/* ---- min / max of mixed types ------------------------------------------------------------
 * CUDA declares min/max for every pair of int, unsigned, long, long long and their unsigned
 * kinds, returning the usual arithmetic conversion of the two (min(-1, 5u) is 5u: the int
 * converts to unsigned), and float/double ones that are fminf/fmin. HIP 5.2 has
 * min(int, int), min(uint32_t, int) and a double overload, which takes min(int, unsigned):
 * the value is a double (an index that no longer builds) and the comparison signed. */
namespace minmax_detail {
template <class C> __host__ __device__ inline C min_of(C a, C b, std::true_type) { return ::fmin(a, b); }
template <class C> __host__ __device__ inline C min_of(C a, C b, std::false_type) { return a < b ? a : b; }
template <class C> __host__ __device__ inline C max_of(C a, C b, std::true_type) { return ::fmax(a, b); }
template <class C> __host__ __device__ inline C max_of(C a, C b, std::false_type) { return a > b ? a : b; }
} // namespace minmax_detail
/* C++11 (hipcc's default dialect): no if constexpr, no common_type_t. */
template <class A, class B>
__host__ __device__ inline typename std::common_type<A, B>::type min(A a, B b) {
  typedef typename std::common_type<A, B>::type C;
  static_assert(std::is_arithmetic<C>::value, "tiletrans::min takes numbers");
  return minmax_detail::min_of<C>((C)a, (C)b, std::is_floating_point<C>());
}
template <class A, class B>
__host__ __device__ inline typename std::common_type<A, B>::type max(A a, B b) {
  typedef typename std::common_type<A, B>::type C;
  static_assert(std::is_arithmetic<C>::value, "tiletrans::max takes numbers");
  return minmax_detail::max_of<C>((C)a, (C)b, std::is_floating_point<C>());
}
} // namespace tiletrans

/* ---- math_constants.h ------------------------------------------------------------------- */
#ifndef CUDART_INF_F
#define CUDART_INF_F __builtin_huge_valf()
#define CUDART_NAN_F __builtin_nanf("")
#define CUDART_MIN_DENORM_F 1.40129846432e-45f
#define CUDART_MAX_NORMAL_F 3.40282347e+38f
#define CUDART_NEG_ZERO_F (-0.0f)
#define CUDART_ZERO_F 0.0f
#define CUDART_ONE_F 1.0f
#define CUDART_SQRT_HALF_F 0.707106781f
#define CUDART_SQRT_HALF_HI_F 0.707106781f
#define CUDART_SQRT_HALF_LO_F 1.210161749e-08f
#define CUDART_SQRT_TWO_F 1.414213562f
#define CUDART_THIRD_F 0.333333333f
#define CUDART_PIO4_F 0.785398163f
#define CUDART_PIO2_F 1.570796327f
#define CUDART_3PIO4_F 2.356194490f
#define CUDART_2_OVER_PI_F 0.636619772f
#define CUDART_SQRT_2_OVER_PI_F 0.797884561f
#define CUDART_PI_F 3.141592654f
#define CUDART_L2E_F 1.442695041f
#define CUDART_L2T_F 3.321928094f
#define CUDART_LG2_F 0.301029996f
#define CUDART_LGE_F 0.434294482f
#define CUDART_LN2_F 0.693147181f
#define CUDART_LNT_F 2.302585093f
#define CUDART_LNPI_F 1.144729886f
#define CUDART_TWO_TO_M126_F 1.175494351e-38f
#define CUDART_TWO_TO_126_F 8.507059173e37f
#define CUDART_NORM_HUGE_F 3.402823466e38f
#define CUDART_TWO_TO_23_F 8388608.0f
#define CUDART_TWO_TO_24_F 16777216.0f
#define CUDART_TWO_TO_31_F 2147483648.0f
#define CUDART_TWO_TO_32_F 4294967296.0f
#define CUDART_REMQUO_BITS_F 3
#define CUDART_REMQUO_MASK_F (~((~0) << CUDART_REMQUO_BITS_F))
#define CUDART_TRIG_PLOSS_F 105615.0f
#define CUDART_INF __builtin_huge_val()
#define CUDART_NAN __builtin_nan("")
#define CUDART_NEG_ZERO (-0.0)
#define CUDART_MIN_DENORM 4.9406564584124654e-324
#define CUDART_ZERO 0.0
#define CUDART_ONE 1.0
#define CUDART_SQRT_TWO 1.4142135623730951e+0
#define CUDART_SQRT_PI 1.7724538509055161e+0
#define CUDART_SQRT_2PI 2.5066282746310002e+0
#define CUDART_SQRT_HALF 7.0710678118654757e-1
#define CUDART_SQRT_2_OVER_PI 7.9788456080286536e-1
#define CUDART_PI 3.1415926535897931e+0
#define CUDART_PIO2 1.5707963267948966e+0
#define CUDART_PIO4 7.8539816339744828e-1
#define CUDART_3PIO4 2.3561944901923448e+0
#define CUDART_2_OVER_PI 6.3661977236758138e-1
#define CUDART_PI_SQR 9.8696044010893580e+0
#define CUDART_L2E 1.4426950408889634e+0
#define CUDART_L2T 3.3219280948873622e+0
#define CUDART_LG2 3.0102999566398120e-1
#define CUDART_LGE 4.3429448190325182e-1
#define CUDART_LN2 6.9314718055994529e-1
#define CUDART_LNT 2.3025850929940459e+0
#define CUDART_LNPI 1.1447298858494002e+0
#define CUDART_TWO_TO_23 8388608.0
#define CUDART_TWO_TO_52 4503599627370496.0
#define CUDART_TWO_TO_53 9007199254740992.0
#define CUDART_TWO_TO_54 18014398509481984.0
#define CUDART_TWO_TO_M54 5.5511151231257827e-17
#define CUDART_TWO_TO_M1022 2.22507385850720140e-308
#define CUDART_THIRD 3.3333333333333333e-1
#endif

#endif /* TILETRANS_HIP_COMPAT_H */
