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
