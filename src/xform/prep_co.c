/* prep_co.c — the third rewrite of tt_xf_prepare_source(): kernels
 * that become C++20 coroutines; and the one walk over the file that applies
 * it together with the shuffle-chain rewrite (prep_chain.c).
 *
 * Why: on fibers every GPU thread has a stack and every barrier is a
 * context switch.  A kernel whose only blocking points are in its own body
 * can instead run each thread as a coroutine frame that suspends at them,
 * but C++ needs to be told where: co_await at each barrier, co_return for
 * return, a coroutine return type.  That is a source rewrite:
 *
 *   void                           -> TT_SIM_CO_KERNEL   (declarations too)
 *   __syncthreads[_count|_and|_or] -> TT_SIM_CO_SYNCTHREADS[_COUNT|_AND|_OR]
 *   return (not in a lambda or local class) -> TT_SIM_CO_RETURN
 *   chain loop                     -> its co form (prep_chain.c)
 *
 * The shims define the macros so that the same text is a coroutine in C++20
 * and a plain fiber kernel otherwise; only names change, so no byte moves
 * across a line.
 *
 * Which kernels ("co kernels"): a __global__ void definition whose body
 * has a barrier call or a chain loop outside lambdas and local classes, and
 * nothing the coroutine could not await or compile: no other collective or
 * cooperative-groups name (outside chain loops), no co_ keyword, TT_SIM_CO_
 * name, setjmp/longjmp, asm or alloca, no sync point in a lambda or local
 * class, no #include, no reference to a same-file function or macro that
 * blocks (transitively), no same-file macro that expands to `return`; the
 * whole definition lexes (no stray characters, brackets nest); and its name
 * is nowhere else in the file (host-function bodies aside) but in the
 * definitions and `__global__ void` declarations of it, all of which
 * qualify.  Calls of functions defined
 * elsewhere stay allowed: if one blocks, the runtime fails that launch with
 * TT_SIM_ERR_NEEDS_FIBERS and it is run again on fibers.  Anything this file
 * does not understand keeps the kernel on fibers, which always works.
 * What the file defines and which of it blocks is prep_defs.c's.
 */
#include "prep_co.h"
#include "prep_chain.h"
#include "prep_defs.h"
#include "prep_rg.h"

#define NO TOK_NONE

static const char *const sync_names[] = {"__syncthreads", "__syncthreads_count", "__syncthreads_and",
                                         "__syncthreads_or", NULL};
static const char *const co_sync_names[] = {"TT_SIM_CO_SYNCTHREADS", "TT_SIM_CO_SYNCTHREADS_COUNT",
                                            "TT_SIM_CO_SYNCTHREADS_AND", "TT_SIM_CO_SYNCTHREADS_OR", NULL};

typedef struct co {
    const toks *ts;
    const size_t *pair;
    tt_xf_defs d;
    tt_xf_chain_loop *ch; /* every chain loop of the file, in text order */
    size_t nch, cch;
    unsigned char *chain_co; /* per chain: in a co kernel */
    const char **rep;        /* per token: its replacement, or NULL */
    sbuf *rg;                /* per co kernel (d.fn order): its region form, */
    size_t *rg_at;           /* inserted after this token (NO: none) */
    tt_xf_rg_names names;    /* the file's names, for every kernel's region form */
    int oom;
} co;

static int in_range(size_t i, size_t a, size_t b)
{
    return i >= a && i <= b;
}

/* ---------------------------------------------------------------- kernels */

/* Whether the definition f qualifies as a co kernel on its own (all but
 * the file-wide rules about its name).  With rep, also records the
 * replacement of each token that the rewrite changes in its body. */
