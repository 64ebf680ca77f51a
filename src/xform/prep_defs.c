/* prep_defs.c — what a source defines, for the coroutine-kernel
 * rewrite of tt_xf_prepare_source() (prep_co.c): its function
 * definitions (and lambdas stored in namespace-scope variables), its
 * `__global__` declarations, its macros, and which of them block.
 *
 * Why: a kernel can only become a coroutine if nothing it runs blocks
 * outside its own body, where the rewrite cannot put a co_await.  Calls are
 * followed by name only (no overload resolution, no types): a name that
 * names a blocking definition or macro anywhere in the file counts as
 * blocking everywhere.  That errs towards fibers, which always work.
 *
 * The file is read at token level with the brackets paired
 * (prep_tok.c): a `{` at namespace or class scope opens a function
 * body when the tokens before it read `NAME(...) [qualifiers] [-> type]`;
 * function bodies are not searched for further definitions.
 */
#include "prep_defs.h"
#include "prep_chain.h"

#define NO TOK_NONE

/* ---------------------------------------------------------------- names */

/* Names that block besides the collectives (tt_xf_chain_collectives):
 * cooperative groups, AMD wave barriers. */
static const char *const blocking_names[] = {
    "cooperative_groups", "this_thread_block", "tiled_partition",  "coalesced_threads",
    "this_grid",          "thread_block_tile", "grid_group",       "binary_partition",
    "labeled_partition",  "memcpy_async",      "this_multi_grid",  "multi_grid_group",
    "thread_block",       "thread_group",      "coalesced_group",  "__builtin_amdgcn_wave_barrier",
    "__builtin_amdgcn_s_barrier", NULL};
/* Member calls that block (`g.sync()`; also every `.shfl...(`). */
static const char *const blocking_members[] = {
    "sync", "ballot", "any", "all", "match_any", "match_all", "barrier_wait", "barrier_arrive", NULL};
/* What a coroutine kernel cannot hold. */
static const char *const never_in_co[] = {
    "co_await",  "co_return",  "co_yield",         "setjmp",            "longjmp", "_setjmp",
    "_longjmp",  "sigsetjmp",  "siglongjmp",       "__builtin_setjmp",  "__builtin_longjmp",
    "asm",       "__asm",      "__asm__",          "alloca",            "__builtin_alloca", NULL};
/* Words before `(...)` that are not a function's name in a declaration. */
static const char *const attr_calls[] = {"__attribute__", "__launch_bounds__", "__declspec", "alignas",
                                         "noexcept",      "throw",             "__maxnreg__", NULL};
/* Words before `(` that are not a function's name at all. */
static const char *const not_fn_names[] = {
    "if",      "for",      "while",     "switch",    "catch",         "return",   "sizeof",
    "alignof", "decltype", "typeid",    "defined",   "static_assert", "requires", "co_await",
    "co_return", "co_yield", "new",     "delete",    "do",            "else",     "case",
    "default", "try",      "_Pragma",   "__pragma",  "__typeof__",    "typeof",   "__builtin_offsetof",
    NULL};
/* May follow a function's `)` before its body. */
static const char *const fn_quals[] = {"const",        "volatile",   "noexcept", "override", "final",
                                       "__restrict__", "__restrict", NULL};
/* May stand between `void` and a kernel's name. */
static const char *const void_to_name[] = {"__global__", "__noinline__", "__forceinline__", NULL};
/* What a type may be made of, brackets aside (`-> type`). */
static const char *const type_puncts[] = {"::", "<", ">", ">>", "*", "&", "&&", ",", NULL};
/* May stand between a lambda's parameters and its body. */
static const char *const lambda_specs[] = {"mutable",  "constexpr",  "consteval", "static",
                                           "noexcept", "__device__", "__host__",  "__forceinline__",
                                           "__noinline__", NULL};
/* Keywords after which `[` starts a lambda, not a subscript. */
static const char *const lambda_after[] = {"return", "else",     "do",       "throw",
                                           "case",   "co_return", "co_yield", "co_await", NULL};

