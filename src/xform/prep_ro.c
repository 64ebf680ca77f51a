/* prep_ro.c — whether a stretch of a kernel surely writes no shared memory:
 * the reads-only loops of the region form (prep_rg.c; the kernel side is
 * tt_sim_region.hpp, rg_reads_only).
 *
 * Shared memory is written through a __shared__ array's name or through a
 * pointer or reference made from one, by a call that is given either, or by
 * a macro that expands to one of those.  So a stretch surely writes none
 * when every assignment and increment is of a local by name or of an
 * element of a pointer parameter the kernel never reassigns (a kernel's
 * arguments come from the host, which has no address of a block's shared
 * memory), every call is of a math function, a cast or a macro whose body
 * writes nothing, no shared array is assigned, no macro that may write is
 * named, and nothing returns.  What it cannot tell writes: the runtime
 * sends a write in a reads-only loop after all back to coroutines, so a
 * wrong "writes nothing" costs a rerun, never a missed race.
 */
#include "prep_ro.h"
#include "prep_stmt.h"

#define code_at tt_xf_stmt_code_at
#define is_type_word tt_xf_stmt_type_word

/* Calls that write no memory (with pointer arguments: that only read). */
static const char *const pure_calls[] = {
    "min", "max", "fminf", "fmaxf", "fmin", "fmax", "fabsf", "fabs", "abs", "sqrtf", "sqrt", "rsqrtf",
    "rsqrt", "cbrtf", "expf", "exp", "exp2f", "exp2", "__expf", "expm1f", "logf", "log", "log2f",
    "log2", "log1pf", "__logf", "powf", "pow", "__powf", "sinf", "cosf", "tanf", "sin", "cos",
    "__sinf", "__cosf", "tanhf", "tanh", "erff", "erf", "floorf", "ceilf", "roundf", "truncf",
    "floor", "ceil", "round", "trunc", "rintf", "fmaf", "fma", "fmodf", "copysignf", "isnan",
    "isinf", "isfinite", "signbit", "__fmaf_rn", "__fmul_rn", "__fadd_rn", "__fsub_rn",
    "__fdividef", "__frcp_rn", "__fsqrt_rn", "__saturatef", "__int_as_float", "__float_as_int",
    "__uint_as_float", "__float_as_uint", "__float2int_rn", "__float2int_rz", "__int2float_rn",
    "__float2half", "__half2float", "__float2bfloat16", "__bfloat162float", "__hadd", "__hsub",
    "__hmul", "__hfma", "__popc", "__popcll", "__clz", "__clzll", "__ffs", "__ffsll", "__brev",
    "__umulhi", "__mulhi", "__ldg", "make_float2", "make_float3", "make_float4", "make_int2",
    "make_int4", "make_uint2", "make_uint4", "make_double2", "sizeof", "alignof", "decltype",
    "if", "for", "while", "switch", NULL};
/* Assignment operators: their left side must be a plain local's name. */
static const char *const assign_ops[] = {"=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=",
                                         "<<=", ">>=", NULL};
static const char *const cast_words[] = {"static_cast", "reinterpret_cast", "const_cast", "bit_cast",
                                         NULL};
/* Words that end the reads-only form wherever they are. */
static const char *const ro_never[] = {"return", "new", "delete", "asm", "__asm__", "goto",
                                       "operator", NULL};

static void add_name(tt_strmap *m, const char *p, size_t n, const char *what)
{
    char name[128];
    if (n == 0 || n >= sizeof name)
        return;
    memcpy(name, p, n);
    name[n] = 0;
    tt_strmap_put(m, name, what);
}

/* What the file's names say token i is (make_names; tt_xf_ro_file_kind). */
static char file_kind(const tt_xf_ro *r, size_t i)
{
    const char *v = r->ts->v[i].kind == T_ID
                        ? tt_strmap_get(&r->names->map, tok_str(r->ts, i), tlen(r->ts, i))
                        : NULL;
    return v ? v[0] : 0;
}

/* file_kind, or 'g' for a global pointer parameter of the kernel
 * (add_global_params). */
static char name_kind(const tt_xf_ro *r, size_t i)
{
    char k = file_kind(r, i);
    if (k || r->ts->v[i].kind != T_ID)
        return k;
    return tt_strmap_get(&r->params, tok_str(r->ts, i), tlen(r->ts, i)) ? 'g' : 0;
}

static int pure_word(const char *p, size_t n)
{
    for (int i = 0; pure_calls[i]; i++)
        if (strlen(pure_calls[i]) == n && memcmp(pure_calls[i], p, n) == 0)
            return 1;
    return 0;
}