static int scan_kernel(const co *a, const tt_xf_def *f, const char **rep)
{
    const toks *ts = a->ts;
    if (f->vtok == NO)
        return 0;
    for (size_t i = f->head; i <= f->close; i++) {
        if (ts->v[i].kind == T_OTHER)
            return 0;
        if (ts->v[i].kind == T_PUNCT && tlen(ts, i) == 1 && strchr("()[]{}", *tok_str(ts, i)) &&
            (a->pair[i] == NO || !in_range(a->pair[i], f->head, f->close)))
            return 0;
        if (i < f->open && (is(ts, i, "constexpr") || is(ts, i, "consteval")))
            return 0;
        if (i > f->popen && i < f->open && is(ts, i, "...") &&
            (is(ts, tok_prev(ts, i), ",") || is(ts, tok_prev(ts, i), "(")))
            return 0; /* C varargs */
    }
    size_t span[64], c = 0; /* ends of the lambda and local-class bodies around i */
    int nspan = 0, sync = 0;
    while (c < a->nch && a->ch[c].kw <= f->open)
        c++;
    for (size_t i = f->open + 1; i < f->close; i++) {
        while (nspan > 0 && i > span[nspan - 1])
            nspan--;
        if (c < a->nch && a->ch[c].kw == i) {
            if (nspan > 0)
                return 0; /* a chain in a lambda or local class */
            sync = 1;
            i = a->ch[c++].be - 1;
            continue;
        }
        const char *s = tok_str(ts, i);
        size_t l = tlen(ts, i);
        if (ts->v[i].kind == T_PP) {
            const char *p = s + 1;
            while (p < s + l && (*p == ' ' || *p == '\t'))
                p++;
            if (s + l - p >= 7 && memcmp(p, "include", 7) == 0)
                return 0;
            continue;
        }
        if (is(ts, i, "[")) {
            if (is(ts, i + 1, "[")) { /* [[attribute]] */
                i = a->pair[i];
                continue;
            }
            size_t body = tt_xf_defs_lambda_at(ts, i) ? tt_xf_defs_lambda_body(ts, a->pair, i) : NO;
            if (body == i || (body != NO && nspan == 64))
                return 0;
            if (body != NO)
                span[nspan++] = a->pair[body];
            continue;
        }
        if (ts->v[i].kind != T_ID)
            continue;
        if (in_list(ts, i, sync_names)) {
            if (nspan > 0 || !is(ts, i + 1, "("))
                return 0;
            sync = 1;
            for (int k = 0; rep && sync_names[k]; k++)
                if (is(ts, i, sync_names[k]))
                    rep[i] = co_sync_names[k];
            continue;
        }
        if (is(ts, i, "return")) {
            if (rep && nspan == 0)
                rep[i] = "TT_SIM_CO_RETURN";
            continue;
        }
        if (tt_xf_defs_blocks_name(s, l) || tt_xf_defs_blocking_member(ts, i) ||
            tt_xf_defs_never_name(s, l) || tt_xf_defs_name_bad(&a->d, s, l))
            return 0;
        if (is(ts, i, "struct") || is(ts, i, "class") || is(ts, i, "union")) {
            size_t j = tok_next(ts, i);
            while (j != NO && j < f->close && !is(ts, j, "{") && !is(ts, j, ";") && !is(ts, j, "=") &&
                   !is(ts, j, "(") && !is(ts, j, ")") && !is(ts, j, "}"))
                j = tok_next(ts, j);
            if (j != NO && is(ts, j, "{")) {
                if (nspan == 64)
                    return 0;
                span[nspan++] = a->pair[j];
            }
        }
    }
    return sync;
}

/* Whether definition k is a co kernel (after decide). */
static int is_co(const co *a, size_t k)
{
    return !a->d.poison_all && a->d.kernel_ok[a->d.fn[k].node];
}

/* Clears d.kernel_ok of every name with a definition that does not qualify
 * on its own, or that the file names anywhere but in its definitions and
 * kernel declarations (a use that a coroutine type could break, such as a
 * `void (*)(...)` pointer).  Host functions do not count: a kernel file's
 * host code launches with <<<>>>, which the executor does not compile, so
 * it is kept from the build (#ifndef TILETRANS_CHECK) anyway. */