static int name_in(const char *s, size_t l, const char *const *list)
{
    for (; *list; list++)
        if (strlen(*list) == l && memcmp(s, *list, l) == 0)
            return 1;
    return 0;
}

static int name_prefix(const char *s, size_t l, const char *const *list)
{
    for (; *list; list++) {
        size_t k = strlen(*list);
        if (l >= k && memcmp(s, *list, k) == 0)
            return 1;
    }
    return 0;
}

int tt_xf_defs_blocks_name(const char *s, size_t l)
{
    return name_prefix(s, l, tt_xf_chain_collectives) || name_in(s, l, blocking_names);
}

int tt_xf_defs_never_name(const char *s, size_t l)
{
    return name_in(s, l, never_in_co) || (l >= 10 && memcmp(s, "TT_SIM_CO_", 10) == 0);
}

int tt_xf_defs_blocking_member(const toks *ts, size_t i)
{
    if (i == 0 || !(is(ts, i - 1, ".") || is(ts, i - 1, "->")) || !is(ts, i + 1, "("))
        return 0;
    return in_list(ts, i, blocking_members) || (tlen(ts, i) >= 4 && memcmp(tok_str(ts, i), "shfl", 4) == 0);
}

/* ---------------------------------------------------------------- the private parts */

typedef struct tt_xf_macro { /* #define name and replacement text */
    const char *s, *r, *re;
    size_t l;
    int node;
} macro;

typedef struct tt_xf_name { /* the name table: one entry per definition or macro */
    const char *s;
    size_t l;
    int is_macro, node;
} entry;

typedef struct tt_xf_edge { /* node `from` names node `to` */
    int from, to;
} edge;

/* *cap grown for one more element of v (realloc'd), or v unchanged and
 * d->oom set. */
static void *grown(tt_xf_defs *d, void *v, size_t *cap, size_t size)
{
    size_t c = *cap ? *cap * 2 : 16;
    void *p = realloc(v, c * size);
    if (!p) {
        d->oom = 1;
        return v;
    }
    *cap = c;
    return p;
}
/* Room for arr[n] (false when out of memory). */
#define PUSH(d, arr, n, cap) ((n) < (cap) || ((arr) = grown((d), (arr), &(cap), sizeof *(arr)), (n) < (cap)))

/* ---------------------------------------------------------------- names table */

static int ent_cmp(const void *x, const void *y)
{
    const entry *a = x, *b = y;
    size_t l = a->l < b->l ? a->l : b->l;
    int c = memcmp(a->s, b->s, l);
    if (c)
        return c;
    if (a->l != b->l)
        return a->l < b->l ? -1 : 1;
    return a->is_macro - b->is_macro;
}

/* The entries named s[0, l): [*lo, return value). */
static size_t lookup(const tt_xf_defs *d, const char *s, size_t l, size_t *lo)
{
    size_t b = 0, e = d->nent;
    entry key = {s, l, 0, 0};
    while (b < e) {
        size_t m = b + (e - b) / 2;
        if (ent_cmp(&d->ent[m], &key) < 0)
            b = m + 1;
        else
            e = m;
    }
    *lo = b;
    while (e < d->nent && d->ent[e].l == l && memcmp(d->ent[e].s, s, l) == 0)
        e++;
    return e > b ? e : b;
}

/* The definition node named s[0, l) (not a macro), or -1. */
static int def_node(const tt_xf_defs *d, const char *s, size_t l)
{
    size_t lo, hi = lookup(d, s, l, &lo);
    return lo < hi && !d->ent[lo].is_macro ? d->ent[lo].node : -1;
}

/* ---------------------------------------------------------------- declarations */

/* The name of the function whose body opens at `brace`, or NO (then the
 * brace opens something else: a namespace, class, initializer, a lambda).
 * Walks back over qualifiers, attributes and a trailing return type to the
 * parameters' `)`; *popen gets their `(`. */
