// tt_sim_half.hpp — __half and bfloat16 (CUDA __nv_bfloat16, HIP __hip_bfloat16).
//
// Storage is the 16-bit pattern; arithmetic converts to float, computes, and
// rounds back to nearest-even — what native half instructions do for one
// operation.  Included by tt_sim_common.hpp.
#ifndef TT_SIM_HALF_HPP
#define TT_SIM_HALF_HPP

#include <cstdint>
#include <cstring>

namespace tt_sim {
inline uint16_t f2h_bits(float f)
{
    uint32_t x;
    std::memcpy(&x, &f, 4);
    uint32_t sign = (x >> 16) & 0x8000u;
    uint32_t e = (x >> 23) & 0xff, m = x & 0x7fffffu;
    if (e == 0xff)
        return (uint16_t)(sign | 0x7c00u | (m ? 0x200u : 0));
    int ex = (int)e - 127 + 15;
    if (ex >= 31)
        return (uint16_t)(sign | 0x7c00u);
    if (ex <= 0) { // subnormal or zero
        if (ex < -10)
            return (uint16_t)sign;
        m |= 0x800000u;
        int shift = 14 - ex;
        uint32_t r = m >> shift, rem = m & ((1u << shift) - 1), half = 1u << (shift - 1);
        if (rem > half || (rem == half && (r & 1)))
            r++;
        return (uint16_t)(sign | r);
    }
    uint32_t r = ((uint32_t)ex << 10) | (m >> 13), rem = m & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (r & 1)))
        r++; // may carry into the exponent: still correct (up to inf)
    return (uint16_t)(sign | r);
}
inline float h2f_bits(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16, e = (h >> 10) & 31, m = h & 1023u, x;
    if (e == 0) {
        if (!m)
            x = sign;
        else {
            e = 127 - 15 + 1;
            while (!(m & 1024u)) { m <<= 1; e--; }
            x = sign | (e << 23) | ((m & 1023u) << 13);
        }
    } else if (e == 31)
        x = sign | 0x7f800000u | (m << 13);
    else
        x = sign | ((e - 15 + 127) << 23) | (m << 13);
    float f;
    std::memcpy(&f, &x, 4);
    return f;
}
inline uint16_t f2bf_bits(float f)
{
    uint32_t x;
    std::memcpy(&x, &f, 4);
    if ((x & 0x7fffffffu) > 0x7f800000u)
        return (uint16_t)((x >> 16) | 0x40);
    x += 0x7fffu + ((x >> 16) & 1);
    return (uint16_t)(x >> 16);
}
inline float bf2f_bits(uint16_t b)
{
    uint32_t x = (uint32_t)b << 16;
    float f;
    std::memcpy(&f, &x, 4);
    return f;
}
} // namespace tt_sim

#define TT_SIM_HALF_TYPE(H, TO, FROM)                                              \
    struct __attribute__((aligned(2))) H {                                         \
        uint16_t __x;                                                              \
        H() = default;                                                             \
        H(float f) : __x(TO(f)) {}                                                 \
        H(double f) : __x(TO((float)f)) {}                                         \
        H(int i) : __x(TO((float)i)) {}                                            \
        H(unsigned i) : __x(TO((float)i)) {}                                       \
        H(long long i) : __x(TO((float)i)) {}                                      \
        operator float() const { return FROM(__x); }                               \
        H &operator=(float f) { __x = TO(f); return *this; }                       \
        H &operator+=(H o) { return *this = (float)*this + (float)o; }             \
        H &operator-=(H o) { return *this = (float)*this - (float)o; }             \
        H &operator*=(H o) { return *this = (float)*this * (float)o; }             \
        H &operator/=(H o) { return *this = (float)*this / (float)o; }             \
    };                                                                             \
    inline H operator+(H a, H b) { return H((float)a + (float)b); }                \
    inline H operator-(H a, H b) { return H((float)a - (float)b); }                \
    inline H operator*(H a, H b) { return H((float)a * (float)b); }                \
    inline H operator/(H a, H b) { return H((float)a / (float)b); }                \
    inline H operator-(H a) { H r; r.__x = (uint16_t)(a.__x ^ 0x8000u); return r; } \
    inline bool operator==(H a, H b) { return (float)a == (float)b; }              \
    inline bool operator!=(H a, H b) { return (float)a != (float)b; }              \
    inline bool operator<(H a, H b) { return (float)a < (float)b; }                \
    inline bool operator>(H a, H b) { return (float)a > (float)b; }                \
    inline bool operator<=(H a, H b) { return (float)a <= (float)b; }              \
    inline bool operator>=(H a, H b) { return (float)a >= (float)b; }              \
    struct __attribute__((aligned(4))) H##2 {                                      \
        H x, y;                                                                    \
    };