static void decide(co *a)
{
    const toks *ts = a->ts;
    tt_xf_defs *d = &a->d;
    for (size_t k = 0; k < d->nfn; k++)
        if (!d->fn[k].kernel || !scan_kernel(a, &d->fn[k], NULL))
            d->kernel_ok[d->fn[k].node] = 0;
    size_t k = 0;
    for (size_t i = 0; i < ts->n; i++) {
        while (k < d->nfn && d->fn[k].close < i)
            k++;
        if (k < d->nfn && d->fn[k].host && in_range(i, d->fn[k].open, d->fn[k].close)) {
            i = d->fn[k].close;
            continue;
        }
        if (ts->v[i].kind != T_ID || d->decl_name[i])
            continue;
        int n = tt_xf_defs_node(d, tok_str(ts, i), tlen(ts, i));
        if (n >= 0 && d->has_kernel[n])
            d->kernel_ok[n] = 0;
    }
}

/* ---------------------------------------------------------------- output */

/* `#pragma unroll [N]` right before a rewritten loop would then precede a
 * block, which compilers reject (clang) or warn about: the hint is dropped. */
static int is_pragma_unroll(const toks *ts, size_t i)
{
    if (ts->v[i].kind != T_PP)
        return 0;
    const char *p = ts->t + ts->v[i].s + 1, *e = ts->t + ts->v[i].e;
    while (p < e && (*p == ' ' || *p == '\t'))
        p++;
    if (e - p < 6 || memcmp(p, "pragma", 6) != 0)
        return 0;
    p += 6;
    while (p < e && (*p == ' ' || *p == '\t'))
        p++;
    return e - p >= 6 && memcmp(p, "unroll", 6) == 0 && (e - p == 6 || !idc((unsigned char)p[6]));
}

/* The blanks that start the line holding `at`, so the rewritten loop keeps
 * its indentation after a dropped pragma line. */
static void put_indent(sbuf *b, const char *t, size_t at)
{
    size_t s = at;
    while (s > 0 && (t[s - 1] == ' ' || t[s - 1] == '\t'))
        s--;
    if (s == 0 || t[s - 1] == '\n')
        sb_put(b, t + s, at - s);
}

/* Room for a->ch[a->nch] (false when out of memory). */
static int room(co *a)
{
    if (a->nch < a->cch)
        return 1;
    size_t c = a->cch ? a->cch * 2 : 16;
    tt_xf_chain_loop *p = realloc(a->ch, c * sizeof *p);
    if (!p)
        return !(a->oom = 1);
    a->ch = p;
    a->cch = c;
    return 1;
}

/* The analysis: chains, what the file defines, the decision; then a->rep
 * and a->chain_co say what to write. */
static void analyse(co *a)
{
    const toks *ts = a->ts;
    for (size_t k = 0; k < ts->n && !a->oom; k++) {
        tt_xf_chain_loop ch;
        if (ts->v[k].kind != T_ID || !tt_xf_chain_match(ts, k, &ch) || !room(a))
            continue;
        a->ch[a->nch++] = ch;
        k = ch.be - 1;
    }
    a->chain_co = calloc(a->nch + 1, 1);
    a->oom |= !a->chain_co;
    if (a->oom || tt_xf_defs_build(&a->d, ts, a->pair) != 0) {
        a->oom = 1;
        return;
    }
    decide(a);
    a->rg = calloc(a->d.nfn + 1, sizeof *a->rg);
    a->rg_at = malloc((a->d.nfn + 1) * sizeof *a->rg_at);
    if (!a->rg || !a->rg_at) {
        a->oom = 1;
        return;
    }
    for (size_t k = 0; k < a->d.nfn; k++)
        a->rg_at[k] = NO;
    size_t c = 0;
    for (size_t k = 0; k < a->d.nfn; k++) {
        const tt_xf_def *f = &a->d.fn[k];
        if (!is_co(a, k))
            continue;
        a->rep[f->vtok] = "TT_SIM_CO_KERNEL";
        scan_kernel(a, f, a->rep);
        while (c < a->nch && a->ch[c].kw < f->open)
            c++;
        size_t c0 = c;
        for (; c < a->nch && a->ch[c].kw < f->close; c++)
            a->chain_co[c] = 1;
        tt_xf_rg_kernel rk = {ts, a->pair, f->open, f->close, a->ch + c0, c - c0, a->rep, &a->names};
        int got = tt_xf_rg_put(&a->rg[k], &rk, &a->rg_at[k]);
        if (got < 0)
            a->oom = 1;
        if (got <= 0)
            a->rg_at[k] = NO;
    }
    for (size_t k = 0; k < a->d.nkd; k++) {
        const tt_xf_kdecl *kd = &a->d.kd[k];
        int n = tt_xf_defs_node(&a->d, tok_str(ts, kd->name), tlen(ts, kd->name));
        if (n >= 0 && !a->d.poison_all && a->d.kernel_ok[n])
            a->rep[kd->vtok] = "TT_SIM_CO_KERNEL";
    }
}