static size_t def_name(const tt_xf_defs *d, size_t brace, size_t *popen)
{
    const toks *ts = d->ts;
    size_t j = tok_prev(ts, brace);
    for (int guard = 0; j != NO && guard < 64; guard++) {
        if (ts->v[j].kind >= T_OTHER)
            return NO;
        if (is(ts, j, ")")) {
            size_t o = d->pair[j], p = o == NO ? NO : tok_prev(ts, o);
            if (p == NO || ts->v[p].kind >= T_OTHER)
                return NO;
            if (in_list(ts, p, attr_calls)) {
                j = tok_prev(ts, p);
                continue;
            }
            size_t q = tok_prev(ts, p);
            if (q != NO && is(ts, q, "operator")) { /* operator+, operator new */
                *popen = o;
                return q;
            }
            if ((is(ts, p, ")") || is(ts, p, "]")) && d->pair[p] != NO &&
                is(ts, tok_prev(ts, d->pair[p]), "operator")) { /* operator(), operator[] */
                *popen = o;
                return tok_prev(ts, d->pair[p]);
            }
            if (ts->v[p].kind == T_ID && !in_list(ts, p, not_fn_names)) {
                *popen = o;
                return p;
            }
            return NO;
        }
        if (in_list(ts, j, fn_quals) || is(ts, j, "&") || is(ts, j, "&&")) {
            j = tok_prev(ts, j);
            continue;
        }
        /* `-> type` */
        size_t k = j;
        while (k != NO && !is(ts, k, "->")) {
            if (is(ts, k, ")") || is(ts, k, "]"))
                k = d->pair[k];
            else if (ts->v[k].kind != T_ID && ts->v[k].kind != T_NUM && !in_list(ts, k, type_puncts))
                return NO;
            k = k == NO ? NO : tok_prev(ts, k);
        }
        if (k == NO)
            return NO;
        j = tok_prev(ts, k);
    }
    return NO;
}

/* First token of the declaration whose name is at `name`: after the
 * previous `;`, `{`, `}`, `:` or preprocessor line. */
static size_t decl_start(const tt_xf_defs *d, size_t name)
{
    const toks *ts = d->ts;
    size_t start = name;
    for (size_t j = name; j-- > 0;) {
        if (ts->v[j].kind == T_COMMENT)
            continue;
        if (ts->v[j].kind == T_PP || is(ts, j, ";") || is(ts, j, "{") || is(ts, j, "}") ||
            is(ts, j, ":") || is(ts, j, "(") || is(ts, j, "["))
            break;
        if (is(ts, j, ")") || is(ts, j, "]")) {
            if (d->pair[j] == NO)
                break;
            j = d->pair[j];
        }
        start = j;
    }
    return start;
}

/* The `void` return type of the declaration [head, name): the last `void`
 * before the name with only __global__-like words and attributes between
 * them; NO if there is none. */
static size_t find_void(const tt_xf_defs *d, size_t head, size_t name)
{
    const toks *ts = d->ts;
    for (size_t j = tok_prev(ts, name); j != NO && j >= head; j = tok_prev(ts, j)) {
        if (is(ts, j, "void"))
            return j;
        if (is(ts, j, ")") && d->pair[j] != NO && in_list(ts, tok_prev(ts, d->pair[j]), attr_calls))
            j = tok_prev(ts, d->pair[j]);
        else if (!in_list(ts, j, void_to_name))
            return NO;
    }
    return NO;
}

static int in_range(size_t i, size_t a, size_t b)
{
    return i >= a && i <= b;
}

/* ---------------------------------------------------------------- lambdas */

/* After the `]`: [<template params>] [(params)] [specifiers] [-> type]
 * then the body. */