TT_SIM_HALF_TYPE(__half, tt_sim::f2h_bits, tt_sim::h2f_bits)
// HIP 5.2 has no __hip_bfloat16 (ROCm 6's hip_bf16.h): a HIP port brings its own
// (tiletrans's compat header) built on unsigned short, so the HIP shim offers none.
#ifndef TT_SIM_DIALECT_HIP
TT_SIM_HALF_TYPE(__nv_bfloat16, tt_sim::f2bf_bits, tt_sim::bf2f_bits)
typedef __nv_bfloat16 nv_bfloat16;
typedef __nv_bfloat162 nv_bfloat162;
#endif
#undef TT_SIM_HALF_TYPE
typedef __half half;
typedef __half2 half2;

inline __half __float2half(float f) { return __half(f); }
inline __half __float2half_rn(float f) { return __half(f); }
inline float __half2float(__half h) { return (float)h; }
inline __half __int2half_rn(int i) { return __half((float)i); }
inline int __half2int_rz(__half h) { return (int)(float)h; }
inline int __half2int_rn(__half h) { return (int)nearbyintf((float)h); }
inline __half __ushort_as_half(unsigned short u) { __half h; h.__x = u; return h; }
inline unsigned short __half_as_ushort(__half h) { return h.__x; }
inline __half __short_as_half(short u) { __half h; h.__x = (uint16_t)u; return h; }
inline short __half_as_short(__half h) { return (short)h.__x; }
inline __half2 __halves2half2(__half a, __half b) { return __half2{a, b}; }
inline __half2 make_half2(__half a, __half b) { return __half2{a, b}; }
inline __half2 __floats2half2_rn(float a, float b) { return __half2{__half(a), __half(b)}; }
inline __half2 __float2half2_rn(float a) { return __half2{__half(a), __half(a)}; }
inline __half2 __half2half2(__half a) { return __half2{a, a}; }
inline float2 __half22float2(__half2 h) { return float2{(float)h.x, (float)h.y}; }
inline __half2 __float22half2_rn(float2 f) { return __half2{__half(f.x), __half(f.y)}; }
inline __half __low2half(__half2 h) { return h.x; }
inline __half __high2half(__half2 h) { return h.y; }
inline float __low2float(__half2 h) { return (float)h.x; }
inline float __high2float(__half2 h) { return (float)h.y; }
inline __half __hadd(__half a, __half b) { return a + b; }
inline __half __hsub(__half a, __half b) { return a - b; }
inline __half __hmul(__half a, __half b) { return a * b; }
inline __half __hdiv(__half a, __half b) { return a / b; }
inline __half __hfma(__half a, __half b, __half c) { return __half(fmaf((float)a, (float)b, (float)c)); }
inline __half __hneg(__half a) { return -a; }
inline __half __habs(__half a) { __half r; r.__x = (uint16_t)(a.__x & 0x7fffu); return r; }
#ifndef TT_SIM_DIALECT_HIP // CUDA 11 names HIP 5.2's amd_hip_fp16.h lacks
inline __half __hmax(__half a, __half b) { return (float)a > (float)b ? a : b; }
inline __half __hmin(__half a, __half b) { return (float)a < (float)b ? a : b; }
#endif
inline bool __heq(__half a, __half b) { return a == b; }
inline bool __hlt(__half a, __half b) { return a < b; }
inline bool __hgt(__half a, __half b) { return a > b; }
inline bool __hle(__half a, __half b) { return a <= b; }
inline bool __hge(__half a, __half b) { return a >= b; }
inline bool __hisnan(__half a) { return (float)a != (float)a; }
inline __half hexp(__half a) { return __half(expf((float)a)); }
inline __half hlog(__half a) { return __half(logf((float)a)); }
inline __half hsqrt(__half a) { return __half(sqrtf((float)a)); }
inline __half hrsqrt(__half a) { return __half(1.0f / sqrtf((float)a)); }
inline __half2 __hadd2(__half2 a, __half2 b) { return __half2{a.x + b.x, a.y + b.y}; }
inline __half2 __hsub2(__half2 a, __half2 b) { return __half2{a.x - b.x, a.y - b.y}; }
inline __half2 __hmul2(__half2 a, __half2 b) { return __half2{a.x * b.x, a.y * b.y}; }
inline __half2 __hfma2(__half2 a, __half2 b, __half2 c) { return __half2{__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y)}; }
inline __half2 operator+(__half2 a, __half2 b) { return __hadd2(a, b); }
inline __half2 operator*(__half2 a, __half2 b) { return __hmul2(a, b); }
inline __half2 operator-(__half2 a, __half2 b) { return __hsub2(a, b); }