/* Whether a macro body [p, e) surely writes nothing: no `=`, `++` or `--`,
 * and no call but of pure_calls. */
static int pure_body(const char *p, const char *e)
{
    for (; p < e; p++) {
        if (*p == '=' || ((*p == '+' || *p == '-') && p + 1 < e && p[1] == *p))
            return 0;
        if (!isalpha((unsigned char)*p) && *p != '_')
            continue;
        const char *w = p;
        while (p < e && (isalnum((unsigned char)*p) || *p == '_'))
            p++;
        const char *q = p;
        while (q < e && (*q == ' ' || *q == '\t'))
            q++;
        if (q < e && *q == '(' && !pure_word(w, (size_t)(p - w)))
            return 0;
        p--;
    }
    return 1;
}

/* The kernel's pointer parameters that it never assigns with `=`: they point
 * into global memory (a kernel's arguments come from the host, which has no
 * address of a block's shared memory). */
static void add_global_params(tt_xf_ro *r)
{
    const toks *ts = r->ts;
    const size_t *pair = r->pair;
    r->params_made = 1;
    size_t close = tok_prev(ts, r->open);
    if (close == TOK_NONE || !is(ts, close, ")") || pair[close] == TOK_NONE || pair[close] >= close)
        return;
    tt_strmap assigned = {0}; /* names the body assigns with `=` */
    for (size_t j = r->open; j < r->close; j++) {
        size_t b = tok_prev(ts, j);
        if (ts->v[j].kind == T_ID && is(ts, code_at(ts, j + 1), "=") &&
            (b == TOK_NONE || (!is(ts, b, ".") && !is(ts, b, "->"))))
            add_name(&assigned, tok_str(ts, j), tlen(ts, j), "");
    }
    int pointer = 0;
    for (size_t i = code_at(ts, pair[close] + 1); i < close; i = code_at(ts, i + 1)) {
        if (pair[i] != TOK_NONE && pair[i] > i) { /* an attribute's or array's group */
            i = pair[i];
            continue;
        }
        pointer |= is(ts, i, "*");
        size_t n = code_at(ts, i + 1);
        if (ts->v[i].kind != T_ID || (n != close && !is(ts, n, ",")))
            continue;
        if (pointer && !tt_strmap_get(&assigned, tok_str(ts, i), tlen(ts, i)) && !file_kind(r, i))
            add_name(&r->params, tok_str(ts, i), tlen(ts, i), "g");
        pointer = 0;
    }
    tt_strmap_free(&assigned);
}

/* Whether the left side of an assignment that ends at token e is an element
 * or member of a global buffer: p[i]..., p->f, *p, p[i].f, with
 * p a global pointer parameter (add_global_params). */
static int global_lvalue(const tt_xf_ro *r, size_t e)
{
    const toks *ts = r->ts;
    size_t i = e;
    for (int n = 0; n < 16 && i != TOK_NONE; n++) {
        if (is(ts, i, "]")) {
            size_t o = r->pair[i];
            if (o == TOK_NONE || o >= i)
                return 0;
            i = tok_prev(ts, o);
            continue;
        }
        if (ts->v[i].kind != T_ID)
            return 0;
        size_t p = tok_prev(ts, i);
        if (p != TOK_NONE && (is(ts, p, ".") || is(ts, p, "->"))) {
            i = tok_prev(ts, p);
            continue;
        }
        return name_kind(r, i) == 'g' && (i != e || (p != TOK_NONE && is(ts, p, "*")));
    }
    return 0;
}

/* The names writes_nothing() judges by the file (file_kind), once per file: every
 * __shared__ array (a rewritten declaration is TT_SIM_SHARED*(name, ...)),
 * every macro whose body may write, every macro that surely does not. */
static void make_names(tt_xf_ro *r)
{
    const toks *ts = r->ts;
    tt_strmap *m = &r->names->map;
    r->names->made = 1;
    for (size_t i = 0; i < ts->n; i++) {
        if (ts->v[i].kind == T_ID && (is(ts, i, "TT_SIM_SHARED") || is(ts, i, "TT_SIM_SHARED_EXTERN") ||
                                      is(ts, i, "TT_SIM_SHARED_GLOBAL"))) {
            size_t p = code_at(ts, i + 1), n = code_at(ts, p + 1);
            if (is(ts, p, "(") && ts->v[n].kind == T_ID)
                add_name(m, tok_str(ts, n), tlen(ts, n), "s");
            continue;
        }
        if (ts->v[i].kind != T_PP)
            continue;
        const char *p = tok_str(ts, i) + 1, *e = tok_str(ts, i) + tlen(ts, i);
        while (p < e && (*p == ' ' || *p == '\t'))
            p++;
        if (e - p < 7 || memcmp(p, "define", 6) != 0 || (p[6] != ' ' && p[6] != '\t'))
            continue;
        for (p += 6; p < e && (*p == ' ' || *p == '\t');)
            p++;
        const char *name = p;
        while (p < e && (isalnum((unsigned char)*p) || *p == '_'))
            p++;
        add_name(m, name, (size_t)(p - name), pure_body(p, e) ? "p" : "w");
    }
}

