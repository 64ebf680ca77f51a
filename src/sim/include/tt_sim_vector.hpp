// tt_sim_vector.hpp — CUDA/HIP vector types (generated layout: CUDA's sizes
// and alignments, so reinterpret_cast'ed vector loads see the same bytes).
// HIP gives them arithmetic operators; CUDA does not (projects define their
// own, e.g. helper_math.h), so operators exist only with TT_SIM_DIALECT_HIP.
#ifndef TT_SIM_VECTOR_HPP
#define TT_SIM_VECTOR_HPP

struct __attribute__((aligned(1))) char1 { char x; };
inline char1 make_char1(char x) { return char1{x}; }
struct __attribute__((aligned(2))) char2 { char x, y; };
inline char2 make_char2(char x, char y) { return char2{x, y}; }
struct __attribute__((aligned(1))) char3 { char x, y, z; };
inline char3 make_char3(char x, char y, char z) { return char3{x, y, z}; }
struct __attribute__((aligned(4))) char4 { char x, y, z, w; };
inline char4 make_char4(char x, char y, char z, char w) { return char4{x, y, z, w}; }
struct __attribute__((aligned(1))) uchar1 { unsigned char x; };
inline uchar1 make_uchar1(unsigned char x) { return uchar1{x}; }
struct __attribute__((aligned(2))) uchar2 { unsigned char x, y; };
inline uchar2 make_uchar2(unsigned char x, unsigned char y) { return uchar2{x, y}; }
struct __attribute__((aligned(1))) uchar3 { unsigned char x, y, z; };
inline uchar3 make_uchar3(unsigned char x, unsigned char y, unsigned char z) { return uchar3{x, y, z}; }
struct __attribute__((aligned(4))) uchar4 { unsigned char x, y, z, w; };
inline uchar4 make_uchar4(unsigned char x, unsigned char y, unsigned char z, unsigned char w) { return uchar4{x, y, z, w}; }
struct __attribute__((aligned(2))) short1 { short x; };
inline short1 make_short1(short x) { return short1{x}; }
struct __attribute__((aligned(4))) short2 { short x, y; };
inline short2 make_short2(short x, short y) { return short2{x, y}; }
struct __attribute__((aligned(2))) short3 { short x, y, z; };
inline short3 make_short3(short x, short y, short z) { return short3{x, y, z}; }
struct __attribute__((aligned(8))) short4 { short x, y, z, w; };
inline short4 make_short4(short x, short y, short z, short w) { return short4{x, y, z, w}; }
struct __attribute__((aligned(2))) ushort1 { unsigned short x; };
inline ushort1 make_ushort1(unsigned short x) { return ushort1{x}; }
struct __attribute__((aligned(4))) ushort2 { unsigned short x, y; };
inline ushort2 make_ushort2(unsigned short x, unsigned short y) { return ushort2{x, y}; }
struct __attribute__((aligned(2))) ushort3 { unsigned short x, y, z; };
inline ushort3 make_ushort3(unsigned short x, unsigned short y, unsigned short z) { return ushort3{x, y, z}; }
struct __attribute__((aligned(8))) ushort4 { unsigned short x, y, z, w; };
inline ushort4 make_ushort4(unsigned short x, unsigned short y, unsigned short z, unsigned short w) { return ushort4{x, y, z, w}; }
struct __attribute__((aligned(4))) int1 { int x; };
inline int1 make_int1(int x) { return int1{x}; }
struct __attribute__((aligned(8))) int2 { int x, y; };
inline int2 make_int2(int x, int y) { return int2{x, y}; }
struct __attribute__((aligned(4))) int3 { int x, y, z; };
inline int3 make_int3(int x, int y, int z) { return int3{x, y, z}; }
struct __attribute__((aligned(16))) int4 { int x, y, z, w; };
inline int4 make_int4(int x, int y, int z, int w) { return int4{x, y, z, w}; }
struct __attribute__((aligned(4))) uint1 { unsigned int x; };
inline uint1 make_uint1(unsigned int x) { return uint1{x}; }
struct __attribute__((aligned(8))) uint2 { unsigned int x, y; };
inline uint2 make_uint2(unsigned int x, unsigned int y) { return uint2{x, y}; }
// uint3 is tt_sim_dim3 (threadIdx's type), see tt_sim_common.hpp
inline uint3 make_uint3(unsigned int x, unsigned int y, unsigned int z) { return uint3{x, y, z}; }
struct __attribute__((aligned(16))) uint4 { unsigned int x, y, z, w; };
inline uint4 make_uint4(unsigned int x, unsigned int y, unsigned int z, unsigned int w) { return uint4{x, y, z, w}; }
struct __attribute__((aligned(8))) long1 { long x; };
inline long1 make_long1(long x) { return long1{x}; }
struct __attribute__((aligned(16))) long2 { long x, y; };
inline long2 make_long2(long x, long y) { return long2{x, y}; }
struct __attribute__((aligned(8))) long3 { long x, y, z; };
inline long3 make_long3(long x, long y, long z) { return long3{x, y, z}; }
struct __attribute__((aligned(16))) long4 { long x, y, z, w; };
inline long4 make_long4(long x, long y, long z, long w) { return long4{x, y, z, w}; }
struct __attribute__((aligned(8))) ulong1 { unsigned long x; };
inline ulong1 make_ulong1(unsigned long x) { return ulong1{x}; }
struct __attribute__((aligned(16))) ulong2 { unsigned long x, y; };
inline ulong2 make_ulong2(unsigned long x, unsigned long y) { return ulong2{x, y}; }
struct __attribute__((aligned(8))) ulong3 { unsigned long x, y, z; };
inline ulong3 make_ulong3(unsigned long x, unsigned long y, unsigned long z) { return ulong3{x, y, z}; }
struct __attribute__((aligned(16))) ulong4 { unsigned long x, y, z, w; };
inline ulong4 make_ulong4(unsigned long x, unsigned long y, unsigned long z, unsigned long w) { return ulong4{x, y, z, w}; }
struct __attribute__((aligned(8))) longlong1 { long long x; };
inline longlong1 make_longlong1(long long x) { return longlong1{x}; }
struct __attribute__((aligned(16))) longlong2 { long long x, y; };
inline longlong2 make_longlong2(long long x, long long y) { return longlong2{x, y}; }
struct __attribute__((aligned(8))) longlong3 { long long x, y, z; };
inline longlong3 make_longlong3(long long x, long long y, long long z) { return longlong3{x, y, z}; }
struct __attribute__((aligned(16))) longlong4 { long long x, y, z, w; };
inline longlong4 make_longlong4(long long x, long long y, long long z, long long w) { return longlong4{x, y, z, w}; }
struct __attribute__((aligned(8))) ulonglong1 { unsigned long long x; };
inline ulonglong1 make_ulonglong1(unsigned long long x) { return ulonglong1{x}; }
struct __attribute__((aligned(16))) ulonglong2 { unsigned long long x, y; };
inline ulonglong2 make_ulonglong2(unsigned long long x, unsigned long long y) { return ulonglong2{x, y}; }
struct __attribute__((aligned(8))) ulonglong3 { unsigned long long x, y, z; };
inline ulonglong3 make_ulonglong3(unsigned long long x, unsigned long long y, unsigned long long z) { return ulonglong3{x, y, z}; }
struct __attribute__((aligned(16))) ulonglong4 { unsigned long long x, y, z, w; };
inline ulonglong4 make_ulonglong4(unsigned long long x, unsigned long long y, unsigned long long z, unsigned long long w) { return ulonglong4{x, y, z, w}; }
struct __attribute__((aligned(4))) float1 { float x; };
inline float1 make_float1(float x) { return float1{x}; }
struct __attribute__((aligned(8))) float2 { float x, y; };
inline float2 make_float2(float x, float y) { return float2{x, y}; }
struct __attribute__((aligned(4))) float3 { float x, y, z; };
inline float3 make_float3(float x, float y, float z) { return float3{x, y, z}; }
struct __attribute__((aligned(16))) float4 { float x, y, z, w; };
inline float4 make_float4(float x, float y, float z, float w) { return float4{x, y, z, w}; }
struct __attribute__((aligned(8))) double1 { double x; };
inline double1 make_double1(double x) { return double1{x}; }
struct __attribute__((aligned(16))) double2 { double x, y; };
inline double2 make_double2(double x, double y) { return double2{x, y}; }
struct __attribute__((aligned(8))) double3 { double x, y, z; };
inline double3 make_double3(double x, double y, double z) { return double3{x, y, z}; }
struct __attribute__((aligned(16))) double4 { double x, y, z, w; };
inline double4 make_double4(double x, double y, double z, double w) { return double4{x, y, z, w}; }

