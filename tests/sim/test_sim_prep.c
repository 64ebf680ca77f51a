/* tt_xf_prepare_source(): the rewrites of __shared__ declarations, shuffle
 * chains and coroutine kernels keep everything else (and every line number)
 * unchanged. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xform/prep.h"
#include "xform/prep_tok.h"

static char *prep(const char *src)
{
    char *out = NULL, err[256] = "";
    int rc = tt_xf_prepare_source(src, strlen(src), &out, err, sizeof err);
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

/* Prepared text prepares to itself. */
static void expect_fixed_point(const char *o)
{
    char *again = prep(o);
    cr_expect_str_eq(again, o, "preparing twice changed the text");
    free(again);
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

/* A declaration on the line after a #define (a local header inlined by check) starts
 * on its own line: the define's body is not part of it. */
Test(prep, shared_after_a_define_line)
{
    const char *src =
        "#define WARP 32\n"
        "__shared__ float buf[64];\n"
        "#define TWO \\\n  2\n"
        "__shared__ int other[TWO];\n";
    char *o = prep(src);
    cr_expect(strstr(o, "#define WARP 32\nTT_SIM_SHARED_GLOBAL(buf, 0, ([64]), float);"), "%s", o);
    cr_expect(strstr(o, "#define TWO \\\n  2\nTT_SIM_SHARED_GLOBAL(other, 0, ([TWO]), int);"), "%s", o);
    free(o);
}

/* The same after any other directive (DeepSpeed's kernel_matmul.cuh: an
 * `#endif` closing debug asserts right before `extern __shared__`; the
 * declaration took the `#endif` into its type and the output did not compile). */
Test(prep, shared_after_an_endif_line)
{
    const char *src = "__global__ void k(float *p) {\n"
                      "#ifdef DEBUG_MODE\n"
                      "  assert(p);\n"
                      "#endif\n"
                      "  extern __shared__ __align__(128) float smem[];\n"
                      "  smem[0] = p[0];\n"
                      "}\n";
    char *o = prep(src);
    cr_expect(strstr(o, "#endif\n  TT_SIM_SHARED_EXTERN(smem, 128, ([]), float);\n") != NULL, "%s", o);
    cr_expect_eq(lines(o), lines(src));
    free(o);
}

Test(prep, initializer_is_an_error)
{
    char *out = NULL, err[256] = "";
    const char *src = "void f() {\n __shared__ int c = 0;\n}\n";
    cr_expect_eq(tt_xf_prepare_source(src, strlen(src), &out, err, sizeof err), -1);
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

/* ---- coroutine kernels --------------------------------------------------- */

/* The lambda of a chain and the whole forms (tt_sim.h), spelled out here
 * independently of src/xform/prep_chain.c. */
#define CHAIN_LAMBDA(X, O)                                                                    \
    "[](::tt_sim::chain_t<decltype(" X ")> tt_sim_a_, ::tt_sim::chain_t<decltype(" X ")> "    \
    "tt_sim_r_) -> ::tt_sim::chain_t<decltype(" X ")> { " O " }"
#define FIBER_CHAIN(X, H, C, O, B)                                                            \
    CHAIN_HEAD(X) H ") (void)(" C "); " CHAIN_RUN(X) O " }); tt_sim_cd_ = true; } } "         \
    "if (!tt_sim_cd_) for (" H ") " B " }"
#define CO_CHAIN(X, H, C, O, B)                                                               \
    "{ bool tt_sim_cd_ = false; if (::tt_sim::chain_ok<decltype(" X ")>()) { "                \
    "::tt_sim::chain_probe tt_sim_cp_; [&] { for (" H ") (void)(" C "); }(); "                \
    "if (tt_sim_cp_.complete()) { TT_SIM_CO_CHAIN(" X ", tt_sim_cp_, " CHAIN_LAMBDA(X, O)     \
    "); } else { for (" H ") TT_SIM_CO_STEP(" X ", ::tt_sim::chain_probe::one([&] { (void)(" \
    C "); }), " CHAIN_LAMBDA(X, O) "); } tt_sim_cd_ = true; } "                               \
    "if (!tt_sim_cd_) for (" H ") " B " }"

/* ---- region forms ------------------------------------------------------- */

#define RG_START "\n#ifndef TT_SIM_NO_REGIONS\nif (TT_SIM_RG_ENTER()) { [&] {"
#define RG_END "\n}(); TT_SIM_CO_RETURN; }\n#endif\n#line "

/* The text without its region forms (src/xform/prep_rg.c), which are inserted
 * whole after a token: what the other rewrites wrote.  *n (may be NULL)
 * counts the forms. */
static char *strip_rg(const char *s, int *n)
{
    char *out = malloc(strlen(s) + 1), *w = out;
    int forms = 0;
    for (const char *p = s;;) {
        const char *a = strstr(p, RG_START);
        const char *b = a ? strstr(a, RG_END) : NULL;
        if (!b) {
            strcpy(w, p);
            break;
        }
        memcpy(w, p, (size_t)(a - p));
        w += a - p;
        p = strchr(b + strlen(RG_END), '\n') + 1;
        forms++;
    }
    if (n)
        *n = forms;
    return out;
}

/* Line n (1-based) of s, up to its newline, in buf. */
static const char *src_line(const char *s, int n, char *buf, size_t len)
{
    for (int i = 1; i < n && s; i++)
        s = strchr(s, '\n') ? strchr(s, '\n') + 1 : NULL;
    size_t l = s ? strcspn(s, "\n") : 0;
    if (l >= len)
        l = len - 1;
    memcpy(buf, s ? s : "", l);
    buf[l] = 0;
    return buf;
}

/* Every #line of o's region forms names the line of src its text is on:
 * a copied line is part of that line of src (generated ones, which name
 * tt_sim_, aside), and each form ends with the line it was inserted on. */
static void expect_rg_lines(const char *o, const char *src)
{
    int presumed = 1, in_form = 0, at = 0;
    char buf[4096], text[4096];
    const char *prev = "";
    for (const char *p = o; *p;) {
        const char *nl = strchr(p, '\n');
        size_t l = nl ? (size_t)(nl - p) : strlen(p);
        if (strncmp(p, "#ifndef TT_SIM_NO_REGIONS", 25) == 0) {
            in_form = 1;
            at = presumed - 1; /* the form starts on a line of its own */
        }
        if (in_form && strncmp(p, "#line ", 6) == 0) {
            int n = atoi(p + 6);
            if (strncmp(prev, "#endif\n", 7) == 0) {
                cr_expect_eq(n, at, "a form inserted on line %d ends with #line %d", at, n);
                in_form = 0;
            } else if (nl) {
                snprintf(text, sizeof text, "%.*s", (int)strcspn(nl + 1, "\n"), nl + 1);
                char *call = strstr(text, "(void)(");
                if (strncmp(text, "::tt_sim::rg_arrive(", 20) == 0 && call) {
                    /* a chain's arrival: on the line of its shuffle */
                    memmove(text, call + 7, strlen(call + 7) + 1);
                    char *end = strstr(text, ")); }");
                    cr_assert(end, "%s", text);
                    *end = 0;
                }
                size_t tl = strlen(text);
                while (tl > 2 && !strcmp(text + tl - 2, " }") && !strstr(src_line(src, n, buf, sizeof buf), text))
                    text[tl -= 2] = 0; /* the end of a loop's scope in the form */
                if (tl > 1 && text[tl - 1] == ';' && !strstr(src_line(src, n, buf, sizeof buf), text))
                    text[tl - 1] = 0; /* a loop's step, made a statement */
                if (!strstr(text, "tt_sim") && !strstr(text, "TT_SIM_"))
                    cr_expect(strstr(src_line(src, n, buf, sizeof buf), text) != NULL,
                              "#line %d is followed by `%s`, which line %d (`%s`) does not hold",
                              n, text, n, buf);
            }
            presumed = n;
        } else if (strncmp(p, "#line ", 6) == 0) {
            presumed = atoi(p + 6);
        } else {
            presumed++;
        }
        prev = p;
        p += l + (nl != NULL);
    }
}

/* src prepares to exactly want and its region forms, with the same lines,
 * and preparing the result again changes nothing.  Returns the number of
 * region forms. */
static int expect_co(const char *src, const char *want)
{
    char *o = prep(src);
    int forms;
    char *co = strip_rg(o, &forms);
    cr_expect_str_eq(co, want);
    cr_expect_eq(lines(co), lines(src), "%s", co);
    expect_rg_lines(o, src);
    free(co);
    expect_fixed_point(o);
    free(o);
    return forms;
}

/* A kernel that stays on fibers: nothing changes (no chain in it). */
static void expect_fiber(const char *src)
{
    cr_expect_eq(expect_co(src, src), 0);
}

Test(prep, co_barrier_and_return)
{
    expect_co("__global__ void k(float *out, int n)\n"
              "{\n"
              "    if (threadIdx.x >= n)\n"
              "        return;\n"
              "    out[threadIdx.x] = 1.0f;\n"
              "    __syncthreads();\n"
              "    out[0] += out[1]; // return __syncthreads\n"
              "}\n",
              "__global__ TT_SIM_CO_KERNEL k(float *out, int n)\n"
              "{\n"
              "    if (threadIdx.x >= n)\n"
              "        TT_SIM_CO_RETURN;\n"
              "    out[threadIdx.x] = 1.0f;\n"
              "    TT_SIM_CO_SYNCTHREADS();\n"
              "    out[0] += out[1]; // return __syncthreads\n"
              "}\n");
}

/* bench/reduce.hip as bench/sim prepares it (a copy of the file). */
Test(prep, co_bench_reduce)
{
    const char *head =
        "// reduce.hip — the 1M-element shuffle reduction of bench/sim, written as a\n"
        "// user writes it.  bench/sim passes it through tt_xf_prepare_source (as\n"
        "// `tiletrans check` does), which turns each shuffle loop into a chain the\n"
        "// runtime can run as one warp collective.\n";
    char src[4096], want[16384];
    snprintf(src, sizeof src, "%s%s", head,
             "__global__ void reduce_prepared(const float *in, float *out, int n)\n"
             "{\n"
             "    __shared__ float partial[1024 / 64];\n"
             "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    float v = i < n ? in[i] : 0.0f;\n"
             "    for (int o = warpSize / 2; o > 0; o /= 2)\n"
             "        v += __shfl_down(v, o);\n"
             "    int lane = threadIdx.x % warpSize, w = threadIdx.x / warpSize;\n"
             "    if (lane == 0)\n"
             "        partial[w] = v;\n"
             "    __syncthreads();\n"
             "    if (w == 0) {\n"
             "        v = lane < blockDim.x / warpSize ? partial[lane] : 0.0f;\n"
             "        for (int o = warpSize / 2; o > 0; o /= 2)\n"
             "            v += __shfl_down(v, o);\n"
             "        if (lane == 0)\n"
             "            atomicAdd(out, v);\n"
             "    }\n"
             "}\n");
#define REDUCE_CHAIN                                                                          \
    CO_CHAIN("v", "int o = warpSize / 2; o > 0; o /= 2", "__shfl_down(v, o)",                 \
             "tt_sim_a_ += tt_sim_r_; return tt_sim_a_;", "v += __shfl_down(v, o);")
    snprintf(want, sizeof want, "%s%s", head,
             "__global__ TT_SIM_CO_KERNEL reduce_prepared(const float *in, float *out, int n)\n"
             "{\n"
             "    TT_SIM_SHARED(partial, 0, ([1024 / 64]), float);\n"
             "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    float v = i < n ? in[i] : 0.0f;\n"
             "    \n"
             REDUCE_CHAIN "\n"
             "    int lane = threadIdx.x % warpSize, w = threadIdx.x / warpSize;\n"
             "    if (lane == 0)\n"
             "        partial[w] = v;\n"
             "    TT_SIM_CO_SYNCTHREADS();\n"
             "    if (w == 0) {\n"
             "        v = lane < blockDim.x / warpSize ? partial[lane] : 0.0f;\n"
             "        \n"
             REDUCE_CHAIN "\n"
             "        if (lane == 0)\n"
             "            atomicAdd(out, v);\n"
             "    }\n"
             "}\n");
#undef REDUCE_CHAIN
    cr_expect_eq(expect_co(src, want), 1);
    /* its region form: v, lane, w and the guard per thread; one barrier
     * between the loops; the two chains' halves */
    char *o = prep(src);
    cr_expect(strstr(o, "TT_SIM_RG_VAR(0, float );\nTT_SIM_RG_VAR(1, int );\nTT_SIM_RG_VAR(2, int );\n"
                        "TT_SIM_RG_VAR(3, bool);"), "%s", o);
    cr_expect(strstr(o, "float &v = (tt_sim_rg_0_[tt_sim_l_] = (i < n ? in[i] : 0.0f));"), "%s", o);
    cr_expect(strstr(o, "\n#line 15\n::tt_sim_rg_barrier(0);"), "%s", o);
    cr_expect(strstr(o, "tt_sim_rg_3_[tt_sim_l_] = (w == 0); if (tt_sim_rg_3_[tt_sim_l_]) {"), "%s", o);
    /* both chains' steps are the same in every block: recorded once */
    cr_expect(strstr(o, "{ [&] {\nstatic ::tt_sim::rg_steps_cache tt_sim_rs_0_;\n"
                        "static ::tt_sim::rg_steps_cache tt_sim_rs_1_;\n"), "%s", o);
    cr_expect(strstr(o, "::tt_sim::rg_arrive(v, [&] { for (int o = warpSize / 2; o > 0; o /= 2) "
                        "(void)(__shfl_down(v, o)); }, tt_sim_rs_1_);"), "%s", o);
    cr_expect(strstr(o, "::tt_sim::rg_chain(tt_sim_rg_0_, [](auto tt_sim_a_, auto tt_sim_r_) -> "
                        "decltype(tt_sim_a_) { tt_sim_a_ += tt_sim_r_; return tt_sim_a_; }, "
                        "tt_sim_rs_0_);"), "%s", o);
    free(o);
}

/* The number of region forms src prepares to (checked as expect_co does). */
static int forms_of(const char *src)
{
    char *o = prep(src);
    int n;
    free(strip_rg(o, &n));
    expect_rg_lines(o, src);
    expect_fixed_point(o);
    free(o);
    return n;
}

#define K(body) "__global__ void k(float *p, float v) {\n" body "\n}\n"

/* Which coroutine kernels get a region form (src/xform/prep_rg.c). */
Test(prep, rg_which_kernels)
{
    /* locals across barriers, of plain types */
    cr_expect_eq(forms_of(K("  float x = p[threadIdx.x];\n  __syncthreads();\n  p[0] = x;")), 1);
    cr_expect_eq(forms_of(K("  const float *q = p + 1, y = 2;\n  __syncthreads();\n  p[0] = *q + y;")), 1);
    cr_expect_eq(forms_of(K("  float4 a;\n  unsigned long long b = 1;\n  __syncthreads();\n"
                            "  a.x = b; p[0] = a.x;")), 1);
    /* locals of other types that stay between two barriers; blocks, loops */
    cr_expect_eq(forms_of(K("  MyT t = make(); t.go();\n  __syncthreads();\n"
                            "  for (int i = 0; i < 3; i++) { MyT u; p[i] = u.x; }\n"
                            "  do { p[1]++; } while (p[1] < 3);\n  { auto z = 2; p[2] = z; }")), 1);
    /* a chain under an if, a #pragma */
    cr_expect_eq(forms_of(K("  float x = v;\n  if (threadIdx.x < 64) {\n#pragma unroll\n"
                            "    for (int o = 16; o > 0; o /= 2) x += __shfl_down(x, o);\n  }\n"
                            "  __syncthreads();\n  p[threadIdx.x] = x;")), 1);
    /* steps recorded once only for chains whose loop names nothing else */
    char *o = prep(K("  float x = v;\n  int w = 8;\n"
                     "  for (int o = w; o > 0; o /= 2) x += __shfl_down(x, o);\n"
                     "  for (unsigned m = warpSize / 2; m; m >>= 1) x += __shfl_xor_sync(~0u, x, m, 16);\n"
                     "  p[0] = x;"));
    cr_expect(strstr(o, "tt_sim_rs_0_") && !strstr(o, "tt_sim_rs_1_"), "%s", o);
    cr_expect(strstr(o, "(void)(__shfl_xor_sync(~0u, x, m, 16)); }, tt_sim_rs_0_);"), "%s", o);
    free(o);
    /* returns: the thread leaves the loop it is in, and the later ones skip it */
    o = prep(K("  if (threadIdx.x > 5) return;\n  __syncthreads();\n  if (v > 1) return; else p[0] = 1;"));
    cr_expect(strstr(o, "TT_SIM_RG_EXITS;"), "%s", o);
    cr_expect(strstr(o, "if (threadIdx.x > 5) if ((tt_sim_rg_x_[tt_sim_l_] = 1, ++tt_sim_rg_nx_)) "
                        "goto tt_sim_r1_; else;"), "%s", o);
    cr_expect(strstr(o, "::tt_sim_rg_barrier(tt_sim_rg_nx_);"), "%s", o);
    cr_expect(strstr(o, "if (v > 1) if ((tt_sim_rg_x_[tt_sim_l_] = 1, ++tt_sim_rg_nx_)) goto "
                        "tt_sim_r2_; else; else p[0] = 1; } tt_sim_r2_: __attribute__((unused));"),
              "%s", o);
    free(o);
    cr_expect_eq(forms_of(K("  auto f = [](int a) { return a + 1; };\n  p[0] = f(1);\n  __syncthreads();\n"
                            "  return;")), 1);
    /* loops holding barriers or chains, outside split ifs */
    o = prep(K("  float acc = 0;\n  for (int i = 0; i < 4; i++) {\n    acc += p[i];\n"
               "    __syncthreads();\n  }\n  int m = 3;\n  while (m-- > 0)\n"
               "    for (int o = 16; o > 0; o /= 2) acc += __shfl_down(acc, o);\n  p[0] = acc;"));
    cr_expect(strstr(o, "\nfor (;;) { if (!::tt_sim::rg_all(tt_sim_rg_1_, nullptr)) break;"), "%s", o);
    cr_expect(strstr(o, "int &i = (tt_sim_rg_2_[tt_sim_l_] = (0));\n#line 3\ntt_sim_rg_1_[tt_sim_l_] = (i < 4);"),
              "%s", o);
    cr_expect(strstr(o, "#line 3\ni++;\n#line 3\ntt_sim_rg_1_[tt_sim_l_] = (i < 4);"), "%s", o);
    cr_expect(strstr(o, "tt_sim_rg_4_[tt_sim_l_] = (m-- > 0);"), "%s", o);
    free(o);
    cr_expect_eq(forms_of(K("  for (int i = 0; i < 4; i++) __syncthreads();")), 1);
    /* none: break or continue in such a loop, one in a split if, do-while */
    cr_expect_eq(forms_of(K("  for (int i = 0; i < 4; i++) { if (p[i]) break; __syncthreads(); }")), 0);
    cr_expect_eq(forms_of(K("  for (int i = 0; i < 4; i++) { for (;;) continue; __syncthreads(); }")), 0);
    cr_expect_eq(forms_of(K("  float x = v;\n  if (v > 0) {\n    for (int i = 0; i < 2; i++)\n"
                            "      for (int o = 16; o > 0; o /= 2) x += __shfl_down(x, o);\n  }\n  p[0] = x;")),
                 0);
    cr_expect_eq(forms_of(K("  int i = 0;\n  do { __syncthreads(); } while (++i < 4);")), 0);
    /* none: a barrier in an if, _count */
    cr_expect_eq(forms_of(K("  if (v > 0) __syncthreads();")), 0);
    cr_expect_eq(forms_of(K("  int c = __syncthreads_count(v > 0);\n  p[0] = c;")), 0);
    /* none: a local that crosses a barrier and cannot be kept per thread */
    cr_expect_eq(forms_of(K("  MyT t = make();\n  __syncthreads();\n  t.go();")), 0);
    cr_expect_eq(forms_of(K("  float a[4];\n  __syncthreads();\n  p[0] = a[0];")), 0);
    cr_expect_eq(forms_of(K("  auto x = 1;\n  __syncthreads();\n  p[0] = x;")), 0);
    cr_expect_eq(forms_of(K("  float &r = p[0];\n  __syncthreads();\n  r = 1;")), 0);
    cr_expect_eq(forms_of(K("  float x{1};\n  __syncthreads();\n  p[0] = x;")), 0);
    /* none: a chain on a parameter, an if with an else around a chain */
    cr_expect_eq(forms_of(K("  for (int o = 16; o > 0; o /= 2) v += __shfl_down(v, o);\n"
                            "  __syncthreads();\n  p[0] = v;")), 0);
    cr_expect_eq(forms_of(K("  float x = v;\n  if (v > 0) {\n"
                            "    for (int o = 16; o > 0; o /= 2) x += __shfl_down(x, o);\n"
                            "  } else x = 0;\n  p[0] = x;")), 0);
    /* __shared__ after other statements moves to the form's top (rg_shared_in_a_loop_moves_to_the_top) */
    cr_expect_eq(forms_of(K("  float x = 1;\n  __shared__ float s[4];\n  s[0] = x;\n  __syncthreads();")), 1);
    /* none: #if, a label */
    cr_expect_eq(forms_of(K("#if 1\n  p[0] = 1;\n#endif\n  __syncthreads();")), 0);
    cr_expect_eq(forms_of(K("  again: p[0] = 1;\n  __syncthreads();")), 0);
    /* none: lines renumbered before the kernel (the form's #lines are physical) */
    cr_expect_eq(forms_of("#line 40 \"gen.cu\"\n" K("  float x = v;\n  __syncthreads();\n  p[0] = x;")), 0);
}

/* constexpr locals, and const ones made of numbers, move to the top of the
 * form (they may size arrays); other const locals are kept per thread. */
/* The loops of a region form that are TT_SIM_RG_FOR_RO: regions between two
 * barriers (or the block's start or end) whose code surely writes no shared
 * memory. */
static int ro_loops(const char *src)
{
    char *o = prep(src);
    int n = 0;
    for (const char *p = o; (p = strstr(p, "TT_SIM_RG_FOR_RO")); p++)
        n++;
    expect_fixed_point(o);
    free(o);
    return n;
}

#define KS(body) "#define TILE 16\n#define SQ(x) ((x) * (x))\n#define ZERO(a) a[0] = 0\n" \
                 "__device__ float g(float *q);\n"                                    \
                 "__global__ void k(float *p, float v) {\n  __shared__ float s[TILE], t;\n" body "\n}\n"

Test(prep, rg_reads_only_regions)
{
    /* the tiled matmul's shape: loads, a barrier, reads only, a barrier */
    cr_expect_eq(ro_loops(KS("  float acc = 0;\n  for (int i = 0; i < 4; i++) {\n    s[threadIdx.x % TILE] = p[i];\n"
                             "    __syncthreads();\n    for (int j = 0; j < TILE; j++) acc += s[j] * SQ(v);\n"
                             "    __syncthreads();\n  }\n  p[threadIdx.x] = acc;")), 1);
    /* the block's start and end bound an interval too */
    cr_expect_eq(ro_loops(KS("  float x = s[threadIdx.x % TILE] + fmaxf(v, 1.0f);\n  __syncthreads();\n"
                             "  s[0] = x;\n  __syncthreads();\n  p[threadIdx.x] = s[1] + (float)x;")), 2);
    /* a write to shared memory, by a name, an element, a macro, a call or through a pointer */
    static const char *const writes[] = {"t = v;", "s[1] += v;", "++s[2];", "t++;", "ZERO(s);",
                                         "p[0] = g(s);", "float *q = s; *q = 1;", "float &r = t; r = 2;",
                                         "[&] { s[0] = 1; }();", "return;"};
    for (size_t i = 0; i < sizeof writes / sizeof *writes; i++) {
        char src[512];
        snprintf(src, sizeof src, KS("  float x = v;\n  s[threadIdx.x %% TILE] = x;\n  __syncthreads();\n"
                                     "  x += s[0];\n  %s\n  __syncthreads();\n  s[3] = x;"),
                 writes[i]);
        cr_expect_eq(ro_loops(src), 0, "reads-only despite `%s`:\n%s", writes[i], src);
    }
    /* writes to locals and to global memory through the kernel's pointers are not shared writes */
    cr_expect_eq(ro_loops(KS("  float x = v;\n  s[threadIdx.x % TILE] = x;\n  __syncthreads();\n"
                             "  int j = 0; j++; x = s[j]; p[threadIdx.x] = x; p[1]++; *p += 1;\n  __syncthreads();\n"
                             "  s[0] = x;")), 1);
    /* ... unless the kernel points them elsewhere */
    cr_expect_eq(ro_loops(KS("  float x = v;\n  s[0] = v;\n  p = s;\n  __syncthreads();\n  p[1] = x;\n  __syncthreads();\n"
                             "  s[0] = x;")), 0);
    /* a region bounded by a chain is part of a longer interval */
    cr_expect_eq(ro_loops(KS("  float x = v;\n  s[threadIdx.x % TILE] = x;\n  __syncthreads();\n  x = s[0];\n"
                             "  for (int o = 16; o > 0; o /= 2) x += __shfl_down(x, o);\n  s[1] = x;\n"
                             "  __syncthreads();\n  s[2] = x;")), 0);
}

/* A __shared__ declaration in a loop body (cuda-samples' matrixMul) is the
 * block's one array: it moves in front of the region form (blanked where it
 * was), unless that could change what a name means. */
Test(prep, rg_shared_in_a_loop_moves_to_the_top)
{
#define MM(before, after)                                                                           \
    "__global__ void mm(float *c, const float *a, int n) {\n  float acc = 0;\n" before              \
    "  for (int t = 0; t < n; t += 16) {\n    __shared__ float As[16][16];\n"                       \
    "    As[threadIdx.y][threadIdx.x] = a[t + threadIdx.x];\n    __syncthreads();\n"                \
    "#pragma unroll\n    for (int k = 0; k < 16; ++k) acc += As[threadIdx.y][k];\n"                \
    "    __syncthreads();\n  }\n" after "  c[threadIdx.x] = acc;\n}\n"
    char *o = prep(MM("", ""));
    const char *decl = strstr(o, "{\n#line 4\nTT_SIM_SHARED(As, 0, ([16][16]), float);\n#line 2\n#ifndef TT_SIM_NO_REGIONS");
    cr_expect(decl, "the declaration in front of the form:\n%s", o);
    cr_expect(decl && !strstr(strstr(decl, "#ifndef"), "TT_SIM_SHARED(As"), "and only there (one site for both forms):\n%s", o);
    cr_expect(strstr(o, "TT_SIM_RG_FOR_RO"), "the inner product's loop is reads-only:\n%s", o);
    const char *end = strstr(o, "#endif\n#line ");
    cr_assert(decl && end, "%s", o);
    end = strchr(end + 7, '\n') + 1; /* what is inserted: after the `{`, up to the #line back */
    cr_expect_eq(lines(o) - (lines(decl + 1) - lines(end)), lines(MM("", "")),
                 "the kernel keeps every line (the declaration's is blank):\n%s", o);
    expect_rg_lines(o, MM("", ""));
    expect_fixed_point(o);
    free(o);
    cr_expect_eq(forms_of(MM("  float As = 1;\n", "")), 0, "a name of the kernel's before it");
    cr_expect_eq(forms_of(MM("", "  { __shared__ float As[4]; As[0] = 1; }\n")), 0, "declared twice");
    /* its extents must mean the same in front of the form: a macro, a template parameter, not a local */
#define TILED(pre, head, decl)                                                                       \
    pre head "__global__ void mm(float *c, const float *a, int n) {\n  constexpr int L = 16;\n"         \
             "  for (int t = 0; t < n; t += 16) {\n    __shared__ float As" decl ";\n"                   \
             "    As[0][threadIdx.x] = a[t];\n    __syncthreads();\n    c[0] += As[0][1];\n"            \
             "    __syncthreads();\n  }\n}\n"
    cr_expect_eq(forms_of(TILED("#define T 16\n", "", "[T][T]")), 1);
    cr_expect_eq(forms_of(TILED("", "template <int T> ", "[T][T]")), 1);
    cr_expect_eq(forms_of(TILED("", "", "[L][L]")), 0, "a local constant");
#undef TILED
#undef MM
}

Test(prep, rg_constants_move_to_the_top)
{
    char *o = prep(K("  constexpr int T = 4;\n  const int N = T * 2, M = sizeof(float);\n"
                     "  const int tid = threadIdx.x;\n  __syncthreads();\n"
                     "  float a[N];\n  a[0] = T + M + tid; p[0] = a[0];"));
    cr_expect(strstr(o, "{ [&] {\n#line 2\nconstexpr int T = 4;\n#line 3\n"
                        "const int N = T * 2, M = sizeof(float);\nTT_SIM_RG_VAR(0, const int );"),
              "%s", o);
    cr_expect(strstr(o, "const int &tid = (tt_sim_rg_0_[tt_sim_l_] = (threadIdx.x));"), "%s", o);
    free(o);
    /* const after the type, warpSize, constexpr of anything */
    o = prep(K("  int const H = warpSize / 2;\n  constexpr float F = H * 1.5f + sizeof(v);\n"
               "  __syncthreads();\n  float a[H];\n  a[0] = F; p[0] = a[0];"));
    cr_expect(strstr(o, "{ [&] {\n#line 2\nint const H = warpSize / 2;\n#line 3\n"
                        "constexpr float F = H * 1.5f + sizeof(v);\n#line 4\n::tt_sim_rg_barrier(0);"),
              "%s", o);
    free(o);
}
#undef K

Test(prep, co_syncthreads_reductions_in_expressions)
{
    expect_co("__global__ void k(int *out) {\n"
              "  int c = __syncthreads_count(threadIdx.x % 2) + 1;\n"
              "  if (__syncthreads_and(c > 0) || __syncthreads_or(c == 7)) out[0] = c;\n"
              "}\n",
              "__global__ TT_SIM_CO_KERNEL k(int *out) {\n"
              "  int c = TT_SIM_CO_SYNCTHREADS_COUNT(threadIdx.x % 2) + 1;\n"
              "  if (TT_SIM_CO_SYNCTHREADS_AND(c > 0) || TT_SIM_CO_SYNCTHREADS_OR(c == 7)) out[0] = c;\n"
              "}\n");
}

/* Another collective outside the chain: the kernel stays on fibers and its
 * chain keeps the fiber form. */
Test(prep, co_other_collective_keeps_fibers)
{
    expect_co("__global__ void k(float v, float *p) {\n"
              "    for (int o = 16; o > 0; o /= 2) v += __shfl_down(v, o);\n"
              "    p[0] = __shfl_xor(v, 1);\n"
              "    __syncthreads();\n"
              "}\n",
              "__global__ void k(float v, float *p) {\n"
              "    " FIBER_CHAIN("v", "int o = 16; o > 0; o /= 2", "__shfl_down(v, o)",
                                 "tt_sim_a_ += tt_sim_r_; return tt_sim_a_;", "v += __shfl_down(v, o);") "\n"
              "    p[0] = __shfl_xor(v, 1);\n"
              "    __syncthreads();\n"
              "}\n");
    expect_fiber("__global__ void k(unsigned *p) { p[0] = __ballot_sync(~0u, 1); __syncthreads(); }\n");
    expect_fiber("__global__ void k(float *p) { __syncwarp(); __syncthreads(); }\n");
    expect_fiber("__global__ void k(float *p) { __syncthreads(); __builtin_amdgcn_wave_barrier(); }\n");
}

/* A chain loop alone is a sync point: a kernel with only a chain is co. */
Test(prep, co_chain_only)
{
    expect_co("__global__ void k(float *p) {\n"
              "  float v = p[threadIdx.x];\n"
              "  #pragma unroll\n"
              "  for (int m = 16; m > 0; m >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, m));\n"
              "  p[threadIdx.x] = v;\n"
              "}\n",
              "__global__ TT_SIM_CO_KERNEL k(float *p) {\n"
              "  float v = p[threadIdx.x];\n"
              "  \n"
              "  " CO_CHAIN("v", "int m = 16; m > 0; m >>= 1", "__shfl_xor_sync(0xffffffff, v, m)",
                            "return fmaxf(tt_sim_a_, tt_sim_r_);",
                            "v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, m));") "\n"
              "  p[threadIdx.x] = v;\n"
              "}\n");
}

/* A same-file function that synchronises (directly or through another, or
 * a chain loop) keeps every kernel that calls it on fibers. */
Test(prep, co_helper_that_blocks)
{
    expect_fiber("__device__ void wait_all() { __syncthreads(); }\n"
                 "__global__ void k(float *p) {\n"
                 "  p[threadIdx.x] = 1;\n"
                 "  wait_all();\n"
                 "  __syncthreads();\n"
                 "}\n");
    expect_fiber("__device__ void b1() { __syncthreads(); }\n"
                 "__device__ void b2(int n) { if (n) b2(n - 1); else b1(); }\n"
                 "__global__ void k(float *p) { b2(3); __syncthreads(); }\n");
    expect_fiber("namespace cg = cooperative_groups;\n"
                 "__device__ void tile_sync(cg::thread_block &b) { b.sync(); }\n"
                 "__global__ void k(float *p) { __syncthreads(); if (p) tile_sync_all(); }\n"
                 "__device__ void tile_sync_all() { tile_sync(*(cg::thread_block *)0); }\n");
    const char *src = "__device__ float warp_sum(float v) {\n"
                      "  for (int o = 16; o > 0; o /= 2) v += __shfl_down(v, o);\n"
                      "  return v;\n"
                      "}\n"
                      "__global__ void k(float *p) { p[0] = warp_sum(p[0]); __syncthreads(); }\n";
    char *o = prep(src);
    cr_expect(strstr(o, "__global__ void k(float *p) { p[0] = warp_sum(p[0]); __syncthreads(); }\n"),
              "%s", o);
    cr_expect(strstr(o, "TT_SIM_CO") == NULL, "%s", o);
    free(o);
}

/* Sync-free helpers (recursive ones too, and ones the kernel names before
 * their definition) are fine; their returns are not the kernel's. */
Test(prep, co_helper_that_does_not_block)
{
    expect_co("__device__ float sq(float x) { return x * x; }\n"
              "__device__ int depth(int n) { return n ? depth(n - 1) + 1 : later(n); }\n"
              "__global__ void k(float *p) {\n"
              "  p[0] = sq(p[0]) + depth(4) + undefined_elsewhere(p);\n"
              "  __syncthreads();\n"
              "}\n"
              "__device__ int later(int n) { return n; }\n",
              "__device__ float sq(float x) { return x * x; }\n"
              "__device__ int depth(int n) { return n ? depth(n - 1) + 1 : later(n); }\n"
              "__global__ TT_SIM_CO_KERNEL k(float *p) {\n"
              "  p[0] = sq(p[0]) + depth(4) + undefined_elsewhere(p);\n"
              "  TT_SIM_CO_SYNCTHREADS();\n"
              "}\n"
              "__device__ int later(int n) { return n; }\n");
}

Test(prep, co_lambda_return_is_kept)
{
    expect_co("__global__ void k(float *p) {\n"
              "  auto at = [&](int i) -> float { return p[i]; };\n"
              "  auto twice = [=] __device__ (int i) mutable {\n"
              "    auto g = [i] { return i; }; return 2 * g(); };\n"
              "  struct L { __device__ int f() const { return 1; } };\n"
              "  __syncthreads();\n"
              "  if (at(0) > 0) return;\n"
              "  p[0] = twice(1) + L().f();\n"
              "  return;\n"
              "}\n",
              "__global__ TT_SIM_CO_KERNEL k(float *p) {\n"
              "  auto at = [&](int i) -> float { return p[i]; };\n"
              "  auto twice = [=] __device__ (int i) mutable {\n"
              "    auto g = [i] { return i; }; return 2 * g(); };\n"
              "  struct L { __device__ int f() const { return 1; } };\n"
              "  TT_SIM_CO_SYNCTHREADS();\n"
              "  if (at(0) > 0) TT_SIM_CO_RETURN;\n"
              "  p[0] = twice(1) + L().f();\n"
              "  TT_SIM_CO_RETURN;\n"
              "}\n");
}

/* A sync point inside a lambda or a local class: the lambda is not the
 * coroutine, so the kernel stays on fibers. */
Test(prep, co_barrier_in_lambda_keeps_fibers)
{
    expect_fiber("__global__ void k(float *p) {\n"
                 "  auto wait = [&]() { __syncthreads(); };\n"
                 "  p[0] = 1;\n"
                 "  wait();\n"
                 "  return;\n"
                 "}\n");
    expect_fiber("__global__ void k(float *p) { __syncthreads(); [&] { __syncthreads(); }(); }\n");
    expect_fiber("__global__ void k(float *p) { struct W { __device__ void f() { __syncthreads(); } }; "
                 "__syncthreads(); }\n");
    const char *src = "__global__ void k(float v) {\n"
                      "  auto r = [&] { for (int o = 16; o > 0; o /= 2) v += __shfl_down(v, o); };\n"
                      "  r();\n"
                      "  __syncthreads();\n"
                      "}\n";
    char *o = prep(src);
    cr_expect(strncmp(o, "__global__ void k(float v) {\n  auto r = [&] { " CHAIN_HEAD("v"), 60) == 0,
              "%s", o);
    cr_expect(strstr(o, "TT_SIM_CO") == NULL, "%s", o);
    free(o);
}

Test(prep, co_cooperative_groups_keep_fibers)
{
    expect_fiber("namespace cg = cooperative_groups;\n"
                 "__global__ void k(float *p) {\n"
                 "  cg::thread_block b = cg::this_thread_block();\n"
                 "  p[b.thread_rank()] = 1;\n"
                 "  __syncthreads();\n"
                 "}\n");
    expect_fiber("__global__ void k(float *p, Grid g) { __syncthreads(); g.sync(); }\n");
    expect_fiber("__global__ void k(float *p, Tile t) { __syncthreads(); p[0] = t.shfl_xor(p[0], 1); }\n");
}

Test(prep, co_template_kernel)
{
    expect_co("template <typename T, int N = 4>\n"
              "__global__ void __launch_bounds__(256, 2)\n"
              "scale(T *p, T s)\n"
              "{\n"
              "    if (threadIdx.x >= N) return;\n"
              "    __syncthreads();\n"
              "}\n"
              "template __global__ void scale<float, 4>(float *, float);\n",
              "template <typename T, int N = 4>\n"
              "__global__ TT_SIM_CO_KERNEL __launch_bounds__(256, 2)\n"
              "scale(T *p, T s)\n"
              "{\n"
              "    if (threadIdx.x >= N) TT_SIM_CO_RETURN;\n"
              "    TT_SIM_CO_SYNCTHREADS();\n"
              "}\n"
              "template __global__ TT_SIM_CO_KERNEL scale<float, 4>(float *, float);\n");
    /* a specialisation is not read: every kernel of the name stays */
    expect_fiber("template <typename T> __global__ void k(T *p) { __syncthreads(); }\n"
                 "template <> __global__ void k<int>(int *p) { __syncthreads(); }\n");
}

Test(prep, co_prototype_and_definition)
{
    expect_co("__global__ void k(float *p);\n"
              "extern \"C\" static __global__ void k(float *p);\n"
              "__device__ int f(int);\n"
              "__global__ void k(float *p)\n"
              "{\n"
              "    __syncthreads();\n"
              "}\n",
              "__global__ TT_SIM_CO_KERNEL k(float *p);\n"
              "extern \"C\" static __global__ TT_SIM_CO_KERNEL k(float *p);\n"
              "__device__ int f(int);\n"
              "__global__ TT_SIM_CO_KERNEL k(float *p)\n"
              "{\n"
              "    TT_SIM_CO_SYNCTHREADS();\n"
              "}\n");
    /* overloads: one without a barrier keeps the others on fibers too */
    expect_fiber("__global__ void k(int *p);\n"
                 "__global__ void k(int *p) { __syncthreads(); }\n"
                 "__global__ void k(float *p) { p[0] = 1; }\n");
    /* the name used elsewhere (its type would change under it) */
    expect_fiber("__global__ void k(float *p) { __syncthreads(); }\n"
                 "void (*const entry)(float *) = k;\n");
}

Test(prep, co_barrier_free_kernel_unchanged)
{
    expect_fiber("__global__ void vadd(const float *a, const float *b, float *c, int n)\n"
                 "{\n"
                 "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                 "    if (i >= n)\n"
                 "        return;\n"
                 "    c[i] = a[i] + b[i];\n"
                 "}\n");
    expect_fiber("__device__ void f(float *p) { __syncthreads(); return; }\n");
}

/* Host code that launches the kernel (kept from the build by
 * TILETRANS_CHECK) does not count as a use of its name; a lambda variable
 * that synchronises counts as a function that does. */
Test(prep, co_host_code_and_lambda_variables)
{
    expect_co("__global__ void k(float *p) { __syncthreads(); }\n"
              "#ifndef TILETRANS_CHECK\n"
              "int main() { float *p = 0; k<<<1, 32>>>(p); return 0; }\n"
              "#endif\n",
              "__global__ TT_SIM_CO_KERNEL k(float *p) { TT_SIM_CO_SYNCTHREADS(); }\n"
              "#ifndef TILETRANS_CHECK\n"
              "int main() { float *p = 0; k<<<1, 32>>>(p); return 0; }\n"
              "#endif\n");
    expect_fiber("auto wait = [] __device__ () { __syncthreads(); };\n"
                 "__global__ void k(float *p) { wait(); __syncthreads(); }\n");
    expect_fiber("#define ENTRY k\n__global__ void k(float *p) { __syncthreads(); }\n");
}

/* What a coroutine cannot hold, or this rewrite cannot read. */
Test(prep, co_not_eligible)
{
    expect_fiber("__global__ void k(float *p) { __syncthreads(); co_await x; }\n");
    expect_fiber("__global__ void k(float *p) { jmp_buf b; if (setjmp(b)) return; __syncthreads(); }\n");
    expect_fiber("__global__ void k(float *p) { auto f = &__syncthreads; __syncthreads(); }\n");
    expect_fiber("__global__ void k(float *p) { __syncthreads(); p[0] = 1 @ 2; }\n");
    expect_fiber("__global__ void k(int n, ...) { __syncthreads(); }\n");
    expect_fiber("__global__ void k(float *p) {\n#include \"body.inc\"\n __syncthreads();\n}\n");
    /* same-file macros that return or synchronise */
    expect_fiber("#define CHECK(x) if (!(x)) return\n"
                 "__global__ void k(float *p) { CHECK(p); __syncthreads(); }\n");
    expect_fiber("#define SYNC() __syncthreads()\n#define SYNC2 SYNC()\n"
                 "__global__ void k(float *p) { SYNC2; p[0] = 1; }\n");
    /* a macro that is neither is fine */
    expect_co("#define N 256\n#define M (N * 2)\n"
              "__global__ void k(float *p) { p[M] = 0; __syncthreads(); }\n",
              "#define N 256\n#define M (N * 2)\n"
              "__global__ TT_SIM_CO_KERNEL k(float *p) { p[M] = 0; TT_SIM_CO_SYNCTHREADS(); }\n");
}

/* Text already prepared is left as it is (a second preparation is a no-op,
 * fiber chains included). */
Test(prep, co_prepared_text_is_left_alone)
{
    const char *src = "__device__ float f(float v) {\n"
                      "  for (int o = 16; o > 0; o /= 2) v += __shfl_down(v, o);\n"
                      "  return v;\n"
                      "}\n"
                      "__global__ void k(float *p) {\n"
                      "  __shared__ float s[32];\n"
                      "  float v = p[0];\n"
                      "  for (int o = 16; o > 0; o /= 2) v += __shfl_down(v, o);\n"
                      "  s[0] = v;\n"
                      "  __syncthreads();\n"
                      "  if (v > 0) return;\n"
                      "}\n";
    char *o = prep(src);
    cr_expect(strstr(o, "__global__ TT_SIM_CO_KERNEL k(float *p) {\n"), "%s", o);
    cr_expect(strstr(o, "TT_SIM_CO_CHAIN(v, tt_sim_cp_,"), "%s", o);
    cr_expect(strstr(o, "  if (v > 0) TT_SIM_CO_RETURN;\n"), "%s", o);
    expect_fixed_point(o);
    /* the names of the rewrite in a kernel keep it as it is */
    expect_fiber("__global__ void k(float *p) { TT_SIM_CO_SYNCTHREADS(); __syncthreads(); }\n");
    free(o);
}

/* A source's own overloads of the shims' macro warp functions (the bf16
 * shuffles of tiletrans's HIP compat header) are renamed; calls are not. */
Test(prep, own_overloads_of_macro_warp_functions)
{
    const char *src = "struct bf { unsigned short x; };\n"
                      "__device__ inline bf __shfl_xor(bf v, int m, int w = warpSize) {\n"
                      "  bf r; r.x = (unsigned short)__shfl_xor((int)v.x, m, w); return r;\n"
                      "}\n"
                      "inline unsigned long long\n__ballot(bf v);\n"
                      "__device__ float f(float v) { return v * __shfl_xor(v, 1) + __shfl(v, 0); }\n"
                      "__device__ int g(int p) { return __any(p) ? 1 : __all(p); }\n";
    char *o = prep(src);
    cr_expect(strstr(o, "bf tt_sim_own___shfl_xor(bf v") != NULL, "%s", o);
    cr_expect(strstr(o, "(unsigned short)__shfl_xor((int)v.x") != NULL, "%s", o);
    cr_expect(strstr(o, "unsigned long long\ntt_sim_own___ballot(bf v);") != NULL, "%s", o);
    cr_expect(strstr(o, "return v * __shfl_xor(v, 1) + __shfl(v, 0);") != NULL, "%s", o);
    cr_expect(strstr(o, "return __any(p) ? 1 : __all(p);") != NULL, "%s", o);
    cr_expect_eq(lines(o), lines(src));
    expect_fixed_point(o);
    free(o);
}

/* ---- the token view (src/xform/prep_tok.c): the leaves of the tree-sitter parse,
 * cut as a lexer cuts them, which is what every token pass above relies on. */

/* The tokens of src as "K:text" joined by '|' (K: i id, n number, p punctuator,
 * o other, c comment, s literal, d directive); caller frees. */
static char *token_list(const char *src)
{
    static const char kinds[] = "inpocsd";
    toks ts = {src, NULL, 0};
    cr_assert_eq(tt_xf_tok_split(&ts, strlen(src)), 0);
    sbuf b = {0};
    for (size_t i = 0; i < ts.n; i++) {
        char k[3] = {kinds[ts.v[i].kind], ':', 0};
        if (i)
            sb_puts(&b, "|");
        sb_puts(&b, k);
        sb_put(&b, src + ts.v[i].s, ts.v[i].e - ts.v[i].s);
    }
    sb_put(&b, "", 0);
    free(ts.v);
    return b.p;
}

static void expect_tokens(const char *src, const char *want)
{
    char *got = token_list(src);
    cr_expect_str_eq(got, want, "tokens of:\n%s", src);
    free(got);
}

/* The grammar splits `>>` that closes two template lists and `::` in an asm
 * statement, and has one `<<<` token for a launch: the passes see `>>`, `::`
 * and `<<` `<`, as they would from a lexer. */
Test(tokens, punctuators_are_cut_by_maximal_munch)
{
    expect_tokens("A<B<int>> x;", "i:A|p:<|i:B|p:<|i:int|p:>>|i:x|p:;");
    expect_tokens("void f(){ k<<<1, 32>>>(p); }",
                  "i:void|i:f|p:(|p:)|p:{|i:k|p:<<|p:<|n:1|p:,|n:32|p:>>|p:>|p:(|i:p|p:)|p:;|p:}");
    expect_tokens("void f(int x){ asm volatile(\"\" :: \"r\"(x)); }",
                  "i:void|i:f|p:(|i:int|i:x|p:)|p:{|i:asm|i:volatile|p:(|s:\"\"|p:::|s:\"r\"|p:(|i:x|p:)|p:)|p:;|p:}");
}

/* A negative number is one number_literal to the grammar, two tokens to the passes;
 * a number with a user-defined suffix is one. */
Test(tokens, numbers)
{
    expect_tokens("int x = -1;", "i:int|i:x|p:=|p:-|n:1|p:;");
    expect_tokens("auto y = 0_ic + 2.5e-3f;", "i:auto|i:y|p:=|n:0_ic|p:+|n:2.5e-3f|p:;");
}

/* A directive is one token from `#` to the end of its line, comments and
 * continuations included; a `#` that does not start a line is no directive. */
Test(tokens, directives_are_lines)
{
    expect_tokens("#if A // c\nint x;\n#endif // e\n",
                  "d:#if A // c|i:int|i:x|p:;|d:#endif // e");
    expect_tokens("#define M(a) \\\n  (a + 1)\nint y = M(2);\n",
                  "d:#define M(a) \\\n  (a + 1)|i:int|i:y|p:=|i:M|p:(|n:2|p:)|p:;");
    expect_tokens("int z; #endif\n", "i:int|i:z|p:;|o:#|i:endif");
}

/* What the parser cannot read still gets a lexer's tokens; a byte no rule knows is
 * T_OTHER (the coroutine pass then leaves the kernel on fibers). */
Test(tokens, text_the_parser_cannot_read)
{
    expect_tokens("void f(float *p) { p[0] = 1 @ 2; }",
                  "i:void|i:f|p:(|i:float|p:*|i:p|p:)|p:{|i:p|p:[|n:0|p:]|p:=|n:1|o:@|n:2|p:;|p:}");
    expect_tokens("x = \"a // b\"; /* c */ 'q';", "i:x|p:=|s:\"a // b\"|p:;|c:/* c */|s:'q'|p:;");
}

/* A #define whose body declares __shared__ memory (a local header's helper macro):
 * the body is rewritten, a declaration that spans a line splice keeps it. */
Test(prep, shared_in_a_define_body)
{
    const char *src =
        "#define SMEM(T, n) __shared__ T buf[n];\n"
        "#define TWO __shared__ float \\\n   a[4], b[4];\n"
        "__global__ void k() { SMEM(float, 32) TWO }\n";
    char *o = prep(src);
    cr_expect(strstr(o, "#define SMEM(T, n) TT_SIM_SHARED_GLOBAL(buf, 0, ([n]), T);\n"), "%s", o);
    cr_expect(strstr(o, "#define TWO TT_SIM_SHARED_GLOBAL(a, 0, ([4]), float); TT_SIM_SHARED_GLOBAL(b, 0, ([4]), float);\\\n\n"),
              "%s", o);
    cr_expect_eq(lines(o), lines(src));
    free(o);
}
