/* tt_sim_prepare_source(): the rewrite of __shared__ declarations keeps
 * everything else (and every line number) unchanged. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "tt_sim.h"

static char *prep(const char *src)
{
    char *out = NULL, err[256] = "";
    int rc = tt_sim_prepare_source(src, strlen(src), &out, err, sizeof err);
    cr_assert_eq(rc, 0, "prepare failed: %s", err);
    return out;
}

static int lines(const char *s)
{
    int n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

Test(prep, static_array_in_kernel)
{
    char *o = prep("__global__ void k() {\n    __shared__ float s[2][64];\n    s[0][0] = 1;\n}\n");
    cr_expect(strstr(o, "TT_SIM_SHARED(s, 0, ([2][64]), float);") != NULL, "%s", o);
    cr_expect_eq(lines(o), 4);
    free(o);
}

Test(prep, extern_aligned_and_templates)
{
    const char *src =
        "template <int N> __global__ void k() {\n"
        "  extern __shared__ __align__(16) unsigned char smem[];\n"
        "  __shared__ typename cub::BlockReduce<float, N>::TempStorage tmp;\n"
        "  __shared__ float a[N], b[N]; // two\n"
        "  __shared__ volatile int\n    flag;\n"
        "}\n";
    char *o = prep(src);
    cr_expect(strstr(o, "TT_SIM_SHARED_EXTERN(smem, 16, ([]), unsigned char);"), "%s", o);
    cr_expect(strstr(o, "TT_SIM_SHARED(tmp, 0, (), typename cub::BlockReduce<float, N>::TempStorage);"), "%s", o);
    cr_expect(strstr(o, "TT_SIM_SHARED(a, 0, ([N]), float); TT_SIM_SHARED(b, 0, ([N]), float); // two"), "%s", o);
    cr_expect(strstr(o, "TT_SIM_SHARED(flag, 0, (), volatile int);\n"), "%s", o);
    cr_expect_eq(lines(o), lines(src));
    free(o);
}

Test(prep, comments_strings_and_namespace_scope)
{
    const char *src =
        "// __shared__ float not_me[4];\n"
        "const char *s = \"__shared__ int x;\";\n"
        "__shared__ float g[8];\n"
        "#define __shared__ __attribute__((shared))\n"
        "void f() { __shared__ int c; }\n";
    char *o = prep(src);
    cr_expect(strstr(o, "// __shared__ float not_me[4];"), "%s", o);
    cr_expect(strstr(o, "\"__shared__ int x;\""), "%s", o);
    cr_expect(strstr(o, "TT_SIM_SHARED_GLOBAL(g, 0, ([8]), float);"), "%s", o);
    cr_expect(strstr(o, "#define __shared__ __attribute__((shared))"), "%s", o);
    cr_expect(strstr(o, "TT_SIM_SHARED(c, 0, (), int);"), "%s", o);
    free(o);
}

Test(prep, initializer_is_an_error)
{
    char *out = NULL, err[256] = "";
    const char *src = "void f() {\n __shared__ int c = 0;\n}\n";
    cr_expect_eq(tt_sim_prepare_source(src, strlen(src), &out, err, sizeof err), -1);
    cr_expect(strstr(err, "line 2") != NULL, "%s", err);
}

/* ---- shuffle chains ------------------------------------------------------ */

#define CHAIN_HEAD(X)                                                                         \
    "{ bool tt_sim_cd_ = false; if (::tt_sim::chain_ok<decltype(" X ")>()) { "                \
    "::tt_sim::chain_probe tt_sim_cp_; for ("
#define CHAIN_RUN(X)                                                                          \
    "if (tt_sim_cp_.complete()) { "                                                           \
    X " = tt_sim_cp_.run(" X ", [](::tt_sim::chain_t<decltype(" X ")> tt_sim_a_, "            \
    "::tt_sim::chain_t<decltype(" X ")> tt_sim_r_) -> ::tt_sim::chain_t<decltype(" X ")> { "

/* src prepares to exactly want. */
static void expect_prepared(const char *src, const char *want)
{
    char *o = prep(src);
    cr_expect_str_eq(o, want);
    free(o);
}

/* A source the chain rewrite must leave exactly as it is. */
static void expect_unchanged(const char *src)
{
    expect_prepared(src, src);
}

