// mma.h — tensor-core WMMA cannot run on the tt_sim CPU executor.
//
// Real files include <mma.h> for some kernels and not others (bitsandbytes' kernels.cu):
// the include and `using namespace nvcuda;` build, and a kernel that uses a fragment or
// one of the *_sync operations fails its build with a message naming wmma. Each name is
// a template whose static_assert fires only when a kernel instantiates it.
#ifndef TT_SIM_MMA_H
#define TT_SIM_MMA_H

namespace nvcuda {
namespace wmma {

template <class... T> struct tt_sim_wmma_used {
  static constexpr bool value = false;
};
#define TT_SIM_WMMA_UNSUPPORTED                                                                                  \
  "tt_sim: nvcuda::wmma (tensor-core fragments, <mma.h>) is not supported by the CPU executor; port this " \
  "kernel by hand"

struct matrix_a;
struct matrix_b;
struct accumulator;
struct row_major;
struct col_major;
enum layout_t { mem_row_major, mem_col_major };
namespace precision {
struct tf32;
struct b1;
struct s4;
struct u4;
}  // namespace precision
namespace experimental {
namespace precision {
struct b1;
struct s4;
struct u4;
}  // namespace precision
}  // namespace experimental

template <class Use, int M, int N, int K, class T, class Layout = void> struct fragment {
  static_assert(tt_sim_wmma_used<Use, T, Layout>::value, TT_SIM_WMMA_UNSUPPORTED);
};
template <class... A> inline void fill_fragment(A &&...) { static_assert(tt_sim_wmma_used<A...>::value, TT_SIM_WMMA_UNSUPPORTED); }
template <class... A> inline void load_matrix_sync(A &&...) { static_assert(tt_sim_wmma_used<A...>::value, TT_SIM_WMMA_UNSUPPORTED); }
template <class... A> inline void store_matrix_sync(A &&...) { static_assert(tt_sim_wmma_used<A...>::value, TT_SIM_WMMA_UNSUPPORTED); }
template <class... A> inline void mma_sync(A &&...) { static_assert(tt_sim_wmma_used<A...>::value, TT_SIM_WMMA_UNSUPPORTED); }
template <class... A> inline void bmma_sync(A &&...) { static_assert(tt_sim_wmma_used<A...>::value, TT_SIM_WMMA_UNSUPPORTED); }
template <class... A> inline float __float_to_tf32(A &&...) {
  static_assert(tt_sim_wmma_used<A...>::value, TT_SIM_WMMA_UNSUPPORTED);
  return 0;
}

#undef TT_SIM_WMMA_UNSUPPORTED
}  // namespace wmma
}  // namespace nvcuda

#endif