size_t tt_xf_defs_lambda_body(const toks *ts, const size_t *pair, size_t i)
{
    size_t e = pair[i], j = e == NO ? NO : tok_next(ts, e);
    int lam = 0;
    if (j != NO && is(ts, j, "<")) { /* []<class T>(...) */
        int depth = 0;
        for (lam = 1; j != NO; j = tok_next(ts, j)) {
            depth += is(ts, j, "<") - is(ts, j, ">") - 2 * is(ts, j, ">>");
            if (depth <= 0 || is(ts, j, ";") || is(ts, j, "{"))
                break;
        }
        j = j != NO && depth == 0 ? tok_next(ts, j) : NO;
    }
    if (j != NO && is(ts, j, "(")) {
        lam = 1;
        j = pair[j] == NO ? NO : tok_next(ts, pair[j]);
    }
    while (j != NO && (in_list(ts, j, lambda_specs) || in_list(ts, j, attr_calls))) {
        lam = 1;
        size_t nx = tok_next(ts, j);
        if (nx != NO && is(ts, nx, "(") && pair[nx] != NO)
            nx = tok_next(ts, pair[nx]);
        j = nx;
    }
    if (j != NO && is(ts, j, "->")) {
        lam = 1;
        for (j = tok_next(ts, j); j != NO && !is(ts, j, "{"); j = tok_next(ts, j)) {
            if (is(ts, j, "(") && pair[j] != NO)
                j = pair[j];
            else if (ts->v[j].kind != T_ID && ts->v[j].kind != T_NUM && !in_list(ts, j, type_puncts))
                return i;
        }
    }
    if (j != NO && is(ts, j, "{"))
        return pair[j] == NO ? i : j;
    return lam ? i : NO;
}

/* Not after a name (but a keyword such as `return`), a number, a string,
 * `)` or `]`. */
int tt_xf_defs_lambda_at(const toks *ts, size_t i)
{
    size_t p = tok_prev(ts, i);
    if (p == NO || ts->v[p].kind == T_PP)
        return 1;
    int k = ts->v[p].kind;
    if (k == T_ID)
        return in_list(ts, p, lambda_after);
    return !(k == T_NUM || k == T_STR || is(ts, p, ")") || is(ts, p, "]"));
}

/* Every function definition at namespace or class scope (not those inside
 * function bodies), and every `NAME = [...](...) {...}` there (a lambda
 * called by its variable's name). */
static void find_defs(tt_xf_defs *d)
{
    const toks *ts = d->ts;
    for (size_t i = 0; i < ts->n; i++) {
        size_t popen = NO, name = NO;
        if (is(ts, i, "[") && tt_xf_defs_lambda_at(ts, i)) {
            size_t body = tt_xf_defs_lambda_body(ts, d->pair, i), eq = tok_prev(ts, i);
            if (body == NO || body == i)
                continue;
            size_t var = is(ts, eq, "=") ? tok_prev(ts, eq) : NO;
            if (var != NO && ts->v[var].kind == T_ID)
                name = var;
            i = body;
        }
        if (name == NO && (!is(ts, i, "{") || d->pair[i] == NO || (name = def_name(d, i, &popen)) == NO))
            continue;
        if (!PUSH(d, d->fn, d->nfn, d->cfn))
            return;
        tt_xf_def *f = &d->fn[d->nfn++];
        memset(f, 0, sizeof *f);
        f->name = name;
        f->popen = popen;
        f->open = i;
        f->close = d->pair[i];
        f->head = decl_start(d, name);
        f->host = popen != NO;
        for (size_t j = f->head; j < name; j++) {
            f->kernel |= is(ts, j, "__global__");
            f->host &= !is(ts, j, "__global__") && !is(ts, j, "__device__");
        }
        f->vtok = f->kernel ? find_void(d, f->head, name) : NO;
        i = f->close;
    }
}

/* Poisons the kernel name at token i (if it is one), or the whole file. */
static void poison(tt_xf_defs *d, size_t i)
{
    if (i == NO) {
        d->poison_all = 1;
        return;
    }
    int n = def_node(d, tok_str(d->ts, i), tlen(d->ts, i));
    if (n >= 0)
        d->kernel_ok[n] = 0;
}

/* The __global__ declarations that are not definitions: prototypes and
 * explicit instantiations `[template] __global__ void NAME[<...>](...);`.
 * One this cannot read keeps its kernel (or, nameless, every kernel) off
 * coroutines. */
