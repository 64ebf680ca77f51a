/* prep.h — preparing a kernel source for the SIMT CPU executor (src/sim): the
 * source transformations the executor's shims rely on.
 *
 * Owned by the xform module (prefix tt_xf_; files prep*.c).  Used by `tiletrans
 * check` (src/checker/side.c), the tests' and bench/sim's preparation tool
 * (tests/sim/prep_main.c) and tests/sim/test_sim_prep.c.  Nothing here calls the
 * executor: the output names the macros and functions of its shim headers
 * (TT_SIM_SHARED, TT_SIM_CO_*, TT_SIM_RG_*, ::tt_sim::chain_probe, ...), which
 * src/sim/include defines.
 *
 * Ownership: the text stored in *out is malloc'd and owned by the caller (free()).
 * No global state; safe to call from several threads at once. */
#ifndef TT_XF_PREP_H
#define TT_XF_PREP_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Rewrites the `__shared__` declarations of a kernel source so that they live
 * in the per-block shared arena: `__shared__ float s[2][64];` becomes
 * `TT_SIM_SHARED(s, 0, ([2][64]), float);`, `extern __shared__ float d[];`
 * becomes `TT_SIM_SHARED_EXTERN(d, 0, ([]), float);` (the 0 is the
 * __align__ value).
 *
 * It also rewrites "shuffle chain" loops, `for (H) x op= SHFL(x, ...);` (op
 * one of + - * & | ^) and `for (H) x = E;` (E: one SHFL(x, ...), and
 * otherwise only x, numbers, operators but / and %,
 * max/min/fmaxf/fminf/fmax/fmin/std::,
 * __hadd/__hmax/__hmin/__fadd_rn/__dadd_rn/__fmul_rn), with or without
 * braces around the statement, where SHFL is __shfl[_up|_down|_xor][_sync]
 * or a tile's .shfl[_up|_down|_xor], into
 *   { bool tt_sim_cd_ = false; if (::tt_sim::chain_ok<decltype(x)>()) {
 *     ::tt_sim::chain_probe tt_sim_cp_; for (H) (void)(SHFL(x, ...));
 *     if (tt_sim_cp_.complete()) { x = tt_sim_cp_.run(x, <captureless lambda
 *     (tt_sim_a_, tt_sim_r_) computing the update>); tt_sim_cd_ = true; } }
 *     if (!tt_sim_cd_) <the loop> }
 * so that the runtime can run the steps as one warp collective.  Only loops
 * in which nothing but x changes qualify: H's init assigns (the loop may run
 * again from the start), H and the other shuffle arguments do not mention x,
 * call functions (sizeof and a group's size() aside) or name warp
 * collectives, the arguments assign nothing, the shuffle is not conditional
 * (after ?, && or ||), and the loop holds no comment, literal or
 * preprocessor line.  Anything else is left as it is.  The rewrite is one
 * line, on the line of the shuffle, with the loop's other newlines before and
 * after it; a `#pragma unroll` right before the loop is dropped (its line
 * stays, empty).
 *
 * Third, it makes a `__global__ void` kernel a C++20 coroutine when all it
 * waits for is in its own body: `void` becomes TT_SIM_CO_KERNEL (also in the
 * kernel's `__global__` prototypes and explicit instantiations),
 * `__syncthreads`, `__syncthreads_count`, `_and` and `_or` become
 * TT_SIM_CO_SYNCTHREADS, TT_SIM_CO_SYNCTHREADS_COUNT, `_AND` and `_OR` (the
 * arguments stay), every `return` of the body outside lambdas and local
 * classes becomes TT_SIM_CO_RETURN, and each chain loop in it takes the form
 *   { bool tt_sim_cd_ = false; if (::tt_sim::chain_ok<decltype(x)>()) {
 *     { ::tt_sim::chain_probe tt_sim_cp_; for (H) (void)(SHFL(x, ...));
 *       if (tt_sim_cp_.complete()) { TT_SIM_CO_CHAIN(x, tt_sim_cp_, <the
 *       lambda>); tt_sim_cd_ = true; } }
 *     if (!tt_sim_cd_) { for (H) { ::tt_sim::chain_probe tt_sim_cp_;
 *       (void)(SHFL(x, ...)); (void)tt_sim_cp_.complete();
 *       TT_SIM_CO_CHAIN(x, tt_sim_cp_, <the lambda>); } tt_sim_cd_ = true; } }
 *     if (!tt_sim_cd_) <the loop> }
 * (one line, placed as above).  The shims define these macros so that the
 * text is a coroutine under C++20 and the plain kernel otherwise.  A kernel
 * qualifies when its body calls a __syncthreads* or holds a chain loop; names
 * no other warp collective (__shfl*, __ballot*, __any*, __all*, __syncwarp,
 * __match*, __reduce*, __activemask, AMD wave barriers) outside its chain
 * loops, no cooperative-groups name or blocking member call (.sync(),
 * .shfl*(), .ballot(), .any(), .all(), .match_any(), .match_all()); holds no
 * co_await/co_return/co_yield, TT_SIM_CO_* name, setjmp/longjmp, asm, alloca
 * or #include; has no barrier or chain loop in a lambda or local class;
 * names no function or lambda variable defined in the file (matched by
 * name: one overload that does counts for all) that synchronises or names a
 * collective, directly or through further such functions, and no macro
 * defined in the file that does or that expands to `return`; has no C
 * varargs, is not constexpr, and lexes cleanly from its first token to its
 * `}` (no stray characters, brackets nest).  Its name must not appear in the file outside
 * host-function bodies except as the name of its definitions and of
 * `__global__` declarations, all of which must qualify (a declaration
 * without a visible `void`, such as an explicit specialisation, keeps every
 * kernel of that name on fibers).  Calls of functions the file does not
 * define are allowed; the runtime fails a launch that blocks inside one
 * with TT_SIM_ERR_NEEDS_FIBERS.  Chain loops elsewhere keep the form above.
 * Prepared text prepares to itself.
 *
 * Fourth, such a coroutine kernel also gets a region form when its shape
 * allows (see src/sim/README.md, "Region kernels", and prep_rg.c):
 * right after its leading __shared__ declarations (or its `{`) goes
 *   if (TT_SIM_RG_ENTER()) { [&] { <the body as loops over the block's
 *   threads between its barriers and chains> }(); TT_SIM_CO_RETURN; }
 * on lines of its own, each copied statement after a `#line` naming its
 * line, and a `#line` back to the line it was inserted on after it.  It runs
 * when cfg.regions is set.
 *
 * Everything else (comments, strings, line numbers) is kept byte for byte:
 * the region forms add lines, but every line after one keeps its number.
 * Write the result with a first line
 * `#line 1 "<original path>"` so reports name the original file.  Every file
 * with __shared__ declarations must be prepared (also included headers): an
 * unprepared __shared__ fails to compile with a message saying so.
 * On success returns 0 and stores a malloc'd NUL-terminated text in *out
 * (caller frees).  On failure returns -1 and writes "line N: why" to err. */
int tt_xf_prepare_source(const char *text, size_t len, char **out, char *err, size_t errlen);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TT_XF_PREP_H */