/* Line n (1-based) of s, in a static buffer. */
static const char *line_at(const char *s, int n)
{
    static char buf[1024];
    for (; n > 1 && *s; s++)
        n -= *s == '\n';
    size_t l = strcspn(s, "\n");
    l = l < sizeof buf - 1 ? l : sizeof buf - 1;
    memcpy(buf, s, l);
    buf[l] = 0;
    return buf;
}

Test(prep, chain_compound_assignment)
{
    const char *src = "    for (int o = warpSize / 2; o > 0; o /= 2)\n"
                      "        v += __shfl_down(v, o);\n";
    const char *want =
        "    \n"
        CHAIN_HEAD("v") "int o = warpSize / 2; o > 0; o /= 2) (void)(__shfl_down(v, o)); "
        CHAIN_RUN("v") "tt_sim_a_ += tt_sim_r_; return tt_sim_a_; }); tt_sim_cd_ = true; } } "
        "if (!tt_sim_cd_) for (int o = warpSize / 2; o > 0; o /= 2) v += __shfl_down(v, o); }\n";
    expect_prepared(src, want);
}

Test(prep, chain_expression_with_sync_shuffle)
{
    const char *src = "for (int mask = 16; mask > 0; mask >>= 1) "
                      "val = fmaxf(val, __shfl_xor_sync(0xffffffff, val, mask));\n";
    const char *want =
        CHAIN_HEAD("val") "int mask = 16; mask > 0; mask >>= 1) (void)(__shfl_xor_sync(0xffffffff, val, mask)); "
        CHAIN_RUN("val") "return fmaxf(tt_sim_a_, tt_sim_r_); }); tt_sim_cd_ = true; } } "
        "if (!tt_sim_cd_) for (int mask = 16; mask > 0; mask >>= 1) val = fmaxf(val, __shfl_xor_sync(0xffffffff, val, mask)); }\n";
    expect_prepared(src, want);
}

Test(prep, chain_braced_body_and_whitelisted_expression)
{
    const char *src = "for (int o = 1; o < 32; o <<= 1) { s = std::max(s * 2, 1 + __shfl_up(s, o, 32)); }\n"
                      "for (int o = 1; o < 32; o <<= 1) b = __shfl_xor(b, o) != b ? 1 : 0;\n";
    char *o = prep(src);
    cr_expect(strstr(o, "return std::max(tt_sim_a_ * 2, 1 + tt_sim_r_); }); tt_sim_cd_ = true; } } "
                        "if (!tt_sim_cd_) for (int o = 1; o < 32; o <<= 1) { s = std::max(s * 2, 1 + __shfl_up(s, o, 32)); } }\n"),
              "%s", o);
    cr_expect(strstr(o, "{ return tt_sim_r_ != tt_sim_a_ ? 1 : 0; })"), "%s", o);
    cr_expect_eq(lines(o), 2);
    free(o);
}

Test(prep, chain_cooperative_groups_member)
{
    const char *src = "for (int o = 16; o > 0; o /= 2) v *= g.shfl_down(v, o);\n"
                      "for (int o = 16; o > 0; o /= 2) w ^= t->shfl_xor(w, o);\n";
    char *o = prep(src);
    cr_expect(strstr(o, "for (int o = 16; o > 0; o /= 2) (void)(g.shfl_down(v, o)); if (tt_sim_cp_.complete()) { v = tt_sim_cp_.run(v,"), "%s", o);
    cr_expect(strstr(o, "{ tt_sim_a_ *= tt_sim_r_; return tt_sim_a_; }); tt_sim_cd_ = true; } } if (!tt_sim_cd_) for (int o = 16; o > 0; o /= 2) "
                        "v *= g.shfl_down(v, o); }\n"),
              "%s", o);
    cr_expect(strstr(o, "(void)(t->shfl_xor(w, o)); if (tt_sim_cp_.complete()) { w = tt_sim_cp_.run(w,"), "%s", o);
    cr_expect(strstr(o, "{ tt_sim_a_ ^= tt_sim_r_; return tt_sim_a_; })"), "%s", o);
    cr_expect_eq(lines(o), 2);
    free(o);
}