static void find_protos(tt_xf_defs *d)
{
    const toks *ts = d->ts;
    size_t k = 0;
    for (size_t g = 0; g < ts->n; g++) {
        if (!is(ts, g, "__global__"))
            continue;
        while (k < d->nfn && d->fn[k].close < g)
            k++;
        if (k < d->nfn && in_range(g, d->fn[k].head, d->fn[k].close))
            continue; /* a definition's own, or inside one */
        size_t j = tok_next(ts, g), name = NO, open = NO;
        while (j != NO && open == NO) {
            size_t nx = tok_next(ts, j);
            if (is(ts, j, ";") || is(ts, j, "{") || is(ts, j, "}") || ts->v[j].kind >= T_OTHER)
                break;
            if (in_list(ts, j, attr_calls) && is(ts, nx, "(")) {
                j = d->pair[nx] == NO ? NO : tok_next(ts, d->pair[nx]);
                continue;
            }
            if (ts->v[j].kind == T_ID && (is(ts, nx, "(") || is(ts, nx, "<"))) {
                name = j;
                size_t t = nx; /* past `<...>` */
                for (int depth = 0; t != NO && is(ts, nx, "<"); t = tok_next(ts, t)) {
                    depth += is(ts, t, "<") - is(ts, t, ">") - 2 * is(ts, t, ">>");
                    if (is(ts, t, ";") || is(ts, t, "{") || is(ts, t, "}") || depth < 0) {
                        t = NO;
                        break;
                    }
                    if (depth == 0) {
                        t = tok_next(ts, t);
                        break;
                    }
                }
                open = t != NO && is(ts, t, "(") ? t : NO;
                break;
            }
            j = nx;
        }
        size_t e = open == NO ? NO : d->pair[open];
        while (e != NO && !is(ts, e, ";")) {
            e = tok_next(ts, e);
            if (e != NO && in_list(ts, e, attr_calls) && is(ts, tok_next(ts, e), "("))
                e = d->pair[tok_next(ts, e)];
            else if (e != NO && !is(ts, e, ";") && !in_list(ts, e, fn_quals))
                e = NO;
        }
        size_t v = e == NO ? NO : find_void(d, decl_start(d, name), name);
        if (v == NO) {
            poison(d, name);
            continue;
        }
        d->decl_name[name] = 1;
        if (!PUSH(d, d->kd, d->nkd, d->ckd))
            return;
        d->kd[d->nkd++] = (tt_xf_kdecl){name, v};
    }
}

/* Identifiers of the text [p, e) (a macro's replacement): the next one's
 * start, with its length in *l; NULL at the end.  Literals, comments and
 * numbers are skipped. */
static const char *next_ident(const char *p, const char *e, size_t *l)
{
    while (p < e) {
        if (*p == '"' || *p == '\'') {
            char q = *p++;
            while (p < e && *p != q && *p != '\n')
                p += *p == '\\' ? 2 : 1;
            p++;
        } else if (p + 1 < e && p[0] == '/' && p[1] == '*') {
            for (p += 2; p + 1 < e && !(p[0] == '*' && p[1] == '/'); p++)
                ;
            p += 2;
        } else if (p + 1 < e && p[0] == '/' && p[1] == '/') {
            while (p < e && *p != '\n')
                p++;
        } else if (idc((unsigned char)*p)) {
            const char *s = p;
            while (p < e && idc((unsigned char)*p))
                p++;
            if (!isdigit((unsigned char)*s)) {
                *l = (size_t)(p - s);
                return s;
            }
        } else {
            p++;
        }
    }
    return NULL;
}

/* Every `#define NAME replacement` (its parameters count as replacement:
 * harmless, they are just more names). */