/* A call of token i (the word before a `(`) that writes nothing: a
 * pure_calls function, a pure macro, a type (a cast). */
static int pure_call(const tt_xf_ro *r, size_t i)
{
    return in_list(r->ts, i, pure_calls) || is_type_word(r->ts, i) || name_kind(r, i) == 'p';
}

/* Whether token i (an identifier) names a plain local here: not a shared
 * array or macro, not a member (after `.`, `->` or `::`). */
static int plain_name(const tt_xf_ro *r, size_t i)
{
    const toks *ts = r->ts;
    if (i == TOK_NONE || ts->v[i].kind != T_ID || name_kind(r, i))
        return 0;
    size_t p = tok_prev(ts, i);
    return p == TOK_NONE || (!is(ts, p, ".") && !is(ts, p, "->") && !is(ts, p, "::") && !is(ts, p, "*") &&
                             !is(ts, p, "&"));
}

char tt_xf_ro_file_kind(tt_xf_ro *r, size_t i)
{
    if (!r->names->made)
        make_names(r);
    return file_kind(r, i);
}

/* Whether the code in tokens [a, z) surely writes no shared memory: every
 * assignment and increment is of a plain local by name or of a global
 * element, every call is of a pure_calls function (or a type: a cast), no
 * shared array or writing macro is named, nothing returns.  Conservative:
 * what it cannot tell writes. */
int tt_xf_ro_writes_nothing(tt_xf_ro *r, size_t a, size_t z)
{
    const toks *ts = r->ts;
    if (!r->names->made)
        make_names(r);
    if (!r->params_made)
        add_global_params(r);
    for (size_t i = a; i < z; i++) {
        int k = ts->v[i].kind;
        if (k == T_COMMENT || k == T_NUM || k == T_STR || k == T_PP)
            continue; /* (the region form admits no directive but #pragma) */
        if (in_list(ts, i, ro_never) || name_kind(r, i) == 'w')
            return 0;
        if (in_list(ts, i, assign_ops)) {
            if (!plain_name(r, tok_prev(ts, i)) && !global_lvalue(r, tok_prev(ts, i)))
                return 0;
        } else if (is(ts, i, "++") || is(ts, i, "--")) {
            size_t p = tok_prev(ts, i), n = code_at(ts, i + 1);
            int post = p != TOK_NONE && (ts->v[p].kind == T_ID || is(ts, p, "]"));
            if (post ? !plain_name(r, p) && !global_lvalue(r, p)
                     : !plain_name(r, n) || is(ts, code_at(ts, n + 1), "[") || is(ts, code_at(ts, n + 1), ".") ||
                           is(ts, code_at(ts, n + 1), "->") || is(ts, code_at(ts, n + 1), "("))
                return 0;
        } else if (is(ts, i, "(")) {
            size_t p = tok_prev(ts, i);
            if (p == TOK_NONE)
                continue;
            if (is(ts, p, ">")) { /* a cast converts; another template call may write */
                size_t q = p;
                for (int n = 0; n < 8 && q != TOK_NONE && !is(ts, q, "<"); n++)
                    q = tok_prev(ts, q);
                if (q == TOK_NONE || !is(ts, q, "<") || !in_list(ts, tok_prev(ts, q), cast_words))
                    return 0;
            } else if (ts->v[p].kind == T_ID ? !pure_call(r, p)
                                              : ts->v[p].kind != T_PUNCT || is(ts, p, ")") ||
                                                    is(ts, p, "]") || is(ts, p, "}")) {
                return 0; /* a call of a function, an expression or a lambda */
            }
        }
    }
    return 1;
}

void tt_xf_rg_names_free(tt_xf_rg_names *n)
{
    tt_strmap_free(&n->map);
    n->made = 0;
}

void tt_xf_ro_free(tt_xf_ro *r)
{
    tt_strmap_free(&r->params);
    r->params_made = 0;
}