Test(prep, chain_keeps_lines_and_puts_the_text_on_the_shuffle_line)
{
    const char *src = "  for (int o = 16;\n"
                      "       o > 0; o /= 2)\n"
                      "    v = fminf(v,\n"
                      "       __shfl_down(v, o)\n"
                      "    );\n"
                      "  next(v);\n";
    char *o = prep(src);
    cr_expect_eq(lines(o), lines(src));
    cr_expect_str_eq(line_at(o, 1), "  ");
    cr_expect_str_eq(line_at(o, 2), "");
    cr_expect_str_eq(line_at(o, 3), "");
    cr_expect(strncmp(line_at(o, 4), CHAIN_HEAD("v") "int o = 16; o > 0; o /= 2) (void)(__shfl_down(v, o)); ",
                      strlen(CHAIN_HEAD("v")) + 30) == 0,
              "%s", o);
    cr_expect(strstr(line_at(o, 4), "{ return fminf(tt_sim_a_, tt_sim_r_ ); }); tt_sim_cd_ = true; } } if (!tt_sim_cd_) for (int o = 16; o > 0; o /= 2) "
                                    "v = fminf(v, __shfl_down(v, o) ); }"),
              "%s", o);
    cr_expect_str_eq(line_at(o, 5), "");
    cr_expect_str_eq(line_at(o, 6), "  next(v);");
    free(o);
}

Test(prep, chain_pragma_nested_loops_and_shared_together)
{
    const char *src = "__global__ void k(float v) {\n"
                      "  __shared__ float s[32];\n"
                      "  #pragma unroll\n"
                      "  for (int i = 0; i < 2; i++)\n"
                      "    for (int o = 16; o > 0; o /= 2) v += __shfl_down(v, o);\n"
                      "  s[0] = v;\n"
                      "}\n";
    char *o = prep(src);
    cr_expect_eq(lines(o), lines(src));
    cr_expect_str_eq(line_at(o, 2), "  TT_SIM_SHARED(s, 0, ([32]), float);");
    cr_expect_str_eq(line_at(o, 3), "  #pragma unroll"); /* before the outer loop: kept */
    cr_expect(strncmp(line_at(o, 4), "  for (int i = 0; i < 2; i++)", 40) == 0, "%s", o);
    cr_expect(strncmp(line_at(o, 5), "    " CHAIN_HEAD("v"), 20) == 0, "%s", o);
    free(o);
}

/* A `#pragma unroll` right before a rewritten loop is dropped (it would
 * precede a block, which clang rejects); its line stays, empty. */
Test(prep, chain_drops_its_pragma_unroll)
{
    const char *src = "__device__ float f(float v) {\n"
                      "    #pragma unroll 4\n"
                      "    for (int o = 16; o > 0; o /= 2)\n"
                      "        v += __shfl_down(v, o);\n"
                      "    return v;\n"
                      "}\n";
    char *o = prep(src);
    cr_expect_eq(lines(o), lines(src));
    cr_expect_str_eq(line_at(o, 2), "    ");
    cr_expect(strstr(o, "pragma") == NULL, "%s", o);
    cr_expect(strncmp(line_at(o, 4), CHAIN_HEAD("v"), 20) == 0, "%s", o);
    free(o);
}

/* `tile.size()` in the header reads nothing the loop changes. */
Test(prep, chain_header_with_group_size)
{
    char *o = prep("for (int o = tile32.size() / 2; o > 0; o /= 2) sum += tile32.shfl_down(sum, o);\n");
    cr_expect(strncmp(o, CHAIN_HEAD("sum"), 20) == 0, "%s", o);
    cr_expect(strstr(o, "for (int o = tile32.size() / 2; o > 0; o /= 2) (void)(tile32.shfl_down(sum, o));") != NULL, "%s", o);
    free(o);
}