static void find_macros(tt_xf_defs *d)
{
    const toks *ts = d->ts;
    for (size_t i = 0; i < ts->n; i++) {
        if (ts->v[i].kind != T_PP)
            continue;
        const char *p = tok_str(ts, i) + 1, *e = ts->t + ts->v[i].e;
        while (p < e && (*p == ' ' || *p == '\t'))
            p++;
        if (e - p < 7 || memcmp(p, "define", 6) != 0 || idc((unsigned char)p[6]))
            continue;
        size_t l;
        const char *s = next_ident(p + 6, e, &l);
        if (!s || !PUSH(d, d->mac, d->nmac, d->cmac))
            continue;
        d->mac[d->nmac++] = (macro){s, s + l, e, l, 0};
    }
}

/* ---------------------------------------------------------------- the graph */

static void add_edge(tt_xf_defs *d, int from, int to)
{
    if (from != to && PUSH(d, d->ed, d->ned, d->ced))
        d->ed[d->ned++] = (edge){from, to};
}

/* Edges from `from` to what the name s[0, l) names. */
static void add_refs(tt_xf_defs *d, int from, const char *s, size_t l)
{
    size_t lo, hi = lookup(d, s, l, &lo);
    for (size_t k = lo; k < hi; k++)
        add_edge(d, from, d->ent[k].node);
}

static int edge_cmp(const void *x, const void *y)
{
    const edge *a = x, *b = y;
    return a->to != b->to ? (a->to < b->to ? -1 : 1) : (a->from > b->from) - (a->from < b->from);
}

/* flag[from] |= flag[to] along the edges (sorted by `to`), transitively;
 * only_macros: only along edges between macros. */
static void propagate(tt_xf_defs *d, unsigned char *flag, const unsigned char *is_macro_node,
                      int only_macros)
{
    int *queue = malloc(sizeof *queue * (size_t)(d->nnodes + 1));
    size_t *first = malloc(sizeof *first * (size_t)(d->nnodes + 1));
    if (!queue || !first) {
        d->oom = 1;
        free(queue);
        free(first);
        return;
    }
    size_t qn = 0;
    for (int v = 0, k = 0; v <= d->nnodes; v++) {
        while ((size_t)k < d->ned && d->ed[k].to < v)
            k++;
        first[v] = (size_t)k;
    }
    for (int v = 0; v < d->nnodes; v++)
        if (flag[v])
            queue[qn++] = v;
    while (qn > 0) {
        int v = queue[--qn];
        for (size_t k = first[v]; k < first[v + 1]; k++) {
            int u = d->ed[k].from;
            if (!flag[u] && (!only_macros || (is_macro_node[u] && is_macro_node[v]))) {
                flag[u] = 1;
                queue[qn++] = u;
            }
        }
    }
    free(queue);
    free(first);
}

/* Nodes are the names of definitions (all overloads of a name are one node)
 * and of macros; an edge means "mentions".  A node blocks when it or
 * anything it mentions, transitively, names a barrier or collective; a
 * macro is bad when its expansion, through other macros, holds `return` or
 * another word a coroutine kernel cannot (tt_xf_defs_never_name). */