/* Writes the text with the planned rewrites. */
static void emit(const co *a, const char *text, size_t len, sbuf *out)
{
    const toks *ts = a->ts;
    size_t copied = 0, c = 0, f = 0;
    for (size_t k = 0; k < ts->n; k++) {
        while (f < a->d.nfn && (a->rg_at[f] == NO || a->rg_at[f] < k))
            f++;
        if (f < a->d.nfn && a->rg_at[f] == k) { /* a region form goes after k */
            sb_put(out, text + copied, ts->v[k].e - copied);
            sb_put(out, a->rg[f].p, a->rg[f].n);
            copied = ts->v[k].e;
            continue;
        }
        if (c < a->nch && a->ch[c].kw == k) {
            const tt_xf_chain_loop *ch = &a->ch[c];
            size_t upto = ts->v[k].s;
            if (k > 0 && is_pragma_unroll(ts, k - 1))
                upto = ts->v[k - 1].s;
            sb_put(out, text + copied, upto - copied);
            if (upto != ts->v[k].s) { /* the pragma goes; its line stays, empty */
                sb_newlines(out, text, upto, ts->v[k].s);
                put_indent(out, text, ts->v[k].s);
            }
            tt_xf_chain_put(out, ts, ch, a->chain_co[c]);
            copied = ts->v[ch->be - 1].e;
            k = ch->be - 1;
            c++;
        } else if (a->rep[k]) {
            sb_put(out, text + copied, ts->v[k].s - copied);
            sb_puts(out, a->rep[k]);
            copied = ts->v[k].e;
        }
    }
    sb_put(out, text + copied, len - copied);
}

int tt_xf_prep_co(const char *text, size_t len, sbuf *out)
{
    toks ts = {text, NULL, 0};
    size_t *pair = NULL;
    co a;
    memset(&a, 0, sizeof a);
    a.ts = &ts;
    if (tt_xf_tok_split(&ts, len) != 0)
        a.oom = 1;
    if (!a.oom) {
        pair = malloc(sizeof *pair * (ts.n + 1));
        a.rep = calloc(ts.n + 1, sizeof *a.rep);
        a.oom = !pair || !a.rep;
    }
    if (!a.oom) {
        tt_xf_tok_pairs(&ts, pair);
        a.pair = pair;
        analyse(&a);
    }
    if (!a.oom)
        emit(&a, text, len, out);
    out->oom |= a.oom;
    for (size_t k = 0; a.rg && k < a.d.nfn; k++)
        free(a.rg[k].p);
    free(a.rg);
    free(a.rg_at);
    tt_xf_rg_names_free(&a.names);
    tt_xf_defs_free(&a.d);
    free(ts.v);
    free(pair);
    free(a.rep);
    free(a.chain_co);
    free(a.ch);
    return out->oom ? -1 : 0;
}