Test(prep, chain_not_recognised_is_left_unchanged)
{
    /* x in the header */
    expect_unchanged("for (int o = v; o > 0; o /= 2) v += __shfl_down(v, o);\n");
    /* a call in the header, or one in a shuffle argument */
    expect_unchanged("for (int o = f(); o > 0; o /= 2) v += __shfl_down(v, o);\n");
    expect_unchanged("for (int o = 16; o > 0; o /= 2) v += __shfl_down(v, lane(o));\n");
    expect_unchanged("for (int o = g.rank() / 2; o > 0; o /= 2) v += g.shfl_down(v, o);\n");
    expect_unchanged("for (int o = 16; o > 0; o /= 2) v = v / __shfl_down(v, o);\n");
    /* the fallback runs the loop again: its init must reset the variable */
    expect_unchanged("for (; o > 0; o /= 2) v += __shfl_down(v, o);\n");
    expect_unchanged("for (int o = g.size(1) / 2; o > 0; o /= 2) v += g.shfl_down(v, o);\n");
    /* a comment, string or preprocessor line inside */
    expect_unchanged("for (int o = 16; o > 0; o /= 2) /* sum */ v += __shfl_down(v, o);\n");
    expect_unchanged("for (int o = 16; o > 0; o /= 2)\n#if 1\n v += __shfl_down(v, o);\n#endif\n");
    /* two statements in the body */
    expect_unchanged("for (int o = 16; o > 0; o /= 2) { v += __shfl_down(v, o); n++; }\n");
    /* the value shuffled is not x */
    expect_unchanged("for (int o = 16; o > 0; o /= 2) v += __shfl_down(w, o);\n");
    expect_unchanged("for (int o = 16; o > 0; o /= 2) v += __shfl_down(v + 1, o);\n");
    /* an identifier the combine step may not read */
    expect_unchanged("for (int o = 16; o > 0; o /= 2) v = __shfl_down(v, o) + y;\n");
    expect_unchanged("for (int o = 16; o > 0; o /= 2) v += __shfl_down(v, o) + y;\n");
    /* x in another argument; an argument with a side effect */
    expect_unchanged("for (int o = 16; o > 0; o /= 2) v += __shfl_down(v, v & o);\n");
    expect_unchanged("for (int o = 16; o > 0; o /= 2) v += __shfl_down(v, k++);\n");
    /* not an assignment of the shuffle; an operator outside the list */
    expect_unchanged("for (int o = 16; o > 0; o /= 2) v++;\n");
    expect_unchanged("for (int o = 16; o > 0; o /= 2) v /= __shfl_down(v, o);\n");
    /* range-for */
    expect_unchanged("for (int o : offs) v += __shfl_down(v, o);\n");
    /* x is not a single identifier */
    expect_unchanged("for (int o = 16; o > 0; o /= 2) s[i] += __shfl_down(s[i], o);\n");
    expect_unchanged("for (int o = 16; o > 0; o /= 2) p.v += __shfl_down(p.v, o);\n");
    /* two shuffles, a qualified shuffle, an assignment inside the expression */
    expect_unchanged("for (int o = 16; o > 0; o /= 2) v = __shfl_down(v, o) + __shfl_up(v, o);\n");
    expect_unchanged("for (int o = 16; o > 0; o /= 2) v = std::__shfl_down(v, o);\n");
    expect_unchanged("for (int o = 16; o > 0; o /= 2) v = (v += 1) + __shfl_down(v, o);\n");
    /* a shuffle that only some lanes run */
    expect_unchanged("for (int o = 16; o > 0; o /= 2) v = v > 0 ? __shfl_down(v, o) : v;\n");
    expect_unchanged("for (int o = 16; o > 0; o /= 2) v = v || __shfl_down(v, o);\n");
    /* a collective in the header; not a shuffle at all */
    expect_unchanged("for (int o = 16; __any_sync(m, o); o /= 2) v += __shfl_down(v, o);\n");
    expect_unchanged("for (int o = 16; o > 0; o /= 2) v += shuffle(v, o);\n");
    /* inside a comment, a string or a macro definition */
    expect_unchanged("// for (int o = 16; o > 0; o /= 2) v += __shfl_down(v, o);\n");
    expect_unchanged("const char *s = \"for (int o = 16; o > 0; o /= 2) v += __shfl_down(v, o);\";\n");
    expect_unchanged("#define R(v) for (int o = 16; o > 0; o /= 2) \\\n v += __shfl_down(v, o);\n");
    /* broken or unfinished text */
    expect_unchanged("for (int o = 16; o > 0; o /= 2) v += __shfl_down(v, o)\n");
    expect_unchanged("for (int o = 16; o > 0; o /= 2 v += __shfl_down(v, o);\n");
    expect_unchanged("for");
    expect_unchanged("");
}