#ifdef TT_SIM_DIALECT_HIP
// HIP 5.2's cache-hint loads: for __half and __half2 only (amd_hip_fp16.h)
inline __half __ldcg(const __half *p) { return *p; }
inline __half __ldca(const __half *p) { return *p; }
inline __half __ldcs(const __half *p) { return *p; }
inline __half2 __ldcg(const __half2 *p) { return *p; }
inline __half2 __ldca(const __half2 *p) { return *p; }
inline __half2 __ldcs(const __half2 *p) { return *p; }
#else
inline __nv_bfloat16 __float2bfloat16(float f) { return __nv_bfloat16(f); }
inline __nv_bfloat16 __float2bfloat16_rn(float f) { return __nv_bfloat16(f); }
inline float __bfloat162float(__nv_bfloat16 b) { return (float)b; }
inline __nv_bfloat162 __floats2bfloat162_rn(float a, float b) { return __nv_bfloat162{__nv_bfloat16(a), __nv_bfloat16(b)}; }
inline __nv_bfloat162 __float2bfloat162_rn(float a) { return __nv_bfloat162{__nv_bfloat16(a), __nv_bfloat16(a)}; }
inline float2 __bfloat1622float2(__nv_bfloat162 h) { return float2{(float)h.x, (float)h.y}; }
inline __nv_bfloat16 __low2bfloat16(__nv_bfloat162 h) { return h.x; }
inline __nv_bfloat16 __high2bfloat16(__nv_bfloat162 h) { return h.y; }
inline __nv_bfloat16 __ushort_as_bfloat16(unsigned short u) { __nv_bfloat16 h; h.__x = u; return h; }
inline unsigned short __bfloat16_as_ushort(__nv_bfloat16 h) { return h.__x; }
inline __nv_bfloat16 __hadd(__nv_bfloat16 a, __nv_bfloat16 b) { return a + b; }
inline __nv_bfloat16 __hmul(__nv_bfloat16 a, __nv_bfloat16 b) { return a * b; }
inline __nv_bfloat16 __hfma(__nv_bfloat16 a, __nv_bfloat16 b, __nv_bfloat16 c) { return __nv_bfloat16(fmaf((float)a, (float)b, (float)c)); }
inline __nv_bfloat16 __hmax(__nv_bfloat16 a, __nv_bfloat16 b) { return (float)a > (float)b ? a : b; }

#endif // TT_SIM_DIALECT_HIP

#endif