static void build_graph(tt_xf_defs *d)
{
    const toks *ts = d->ts;
    d->nent = d->nfn + d->nmac;
    d->ent = malloc(sizeof *d->ent * (d->nent + 1));
    if (!d->ent) {
        d->oom = 1;
        return;
    }
    for (size_t k = 0; k < d->nfn; k++)
        d->ent[k] = (entry){tok_str(ts, d->fn[k].name), tlen(ts, d->fn[k].name), 0, (int)k};
    for (size_t k = 0; k < d->nmac; k++)
        d->ent[d->nfn + k] = (entry){d->mac[k].s, d->mac[k].l, 1, (int)k};
    qsort(d->ent, d->nent, sizeof *d->ent, ent_cmp);
    d->nnodes = 0;
    for (size_t k = 0; k < d->nent; k++) {
        entry *e = &d->ent[k];
        if (k > 0 && ent_cmp(e - 1, e) != 0)
            d->nnodes++;
        if (e->is_macro)
            d->mac[e->node].node = d->nnodes;
        else
            d->fn[e->node].node = d->nnodes;
        e->node = d->nnodes;
    }
    d->nnodes += d->nent > 0;
    size_t nn = (size_t)d->nnodes + 1;
    d->blocking = calloc(nn, 1);
    d->bad_macro = calloc(nn, 1);
    d->has_kernel = calloc(nn, 1);
    d->kernel_ok = calloc(nn, 1);
    unsigned char *is_mac = calloc(nn, 1);
    if (!d->blocking || !d->bad_macro || !d->has_kernel || !d->kernel_ok || !is_mac) {
        d->oom = 1;
        free(is_mac);
        return;
    }
    for (size_t k = 0; k < d->nfn; k++) {
        const tt_xf_def *f = &d->fn[k];
        d->has_kernel[f->node] |= (unsigned char)f->kernel;
        d->kernel_ok[f->node] = 1;
        for (size_t i = f->open + 1; i < f->close; i++) {
            if (ts->v[i].kind != T_ID)
                continue;
            if (tt_xf_defs_blocks_name(tok_str(ts, i), tlen(ts, i)) || tt_xf_defs_blocking_member(ts, i))
                d->blocking[f->node] = 1;
            add_refs(d, f->node, tok_str(ts, i), tlen(ts, i));
        }
    }
    for (size_t k = 0; k < d->nmac; k++) {
        const macro *m = &d->mac[k];
        size_t l;
        is_mac[m->node] = 1;
        for (const char *s = m->r; (s = next_ident(s, m->re, &l)) != NULL; s += l) {
            d->blocking[m->node] |= tt_xf_defs_blocks_name(s, l) || name_in(s, l, blocking_members) ||
                                    (l >= 4 && memcmp(s, "shfl", 4) == 0);
            d->bad_macro[m->node] |= tt_xf_defs_never_name(s, l) || (l == 6 && memcmp(s, "return", 6) == 0);
            add_refs(d, m->node, s, l);
        }
    }
    if (d->ned > 0)
        qsort(d->ed, d->ned, sizeof *d->ed, edge_cmp);
    propagate(d, d->blocking, is_mac, 0);
    propagate(d, d->bad_macro, is_mac, 1);
    /* a macro that names a kernel may take its address or declare it */
    for (size_t e = 0; e < d->ned; e++)
        if (is_mac[d->ed[e].from] && d->has_kernel[d->ed[e].to])
            d->kernel_ok[d->ed[e].to] = 0;
    free(is_mac);
}

/* ---------------------------------------------------------------- interface */

int tt_xf_defs_build(tt_xf_defs *d, const toks *ts, const size_t *pair)
{
    d->ts = ts;
    d->pair = pair;
    d->decl_name = calloc(ts->n + 1, 1);
    d->oom |= !d->decl_name;
    if (!d->oom)
        find_defs(d);
    if (!d->oom)
        find_macros(d);
    if (!d->oom)
        build_graph(d);
    if (!d->oom)
        find_protos(d);
    for (size_t k = 0; k < d->nfn && !d->oom; k++)
        d->decl_name[d->fn[k].name] = 1;
    return d->oom ? -1 : 0;
}

void tt_xf_defs_free(tt_xf_defs *d)
{
    free(d->fn);
    free(d->kd);
    free(d->decl_name);
    free(d->blocking);
    free(d->bad_macro);
    free(d->has_kernel);
    free(d->kernel_ok);
    free(d->mac);
    free(d->ent);
    free(d->ed);
    memset(d, 0, sizeof *d);
}

int tt_xf_defs_node(const tt_xf_defs *d, const char *s, size_t l)
{
    return def_node(d, s, l);
}

int tt_xf_defs_name_bad(const tt_xf_defs *d, const char *s, size_t l)
{
    size_t lo, hi = lookup(d, s, l, &lo);
    for (size_t k = lo; k < hi; k++)
        if (d->blocking[d->ent[k].node] || (d->ent[k].is_macro && d->bad_macro[d->ent[k].node]))
            return 1;
    return 0;
}
