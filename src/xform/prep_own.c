/* prep_own.c — a source's own definitions of the names the shims make
 * macros (see prep_own.h). */
#define _GNU_SOURCE 1 /* memmem */
#include "prep_own.h"

/* The warp functions that both shims define as function-like macros (they
 * pass the call site).  On a GPU they are overloaded functions, so a port
 * may add overloads of its own (tiletrans's compat header adds bf16 ones). */
static const char *const macro_fns[] = {
    "__shfl", "__shfl_up", "__shfl_down", "__shfl_xor", "__shfl_sync", "__shfl_up_sync",
    "__shfl_down_sync", "__shfl_xor_sync", "__ballot", "__any", "__all", NULL};

/* Words that may stand before a call but never before a declarator name. */
static const char *const not_types[] = {"return", "case", "else", "do", "throw", "sizeof",
                                        "new", "delete", "co_return", "co_yield", "co_await",
                                        "typeid", "alignof", "goto", "operator", NULL};

/* Token i (one of macro_fns, followed by `(`) names a function being
 * declared: the code token before it is an identifier that is no keyword of
 * an expression (`T __shfl(`, `__device__ inline T __shfl(`).  A call always
 * follows an operator, a bracket, a comma or one of not_types. */
static int declares(const toks *ts, size_t i)
{
    size_t p = tok_prev(ts, i), n = tok_next(ts, i);
    return n != TOK_NONE && is(ts, n, "(") && p != TOK_NONE && ts->v[p].kind == T_ID &&
           !in_list(ts, p, not_types);
}

/* Every name of macro_fns starts with one of these: a text holding none of
 * them has nothing to rename, and is not parsed. */
static const char *const macro_stems[] = {"__shfl", "__ballot", "__any", "__all", NULL};

int tt_xf_prep_own(const char *text, size_t len, sbuf *out)
{
    int any = 0;
    for (int k = 0; macro_stems[k] && !any; k++)
        any = memmem(text, len, macro_stems[k], strlen(macro_stems[k])) != NULL;
    if (!any) {
        sb_put(out, text, len);
        return out->oom ? -1 : 0;
    }
    toks ts = {text, NULL, 0};
    if (tt_xf_tok_split(&ts, len) != 0) {
        free(ts.v);
        return -1;
    }
    size_t done = 0;
    for (size_t i = 0; i < ts.n; i++) {
        if (ts.v[i].kind != T_ID || !in_list(&ts, i, macro_fns) || !declares(&ts, i))
            continue;
        sb_put(out, text + done, ts.v[i].s - done);
        sb_puts(out, TT_XF_PREP_OWN_PREFIX);
        done = ts.v[i].s;
    }
    sb_put(out, text + done, len - done);
    free(ts.v);
    return out->oom ? -1 : 0;
}