#if defined(TT_SIM_DIALECT_HIP)
inline int2 operator+(const int2 &a, const int2 &b) { return int2{(int)(a.x + b.x), (int)(a.y + b.y)}; }
inline int2 operator+(const int2 &a, int s) { return int2{(int)(a.x + s), (int)(a.y + s)}; }
inline int2 &operator+=(int2 &a, const int2 &b) { return a = a + b; }
inline int2 operator-(const int2 &a, const int2 &b) { return int2{(int)(a.x - b.x), (int)(a.y - b.y)}; }
inline int2 operator-(const int2 &a, int s) { return int2{(int)(a.x - s), (int)(a.y - s)}; }
inline int2 &operator-=(int2 &a, const int2 &b) { return a = a - b; }
inline int2 operator*(const int2 &a, const int2 &b) { return int2{(int)(a.x * b.x), (int)(a.y * b.y)}; }
inline int2 operator*(const int2 &a, int s) { return int2{(int)(a.x * s), (int)(a.y * s)}; }
inline int2 &operator*=(int2 &a, const int2 &b) { return a = a * b; }
inline int2 operator/(const int2 &a, const int2 &b) { return int2{(int)(a.x / b.x), (int)(a.y / b.y)}; }
inline int2 operator/(const int2 &a, int s) { return int2{(int)(a.x / s), (int)(a.y / s)}; }
inline int2 &operator/=(int2 &a, const int2 &b) { return a = a / b; }
inline bool operator==(const int2 &a, const int2 &b) { return a.x == b.x && a.y == b.y; }
inline int3 operator+(const int3 &a, const int3 &b) { return int3{(int)(a.x + b.x), (int)(a.y + b.y), (int)(a.z + b.z)}; }
inline int3 operator+(const int3 &a, int s) { return int3{(int)(a.x + s), (int)(a.y + s), (int)(a.z + s)}; }
inline int3 &operator+=(int3 &a, const int3 &b) { return a = a + b; }
inline int3 operator-(const int3 &a, const int3 &b) { return int3{(int)(a.x - b.x), (int)(a.y - b.y), (int)(a.z - b.z)}; }
inline int3 operator-(const int3 &a, int s) { return int3{(int)(a.x - s), (int)(a.y - s), (int)(a.z - s)}; }
inline int3 &operator-=(int3 &a, const int3 &b) { return a = a - b; }
inline int3 operator*(const int3 &a, const int3 &b) { return int3{(int)(a.x * b.x), (int)(a.y * b.y), (int)(a.z * b.z)}; }
inline int3 operator*(const int3 &a, int s) { return int3{(int)(a.x * s), (int)(a.y * s), (int)(a.z * s)}; }
inline int3 &operator*=(int3 &a, const int3 &b) { return a = a * b; }
inline int3 operator/(const int3 &a, const int3 &b) { return int3{(int)(a.x / b.x), (int)(a.y / b.y), (int)(a.z / b.z)}; }
inline int3 operator/(const int3 &a, int s) { return int3{(int)(a.x / s), (int)(a.y / s), (int)(a.z / s)}; }
inline int3 &operator/=(int3 &a, const int3 &b) { return a = a / b; }
inline bool operator==(const int3 &a, const int3 &b) { return a.x == b.x && a.y == b.y && a.z == b.z; }
inline int4 operator+(const int4 &a, const int4 &b) { return int4{(int)(a.x + b.x), (int)(a.y + b.y), (int)(a.z + b.z), (int)(a.w + b.w)}; }
inline int4 operator+(const int4 &a, int s) { return int4{(int)(a.x + s), (int)(a.y + s), (int)(a.z + s), (int)(a.w + s)}; }
inline int4 &operator+=(int4 &a, const int4 &b) { return a = a + b; }
inline int4 operator-(const int4 &a, const int4 &b) { return int4{(int)(a.x - b.x), (int)(a.y - b.y), (int)(a.z - b.z), (int)(a.w - b.w)}; }
inline int4 operator-(const int4 &a, int s) { return int4{(int)(a.x - s), (int)(a.y - s), (int)(a.z - s), (int)(a.w - s)}; }
inline int4 &operator-=(int4 &a, const int4 &b) { return a = a - b; }
inline int4 operator*(const int4 &a, const int4 &b) { return int4{(int)(a.x * b.x), (int)(a.y * b.y), (int)(a.z * b.z), (int)(a.w * b.w)}; }
inline int4 operator*(const int4 &a, int s) { return int4{(int)(a.x * s), (int)(a.y * s), (int)(a.z * s), (int)(a.w * s)}; }
inline int4 &operator*=(int4 &a, const int4 &b) { return a = a * b; }
inline int4 operator/(const int4 &a, const int4 &b) { return int4{(int)(a.x / b.x), (int)(a.y / b.y), (int)(a.z / b.z), (int)(a.w / b.w)}; }
inline int4 operator/(const int4 &a, int s) { return int4{(int)(a.x / s), (int)(a.y / s), (int)(a.z / s), (int)(a.w / s)}; }
inline int4 &operator/=(int4 &a, const int4 &b) { return a = a / b; }
inline bool operator==(const int4 &a, const int4 &b) { return a.x == b.x && a.y == b.y && a.z == b.z && a.w == b.w; }
inline uint2 operator+(const uint2 &a, const uint2 &b) { return uint2{(unsigned int)(a.x + b.x), (unsigned int)(a.y + b.y)}; }
inline uint2 operator+(const uint2 &a, unsigned int s) { return uint2{(unsigned int)(a.x + s), (unsigned int)(a.y + s)}; }
inline uint2 &operator+=(uint2 &a, const uint2 &b) { return a = a + b; }
inline uint2 operator-(const uint2 &a, const uint2 &b) { return uint2{(unsigned int)(a.x - b.x), (unsigned int)(a.y - b.y)}; }
inline uint2 operator-(const uint2 &a, unsigned int s) { return uint2{(unsigned int)(a.x - s), (unsigned int)(a.y - s)}; }
inline uint2 &operator-=(uint2 &a, const uint2 &b) { return a = a - b; }
inline uint2 operator*(const uint2 &a, const uint2 &b) { return uint2{(unsigned int)(a.x * b.x), (unsigned int)(a.y * b.y)}; }
inline uint2 operator*(const uint2 &a, unsigned int s) { return uint2{(unsigned int)(a.x * s), (unsigned int)(a.y * s)}; }
inline uint2 &operator*=(uint2 &a, const uint2 &b) { return a = a * b; }
inline uint2 operator/(const uint2 &a, const uint2 &b) { return uint2{(unsigned int)(a.x / b.x), (unsigned int)(a.y / b.y)}; }
inline uint2 operator/(const uint2 &a, unsigned int s) { return uint2{(unsigned int)(a.x / s), (unsigned int)(a.y / s)}; }
inline uint2 &operator/=(uint2 &a, const uint2 &b) { return a = a / b; }
inline bool operator==(const uint2 &a, const uint2 &b) { return a.x == b.x && a.y == b.y; }
inline uint3 operator+(const uint3 &a, const uint3 &b) { return uint3{(unsigned int)(a.x + b.x), (unsigned int)(a.y + b.y), (unsigned int)(a.z + b.z)}; }
inline uint3 operator+(const uint3 &a, unsigned int s) { return uint3{(unsigned int)(a.x + s), (unsigned int)(a.y + s), (unsigned int)(a.z + s)}; }
inline uint3 &operator+=(uint3 &a, const uint3 &b) { return a = a + b; }
inline uint3 operator-(const uint3 &a, const uint3 &b) { return uint3{(unsigned int)(a.x - b.x), (unsigned int)(a.y - b.y), (unsigned int)(a.z - b.z)}; }
inline uint3 operator-(const uint3 &a, unsigned int s) { return uint3{(unsigned int)(a.x - s), (unsigned int)(a.y - s), (unsigned int)(a.z - s)}; }
inline uint3 &operator-=(uint3 &a, const uint3 &b) { return a = a - b; }
inline uint3 operator*(const uint3 &a, const uint3 &b) { return uint3{(unsigned int)(a.x * b.x), (unsigned int)(a.y * b.y), (unsigned int)(a.z * b.z)}; }
inline uint3 operator*(const uint3 &a, unsigned int s) { return uint3{(unsigned int)(a.x * s), (unsigned int)(a.y * s), (unsigned int)(a.z * s)}; }
inline uint3 &operator*=(uint3 &a, const uint3 &b) { return a = a * b; }
inline uint3 operator/(const uint3 &a, const uint3 &b) { return uint3{(unsigned int)(a.x / b.x), (unsigned int)(a.y / b.y), (unsigned int)(a.z / b.z)}; }
inline uint3 operator/(const uint3 &a, unsigned int s) { return uint3{(unsigned int)(a.x / s), (unsigned int)(a.y / s), (unsigned int)(a.z / s)}; }
inline uint3 &operator/=(uint3 &a, const uint3 &b) { return a = a / b; }
inline bool operator==(const uint3 &a, const uint3 &b) { return a.x == b.x && a.y == b.y && a.z == b.z; }
inline uint4 operator+(const uint4 &a, const uint4 &b) { return uint4{(unsigned int)(a.x + b.x), (unsigned int)(a.y + b.y), (unsigned int)(a.z + b.z), (unsigned int)(a.w + b.w)}; }
inline uint4 operator+(const uint4 &a, unsigned int s) { return uint4{(unsigned int)(a.x + s), (unsigned int)(a.y + s), (unsigned int)(a.z + s), (unsigned int)(a.w + s)}; }
inline uint4 &operator+=(uint4 &a, const uint4 &b) { return a = a + b; }
inline uint4 operator-(const uint4 &a, const uint4 &b) { return uint4{(unsigned int)(a.x - b.x), (unsigned int)(a.y - b.y), (unsigned int)(a.z - b.z), (unsigned int)(a.w - b.w)}; }
inline uint4 operator-(const uint4 &a, unsigned int s) { return uint4{(unsigned int)(a.x - s), (unsigned int)(a.y - s), (unsigned int)(a.z - s), (unsigned int)(a.w - s)}; }
inline uint4 &operator-=(uint4 &a, const uint4 &b) { return a = a - b; }
inline uint4 operator*(const uint4 &a, const uint4 &b) { return uint4{(unsigned int)(a.x * b.x), (unsigned int)(a.y * b.y), (unsigned int)(a.z * b.z), (unsigned int)(a.w * b.w)}; }
inline uint4 operator*(const uint4 &a, unsigned int s) { return uint4{(unsigned int)(a.x * s), (unsigned int)(a.y * s), (unsigned int)(a.z * s), (unsigned int)(a.w * s)}; }
inline uint4 &operator*=(uint4 &a, const uint4 &b) { return a = a * b; }
inline uint4 operator/(const uint4 &a, const uint4 &b) { return uint4{(unsigned int)(a.x / b.x), (unsigned int)(a.y / b.y), (unsigned int)(a.z / b.z), (unsigned int)(a.w / b.w)}; }
inline uint4 operator/(const uint4 &a, unsigned int s) { return uint4{(unsigned int)(a.x / s), (unsigned int)(a.y / s), (unsigned int)(a.z / s), (unsigned int)(a.w / s)}; }
inline uint4 &operator/=(uint4 &a, const uint4 &b) { return a = a / b; }
inline bool operator==(const uint4 &a, const uint4 &b) { return a.x == b.x && a.y == b.y && a.z == b.z && a.w == b.w; }
inline long2 operator+(const long2 &a, const long2 &b) { return long2{(long)(a.x + b.x), (long)(a.y + b.y)}; }
inline long2 operator+(const long2 &a, long s) { return long2{(long)(a.x + s), (long)(a.y + s)}; }
inline long2 &operator+=(long2 &a, const long2 &b) { return a = a + b; }
inline long2 operator-(const long2 &a, const long2 &b) { return long2{(long)(a.x - b.x), (long)(a.y - b.y)}; }
inline long2 operator-(const long2 &a, long s) { return long2{(long)(a.x - s), (long)(a.y - s)}; }
inline long2 &operator-=(long2 &a, const long2 &b) { return a = a - b; }
inline long2 operator*(const long2 &a, const long2 &b) { return long2{(long)(a.x * b.x), (long)(a.y * b.y)}; }
inline long2 operator*(const long2 &a, long s) { return long2{(long)(a.x * s), (long)(a.y * s)}; }
inline long2 &operator*=(long2 &a, const long2 &b) { return a = a * b; }
inline long2 operator/(const long2 &a, const long2 &b) { return long2{(long)(a.x / b.x), (long)(a.y / b.y)}; }
inline long2 operator/(const long2 &a, long s) { return long2{(long)(a.x / s), (long)(a.y / s)}; }
inline long2 &operator/=(long2 &a, const long2 &b) { return a = a / b; }
inline bool operator==(const long2 &a, const long2 &b) { return a.x == b.x && a.y == b.y; }
inline long3 operator+(const long3 &a, const long3 &b) { return long3{(long)(a.x + b.x), (long)(a.y + b.y), (long)(a.z + b.z)}; }
inline long3 operator+(const long3 &a, long s) { return long3{(long)(a.x + s), (long)(a.y + s), (long)(a.z + s)}; }
inline long3 &operator+=(long3 &a, const long3 &b) { return a = a + b; }
inline long3 operator-(const long3 &a, const long3 &b) { return long3{(long)(a.x - b.x), (long)(a.y - b.y), (long)(a.z - b.z)}; }
inline long3 operator-(const long3 &a, long s) { return long3{(long)(a.x - s), (long)(a.y - s), (long)(a.z - s)}; }
inline long3 &operator-=(long3 &a, const long3 &b) { return a = a - b; }
inline long3 operator*(const long3 &a, const long3 &b) { return long3{(long)(a.x * b.x), (long)(a.y * b.y), (long)(a.z * b.z)}; }
inline long3 operator*(const long3 &a, long s) { return long3{(long)(a.x * s), (long)(a.y * s), (long)(a.z * s)}; }
inline long3 &operator*=(long3 &a, const long3 &b) { return a = a * b; }
inline long3 operator/(const long3 &a, const long3 &b) { return long3{(long)(a.x / b.x), (long)(a.y / b.y), (long)(a.z / b.z)}; }
inline long3 operator/(const long3 &a, long s) { return long3{(long)(a.x / s), (long)(a.y / s), (long)(a.z / s)}; }
inline long3 &operator/=(long3 &a, const long3 &b) { return a = a / b; }
inline bool operator==(const long3 &a, const long3 &b) { return a.x == b.x && a.y == b.y && a.z == b.z; }
inline long4 operator+(const long4 &a, const long4 &b) { return long4{(long)(a.x + b.x), (long)(a.y + b.y), (long)(a.z + b.z), (long)(a.w + b.w)}; }
inline long4 operator+(const long4 &a, long s) { return long4{(long)(a.x + s), (long)(a.y + s), (long)(a.z + s), (long)(a.w + s)}; }
inline long4 &operator+=(long4 &a, const long4 &b) { return a = a + b; }
inline long4 operator-(const long4 &a, const long4 &b) { return long4{(long)(a.x - b.x), (long)(a.y - b.y), (long)(a.z - b.z), (long)(a.w - b.w)}; }
inline long4 operator-(const long4 &a, long s) { return long4{(long)(a.x - s), (long)(a.y - s), (long)(a.z - s), (long)(a.w - s)}; }
inline long4 &operator-=(long4 &a, const long4 &b) { return a = a - b; }
inline long4 operator*(const long4 &a, const long4 &b) { return long4{(long)(a.x * b.x), (long)(a.y * b.y), (long)(a.z * b.z), (long)(a.w * b.w)}; }
inline long4 operator*(const long4 &a, long s) { return long4{(long)(a.x * s), (long)(a.y * s), (long)(a.z * s), (long)(a.w * s)}; }
inline long4 &operator*=(long4 &a, const long4 &b) { return a = a * b; }
inline long4 operator/(const long4 &a, const long4 &b) { return long4{(long)(a.x / b.x), (long)(a.y / b.y), (long)(a.z / b.z), (long)(a.w / b.w)}; }
inline long4 operator/(const long4 &a, long s) { return long4{(long)(a.x / s), (long)(a.y / s), (long)(a.z / s), (long)(a.w / s)}; }
inline long4 &operator/=(long4 &a, const long4 &b) { return a = a / b; }
inline bool operator==(const long4 &a, const long4 &b) { return a.x == b.x && a.y == b.y && a.z == b.z && a.w == b.w; }
inline ulong2 operator+(const ulong2 &a, const ulong2 &b) { return ulong2{(unsigned long)(a.x + b.x), (unsigned long)(a.y + b.y)}; }
inline ulong2 operator+(const ulong2 &a, unsigned long s) { return ulong2{(unsigned long)(a.x + s), (unsigned long)(a.y + s)}; }
inline ulong2 &operator+=(ulong2 &a, const ulong2 &b) { return a = a + b; }
inline ulong2 operator-(const ulong2 &a, const ulong2 &b) { return ulong2{(unsigned long)(a.x - b.x), (unsigned long)(a.y - b.y)}; }
inline ulong2 operator-(const ulong2 &a, unsigned long s) { return ulong2{(unsigned long)(a.x - s), (unsigned long)(a.y - s)}; }
inline ulong2 &operator-=(ulong2 &a, const ulong2 &b) { return a = a - b; }
inline ulong2 operator*(const ulong2 &a, const ulong2 &b) { return ulong2{(unsigned long)(a.x * b.x), (unsigned long)(a.y * b.y)}; }
inline ulong2 operator*(const ulong2 &a, unsigned long s) { return ulong2{(unsigned long)(a.x * s), (unsigned long)(a.y * s)}; }
inline ulong2 &operator*=(ulong2 &a, const ulong2 &b) { return a = a * b; }
inline ulong2 operator/(const ulong2 &a, const ulong2 &b) { return ulong2{(unsigned long)(a.x / b.x), (unsigned long)(a.y / b.y)}; }
inline ulong2 operator/(const ulong2 &a, unsigned long s) { return ulong2{(unsigned long)(a.x / s), (unsigned long)(a.y / s)}; }
inline ulong2 &operator/=(ulong2 &a, const ulong2 &b) { return a = a / b; }
inline bool operator==(const ulong2 &a, const ulong2 &b) { return a.x == b.x && a.y == b.y; }
inline ulong3 operator+(const ulong3 &a, const ulong3 &b) { return ulong3{(unsigned long)(a.x + b.x), (unsigned long)(a.y + b.y), (unsigned long)(a.z + b.z)}; }
inline ulong3 operator+(const ulong3 &a, unsigned long s) { return ulong3{(unsigned long)(a.x + s), (unsigned long)(a.y + s), (unsigned long)(a.z + s)}; }
inline ulong3 &operator+=(ulong3 &a, const ulong3 &b) { return a = a + b; }
inline ulong3 operator-(const ulong3 &a, const ulong3 &b) { return ulong3{(unsigned long)(a.x - b.x), (unsigned long)(a.y - b.y), (unsigned long)(a.z - b.z)}; }
inline ulong3 operator-(const ulong3 &a, unsigned long s) { return ulong3{(unsigned long)(a.x - s), (unsigned long)(a.y - s), (unsigned long)(a.z - s)}; }
inline ulong3 &operator-=(ulong3 &a, const ulong3 &b) { return a = a - b; }
inline ulong3 operator*(const ulong3 &a, const ulong3 &b) { return ulong3{(unsigned long)(a.x * b.x), (unsigned long)(a.y * b.y), (unsigned long)(a.z * b.z)}; }
inline ulong3 operator*(const ulong3 &a, unsigned long s) { return ulong3{(unsigned long)(a.x * s), (unsigned long)(a.y * s), (unsigned long)(a.z * s)}; }
inline ulong3 &operator*=(ulong3 &a, const ulong3 &b) { return a = a * b; }
inline ulong3 operator/(const ulong3 &a, const ulong3 &b) { return ulong3{(unsigned long)(a.x / b.x), (unsigned long)(a.y / b.y), (unsigned long)(a.z / b.z)}; }
inline ulong3 operator/(const ulong3 &a, unsigned long s) { return ulong3{(unsigned long)(a.x / s), (unsigned long)(a.y / s), (unsigned long)(a.z / s)}; }
inline ulong3 &operator/=(ulong3 &a, const ulong3 &b) { return a = a / b; }
inline bool operator==(const ulong3 &a, const ulong3 &b) { return a.x == b.x && a.y == b.y && a.z == b.z; }
inline ulong4 operator+(const ulong4 &a, const ulong4 &b) { return ulong4{(unsigned long)(a.x + b.x), (unsigned long)(a.y + b.y), (unsigned long)(a.z + b.z), (unsigned long)(a.w + b.w)}; }
inline ulong4 operator+(const ulong4 &a, unsigned long s) { return ulong4{(unsigned long)(a.x + s), (unsigned long)(a.y + s), (unsigned long)(a.z + s), (unsigned long)(a.w + s)}; }
inline ulong4 &operator+=(ulong4 &a, const ulong4 &b) { return a = a + b; }
inline ulong4 operator-(const ulong4 &a, const ulong4 &b) { return ulong4{(unsigned long)(a.x - b.x), (unsigned long)(a.y - b.y), (unsigned long)(a.z - b.z), (unsigned long)(a.w - b.w)}; }
inline ulong4 operator-(const ulong4 &a, unsigned long s) { return ulong4{(unsigned long)(a.x - s), (unsigned long)(a.y - s), (unsigned long)(a.z - s), (unsigned long)(a.w - s)}; }
inline ulong4 &operator-=(ulong4 &a, const ulong4 &b) { return a = a - b; }
inline ulong4 operator*(const ulong4 &a, const ulong4 &b) { return ulong4{(unsigned long)(a.x * b.x), (unsigned long)(a.y * b.y), (unsigned long)(a.z * b.z), (unsigned long)(a.w * b.w)}; }
inline ulong4 operator*(const ulong4 &a, unsigned long s) { return ulong4{(unsigned long)(a.x * s), (unsigned long)(a.y * s), (unsigned long)(a.z * s), (unsigned long)(a.w * s)}; }
inline ulong4 &operator*=(ulong4 &a, const ulong4 &b) { return a = a * b; }
inline ulong4 operator/(const ulong4 &a, const ulong4 &b) { return ulong4{(unsigned long)(a.x / b.x), (unsigned long)(a.y / b.y), (unsigned long)(a.z / b.z), (unsigned long)(a.w / b.w)}; }
inline ulong4 operator/(const ulong4 &a, unsigned long s) { return ulong4{(unsigned long)(a.x / s), (unsigned long)(a.y / s), (unsigned long)(a.z / s), (unsigned long)(a.w / s)}; }
inline ulong4 &operator/=(ulong4 &a, const ulong4 &b) { return a = a / b; }
inline bool operator==(const ulong4 &a, const ulong4 &b) { return a.x == b.x && a.y == b.y && a.z == b.z && a.w == b.w; }
inline longlong2 operator+(const longlong2 &a, const longlong2 &b) { return longlong2{(long long)(a.x + b.x), (long long)(a.y + b.y)}; }
inline longlong2 operator+(const longlong2 &a, long long s) { return longlong2{(long long)(a.x + s), (long long)(a.y + s)}; }
inline longlong2 &operator+=(longlong2 &a, const longlong2 &b) { return a = a + b; }
inline longlong2 operator-(const longlong2 &a, const longlong2 &b) { return longlong2{(long long)(a.x - b.x), (long long)(a.y - b.y)}; }
inline longlong2 operator-(const longlong2 &a, long long s) { return longlong2{(long long)(a.x - s), (long long)(a.y - s)}; }
inline longlong2 &operator-=(longlong2 &a, const longlong2 &b) { return a = a - b; }
inline longlong2 operator*(const longlong2 &a, const longlong2 &b) { return longlong2{(long long)(a.x * b.x), (long long)(a.y * b.y)}; }
inline longlong2 operator*(const longlong2 &a, long long s) { return longlong2{(long long)(a.x * s), (long long)(a.y * s)}; }
inline longlong2 &operator*=(longlong2 &a, const longlong2 &b) { return a = a * b; }
inline longlong2 operator/(const longlong2 &a, const longlong2 &b) { return longlong2{(long long)(a.x / b.x), (long long)(a.y / b.y)}; }
inline longlong2 operator/(const longlong2 &a, long long s) { return longlong2{(long long)(a.x / s), (long long)(a.y / s)}; }
inline longlong2 &operator/=(longlong2 &a, const longlong2 &b) { return a = a / b; }
inline bool operator==(const longlong2 &a, const longlong2 &b) { return a.x == b.x && a.y == b.y; }
inline longlong3 operator+(const longlong3 &a, const longlong3 &b) { return longlong3{(long long)(a.x + b.x), (long long)(a.y + b.y), (long long)(a.z + b.z)}; }
inline longlong3 operator+(const longlong3 &a, long long s) { return longlong3{(long long)(a.x + s), (long long)(a.y + s), (long long)(a.z + s)}; }
inline longlong3 &operator+=(longlong3 &a, const longlong3 &b) { return a = a + b; }
inline longlong3 operator-(const longlong3 &a, const longlong3 &b) { return longlong3{(long long)(a.x - b.x), (long long)(a.y - b.y), (long long)(a.z - b.z)}; }
inline longlong3 operator-(const longlong3 &a, long long s) { return longlong3{(long long)(a.x - s), (long long)(a.y - s), (long long)(a.z - s)}; }
inline longlong3 &operator-=(longlong3 &a, const longlong3 &b) { return a = a - b; }
inline longlong3 operator*(const longlong3 &a, const longlong3 &b) { return longlong3{(long long)(a.x * b.x), (long long)(a.y * b.y), (long long)(a.z * b.z)}; }
inline longlong3 operator*(const longlong3 &a, long long s) { return longlong3{(long long)(a.x * s), (long long)(a.y * s), (long long)(a.z * s)}; }
inline longlong3 &operator*=(longlong3 &a, const longlong3 &b) { return a = a * b; }
inline longlong3 operator/(const longlong3 &a, const longlong3 &b) { return longlong3{(long long)(a.x / b.x), (long long)(a.y / b.y), (long long)(a.z / b.z)}; }
inline longlong3 operator/(const longlong3 &a, long long s) { return longlong3{(long long)(a.x / s), (long long)(a.y / s), (long long)(a.z / s)}; }
inline longlong3 &operator/=(longlong3 &a, const longlong3 &b) { return a = a / b; }
inline bool operator==(const longlong3 &a, const longlong3 &b) { return a.x == b.x && a.y == b.y && a.z == b.z; }
inline longlong4 operator+(const longlong4 &a, const longlong4 &b) { return longlong4{(long long)(a.x + b.x), (long long)(a.y + b.y), (long long)(a.z + b.z), (long long)(a.w + b.w)}; }
inline longlong4 operator+(const longlong4 &a, long long s) { return longlong4{(long long)(a.x + s), (long long)(a.y + s), (long long)(a.z + s), (long long)(a.w + s)}; }
inline longlong4 &operator+=(longlong4 &a, const longlong4 &b) { return a = a + b; }
inline longlong4 operator-(const longlong4 &a, const longlong4 &b) { return longlong4{(long long)(a.x - b.x), (long long)(a.y - b.y), (long long)(a.z - b.z), (long long)(a.w - b.w)}; }
inline longlong4 operator-(const longlong4 &a, long long s) { return longlong4{(long long)(a.x - s), (long long)(a.y - s), (long long)(a.z - s), (long long)(a.w - s)}; }
inline longlong4 &operator-=(longlong4 &a, const longlong4 &b) { return a = a - b; }
inline longlong4 operator*(const longlong4 &a, const longlong4 &b) { return longlong4{(long long)(a.x * b.x), (long long)(a.y * b.y), (long long)(a.z * b.z), (long long)(a.w * b.w)}; }
inline longlong4 operator*(const longlong4 &a, long long s) { return longlong4{(long long)(a.x * s), (long long)(a.y * s), (long long)(a.z * s), (long long)(a.w * s)}; }
inline longlong4 &operator*=(longlong4 &a, const longlong4 &b) { return a = a * b; }
inline longlong4 operator/(const longlong4 &a, const longlong4 &b) { return longlong4{(long long)(a.x / b.x), (long long)(a.y / b.y), (long long)(a.z / b.z), (long long)(a.w / b.w)}; }
inline longlong4 operator/(const longlong4 &a, long long s) { return longlong4{(long long)(a.x / s), (long long)(a.y / s), (long long)(a.z / s), (long long)(a.w / s)}; }
inline longlong4 &operator/=(longlong4 &a, const longlong4 &b) { return a = a / b; }
inline bool operator==(const longlong4 &a, const longlong4 &b) { return a.x == b.x && a.y == b.y && a.z == b.z && a.w == b.w; }
inline ulonglong2 operator+(const ulonglong2 &a, const ulonglong2 &b) { return ulonglong2{(unsigned long long)(a.x + b.x), (unsigned long long)(a.y + b.y)}; }
inline ulonglong2 operator+(const ulonglong2 &a, unsigned long long s) { return ulonglong2{(unsigned long long)(a.x + s), (unsigned long long)(a.y + s)}; }
inline ulonglong2 &operator+=(ulonglong2 &a, const ulonglong2 &b) { return a = a + b; }
inline ulonglong2 operator-(const ulonglong2 &a, const ulonglong2 &b) { return ulonglong2{(unsigned long long)(a.x - b.x), (unsigned long long)(a.y - b.y)}; }
inline ulonglong2 operator-(const ulonglong2 &a, unsigned long long s) { return ulonglong2{(unsigned long long)(a.x - s), (unsigned long long)(a.y - s)}; }
inline ulonglong2 &operator-=(ulonglong2 &a, const ulonglong2 &b) { return a = a - b; }
inline ulonglong2 operator*(const ulonglong2 &a, const ulonglong2 &b) { return ulonglong2{(unsigned long long)(a.x * b.x), (unsigned long long)(a.y * b.y)}; }
inline ulonglong2 operator*(const ulonglong2 &a, unsigned long long s) { return ulonglong2{(unsigned long long)(a.x * s), (unsigned long long)(a.y * s)}; }
inline ulonglong2 &operator*=(ulonglong2 &a, const ulonglong2 &b) { return a = a * b; }
inline ulonglong2 operator/(const ulonglong2 &a, const ulonglong2 &b) { return ulonglong2{(unsigned long long)(a.x / b.x), (unsigned long long)(a.y / b.y)}; }
inline ulonglong2 operator/(const ulonglong2 &a, unsigned long long s) { return ulonglong2{(unsigned long long)(a.x / s), (unsigned long long)(a.y / s)}; }
inline ulonglong2 &operator/=(ulonglong2 &a, const ulonglong2 &b) { return a = a / b; }
inline bool operator==(const ulonglong2 &a, const ulonglong2 &b) { return a.x == b.x && a.y == b.y; }
inline ulonglong3 operator+(const ulonglong3 &a, const ulonglong3 &b) { return ulonglong3{(unsigned long long)(a.x + b.x), (unsigned long long)(a.y + b.y), (unsigned long long)(a.z + b.z)}; }
inline ulonglong3 operator+(const ulonglong3 &a, unsigned long long s) { return ulonglong3{(unsigned long long)(a.x + s), (unsigned long long)(a.y + s), (unsigned long long)(a.z + s)}; }
inline ulonglong3 &operator+=(ulonglong3 &a, const ulonglong3 &b) { return a = a + b; }
inline ulonglong3 operator-(const ulonglong3 &a, const ulonglong3 &b) { return ulonglong3{(unsigned long long)(a.x - b.x), (unsigned long long)(a.y - b.y), (unsigned long long)(a.z - b.z)}; }
inline ulonglong3 operator-(const ulonglong3 &a, unsigned long long s) { return ulonglong3{(unsigned long long)(a.x - s), (unsigned long long)(a.y - s), (unsigned long long)(a.z - s)}; }
inline ulonglong3 &operator-=(ulonglong3 &a, const ulonglong3 &b) { return a = a - b; }
inline ulonglong3 operator*(const ulonglong3 &a, const ulonglong3 &b) { return ulonglong3{(unsigned long long)(a.x * b.x), (unsigned long long)(a.y * b.y), (unsigned long long)(a.z * b.z)}; }
inline ulonglong3 operator*(const ulonglong3 &a, unsigned long long s) { return ulonglong3{(unsigned long long)(a.x * s), (unsigned long long)(a.y * s), (unsigned long long)(a.z * s)}; }
inline ulonglong3 &operator*=(ulonglong3 &a, const ulonglong3 &b) { return a = a * b; }
inline ulonglong3 operator/(const ulonglong3 &a, const ulonglong3 &b) { return ulonglong3{(unsigned long long)(a.x / b.x), (unsigned long long)(a.y / b.y), (unsigned long long)(a.z / b.z)}; }
inline ulonglong3 operator/(const ulonglong3 &a, unsigned long long s) { return ulonglong3{(unsigned long long)(a.x / s), (unsigned long long)(a.y / s), (unsigned long long)(a.z / s)}; }
inline ulonglong3 &operator/=(ulonglong3 &a, const ulonglong3 &b) { return a = a / b; }
inline bool operator==(const ulonglong3 &a, const ulonglong3 &b) { return a.x == b.x && a.y == b.y && a.z == b.z; }
inline ulonglong4 operator+(const ulonglong4 &a, const ulonglong4 &b) { return ulonglong4{(unsigned long long)(a.x + b.x), (unsigned long long)(a.y + b.y), (unsigned long long)(a.z + b.z), (unsigned long long)(a.w + b.w)}; }
inline ulonglong4 operator+(const ulonglong4 &a, unsigned long long s) { return ulonglong4{(unsigned long long)(a.x + s), (unsigned long long)(a.y + s), (unsigned long long)(a.z + s), (unsigned long long)(a.w + s)}; }
inline ulonglong4 &operator+=(ulonglong4 &a, const ulonglong4 &b) { return a = a + b; }
inline ulonglong4 operator-(const ulonglong4 &a, const ulonglong4 &b) { return ulonglong4{(unsigned long long)(a.x - b.x), (unsigned long long)(a.y - b.y), (unsigned long long)(a.z - b.z), (unsigned long long)(a.w - b.w)}; }
inline ulonglong4 operator-(const ulonglong4 &a, unsigned long long s) { return ulonglong4{(unsigned long long)(a.x - s), (unsigned long long)(a.y - s), (unsigned long long)(a.z - s), (unsigned long long)(a.w - s)}; }
inline ulonglong4 &operator-=(ulonglong4 &a, const ulonglong4 &b) { return a = a - b; }
inline ulonglong4 operator*(const ulonglong4 &a, const ulonglong4 &b) { return ulonglong4{(unsigned long long)(a.x * b.x), (unsigned long long)(a.y * b.y), (unsigned long long)(a.z * b.z), (unsigned long long)(a.w * b.w)}; }
inline ulonglong4 operator*(const ulonglong4 &a, unsigned long long s) { return ulonglong4{(unsigned long long)(a.x * s), (unsigned long long)(a.y * s), (unsigned long long)(a.z * s), (unsigned long long)(a.w * s)}; }
inline ulonglong4 &operator*=(ulonglong4 &a, const ulonglong4 &b) { return a = a * b; }
inline ulonglong4 operator/(const ulonglong4 &a, const ulonglong4 &b) { return ulonglong4{(unsigned long long)(a.x / b.x), (unsigned long long)(a.y / b.y), (unsigned long long)(a.z / b.z), (unsigned long long)(a.w / b.w)}; }
inline ulonglong4 operator/(const ulonglong4 &a, unsigned long long s) { return ulonglong4{(unsigned long long)(a.x / s), (unsigned long long)(a.y / s), (unsigned long long)(a.z / s), (unsigned long long)(a.w / s)}; }
inline ulonglong4 &operator/=(ulonglong4 &a, const ulonglong4 &b) { return a = a / b; }
inline bool operator==(const ulonglong4 &a, const ulonglong4 &b) { return a.x == b.x && a.y == b.y && a.z == b.z && a.w == b.w; }
inline float2 operator+(const float2 &a, const float2 &b) { return float2{(float)(a.x + b.x), (float)(a.y + b.y)}; }
inline float2 operator+(const float2 &a, float s) { return float2{(float)(a.x + s), (float)(a.y + s)}; }
inline float2 &operator+=(float2 &a, const float2 &b) { return a = a + b; }
inline float2 operator-(const float2 &a, const float2 &b) { return float2{(float)(a.x - b.x), (float)(a.y - b.y)}; }
inline float2 operator-(const float2 &a, float s) { return float2{(float)(a.x - s), (float)(a.y - s)}; }
inline float2 &operator-=(float2 &a, const float2 &b) { return a = a - b; }
inline float2 operator*(const float2 &a, const float2 &b) { return float2{(float)(a.x * b.x), (float)(a.y * b.y)}; }
inline float2 operator*(const float2 &a, float s) { return float2{(float)(a.x * s), (float)(a.y * s)}; }
inline float2 &operator*=(float2 &a, const float2 &b) { return a = a * b; }
inline float2 operator/(const float2 &a, const float2 &b) { return float2{(float)(a.x / b.x), (float)(a.y / b.y)}; }
inline float2 operator/(const float2 &a, float s) { return float2{(float)(a.x / s), (float)(a.y / s)}; }
inline float2 &operator/=(float2 &a, const float2 &b) { return a = a / b; }
inline bool operator==(const float2 &a, const float2 &b) { return a.x == b.x && a.y == b.y; }
inline float3 operator+(const float3 &a, const float3 &b) { return float3{(float)(a.x + b.x), (float)(a.y + b.y), (float)(a.z + b.z)}; }
inline float3 operator+(const float3 &a, float s) { return float3{(float)(a.x + s), (float)(a.y + s), (float)(a.z + s)}; }
inline float3 &operator+=(float3 &a, const float3 &b) { return a = a + b; }
inline float3 operator-(const float3 &a, const float3 &b) { return float3{(float)(a.x - b.x), (float)(a.y - b.y), (float)(a.z - b.z)}; }
inline float3 operator-(const float3 &a, float s) { return float3{(float)(a.x - s), (float)(a.y - s), (float)(a.z - s)}; }
inline float3 &operator-=(float3 &a, const float3 &b) { return a = a - b; }
inline float3 operator*(const float3 &a, const float3 &b) { return float3{(float)(a.x * b.x), (float)(a.y * b.y), (float)(a.z * b.z)}; }
inline float3 operator*(const float3 &a, float s) { return float3{(float)(a.x * s), (float)(a.y * s), (float)(a.z * s)}; }
inline float3 &operator*=(float3 &a, const float3 &b) { return a = a * b; }
inline float3 operator/(const float3 &a, const float3 &b) { return float3{(float)(a.x / b.x), (float)(a.y / b.y), (float)(a.z / b.z)}; }
inline float3 operator/(const float3 &a, float s) { return float3{(float)(a.x / s), (float)(a.y / s), (float)(a.z / s)}; }
inline float3 &operator/=(float3 &a, const float3 &b) { return a = a / b; }
inline bool operator==(const float3 &a, const float3 &b) { return a.x == b.x && a.y == b.y && a.z == b.z; }
inline float4 operator+(const float4 &a, const float4 &b) { return float4{(float)(a.x + b.x), (float)(a.y + b.y), (float)(a.z + b.z), (float)(a.w + b.w)}; }
inline float4 operator+(const float4 &a, float s) { return float4{(float)(a.x + s), (float)(a.y + s), (float)(a.z + s), (float)(a.w + s)}; }
inline float4 &operator+=(float4 &a, const float4 &b) { return a = a + b; }
inline float4 operator-(const float4 &a, const float4 &b) { return float4{(float)(a.x - b.x), (float)(a.y - b.y), (float)(a.z - b.z), (float)(a.w - b.w)}; }
inline float4 operator-(const float4 &a, float s) { return float4{(float)(a.x - s), (float)(a.y - s), (float)(a.z - s), (float)(a.w - s)}; }
inline float4 &operator-=(float4 &a, const float4 &b) { return a = a - b; }
inline float4 operator*(const float4 &a, const float4 &b) { return float4{(float)(a.x * b.x), (float)(a.y * b.y), (float)(a.z * b.z), (float)(a.w * b.w)}; }
inline float4 operator*(const float4 &a, float s) { return float4{(float)(a.x * s), (float)(a.y * s), (float)(a.z * s), (float)(a.w * s)}; }
inline float4 &operator*=(float4 &a, const float4 &b) { return a = a * b; }
inline float4 operator/(const float4 &a, const float4 &b) { return float4{(float)(a.x / b.x), (float)(a.y / b.y), (float)(a.z / b.z), (float)(a.w / b.w)}; }
inline float4 operator/(const float4 &a, float s) { return float4{(float)(a.x / s), (float)(a.y / s), (float)(a.z / s), (float)(a.w / s)}; }
inline float4 &operator/=(float4 &a, const float4 &b) { return a = a / b; }
inline bool operator==(const float4 &a, const float4 &b) { return a.x == b.x && a.y == b.y && a.z == b.z && a.w == b.w; }
inline double2 operator+(const double2 &a, const double2 &b) { return double2{(double)(a.x + b.x), (double)(a.y + b.y)}; }
inline double2 operator+(const double2 &a, double s) { return double2{(double)(a.x + s), (double)(a.y + s)}; }
inline double2 &operator+=(double2 &a, const double2 &b) { return a = a + b; }
inline double2 operator-(const double2 &a, const double2 &b) { return double2{(double)(a.x - b.x), (double)(a.y - b.y)}; }
inline double2 operator-(const double2 &a, double s) { return double2{(double)(a.x - s), (double)(a.y - s)}; }
inline double2 &operator-=(double2 &a, const double2 &b) { return a = a - b; }
inline double2 operator*(const double2 &a, const double2 &b) { return double2{(double)(a.x * b.x), (double)(a.y * b.y)}; }
inline double2 operator*(const double2 &a, double s) { return double2{(double)(a.x * s), (double)(a.y * s)}; }
inline double2 &operator*=(double2 &a, const double2 &b) { return a = a * b; }
inline double2 operator/(const double2 &a, const double2 &b) { return double2{(double)(a.x / b.x), (double)(a.y / b.y)}; }
inline double2 operator/(const double2 &a, double s) { return double2{(double)(a.x / s), (double)(a.y / s)}; }
inline double2 &operator/=(double2 &a, const double2 &b) { return a = a / b; }
inline bool operator==(const double2 &a, const double2 &b) { return a.x == b.x && a.y == b.y; }
inline double3 operator+(const double3 &a, const double3 &b) { return double3{(double)(a.x + b.x), (double)(a.y + b.y), (double)(a.z + b.z)}; }
inline double3 operator+(const double3 &a, double s) { return double3{(double)(a.x + s), (double)(a.y + s), (double)(a.z + s)}; }
inline double3 &operator+=(double3 &a, const double3 &b) { return a = a + b; }
inline double3 operator-(const double3 &a, const double3 &b) { return double3{(double)(a.x - b.x), (double)(a.y - b.y), (double)(a.z - b.z)}; }
inline double3 operator-(const double3 &a, double s) { return double3{(double)(a.x - s), (double)(a.y - s), (double)(a.z - s)}; }
inline double3 &operator-=(double3 &a, const double3 &b) { return a = a - b; }
inline double3 operator*(const double3 &a, const double3 &b) { return double3{(double)(a.x * b.x), (double)(a.y * b.y), (double)(a.z * b.z)}; }
inline double3 operator*(const double3 &a, double s) { return double3{(double)(a.x * s), (double)(a.y * s), (double)(a.z * s)}; }
inline double3 &operator*=(double3 &a, const double3 &b) { return a = a * b; }
inline double3 operator/(const double3 &a, const double3 &b) { return double3{(double)(a.x / b.x), (double)(a.y / b.y), (double)(a.z / b.z)}; }
inline double3 operator/(const double3 &a, double s) { return double3{(double)(a.x / s), (double)(a.y / s), (double)(a.z / s)}; }
inline double3 &operator/=(double3 &a, const double3 &b) { return a = a / b; }
inline bool operator==(const double3 &a, const double3 &b) { return a.x == b.x && a.y == b.y && a.z == b.z; }
inline double4 operator+(const double4 &a, const double4 &b) { return double4{(double)(a.x + b.x), (double)(a.y + b.y), (double)(a.z + b.z), (double)(a.w + b.w)}; }
inline double4 operator+(const double4 &a, double s) { return double4{(double)(a.x + s), (double)(a.y + s), (double)(a.z + s), (double)(a.w + s)}; }
inline double4 &operator+=(double4 &a, const double4 &b) { return a = a + b; }
inline double4 operator-(const double4 &a, const double4 &b) { return double4{(double)(a.x - b.x), (double)(a.y - b.y), (double)(a.z - b.z), (double)(a.w - b.w)}; }
inline double4 operator-(const double4 &a, double s) { return double4{(double)(a.x - s), (double)(a.y - s), (double)(a.z - s), (double)(a.w - s)}; }
inline double4 &operator-=(double4 &a, const double4 &b) { return a = a - b; }
inline double4 operator*(const double4 &a, const double4 &b) { return double4{(double)(a.x * b.x), (double)(a.y * b.y), (double)(a.z * b.z), (double)(a.w * b.w)}; }
inline double4 operator*(const double4 &a, double s) { return double4{(double)(a.x * s), (double)(a.y * s), (double)(a.z * s), (double)(a.w * s)}; }
inline double4 &operator*=(double4 &a, const double4 &b) { return a = a * b; }
inline double4 operator/(const double4 &a, const double4 &b) { return double4{(double)(a.x / b.x), (double)(a.y / b.y), (double)(a.z / b.z), (double)(a.w / b.w)}; }
inline double4 operator/(const double4 &a, double s) { return double4{(double)(a.x / s), (double)(a.y / s), (double)(a.z / s), (double)(a.w / s)}; }
inline double4 &operator/=(double4 &a, const double4 &b) { return a = a / b; }
inline bool operator==(const double4 &a, const double4 &b) { return a.x == b.x && a.y == b.y && a.z == b.z && a.w == b.w; }
#endif
#endif
