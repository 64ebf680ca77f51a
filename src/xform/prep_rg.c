/* prep_rg.c — the fourth rewrite of tt_xf_prepare_source(): the
 * region form of a coroutine kernel (the kernel side, and why, is
 * tt_sim_region.hpp).  Inserted after the kernel's leading __shared__
 * declarations, it is
 *
 *   #ifndef TT_SIM_NO_REGIONS
 *   if (TT_SIM_RG_ENTER()) { [&] {
 *     TT_SIM_RG_VAR(0, float); ...               one array per kept local
 *     TT_SIM_RG_FOR { <statements up to the first barrier or chain> }
 *     ::tt_sim_rg_barrier();  or  the chain's halves (prep_chain.c)
 *     TT_SIM_RG_FOR { <re-bound locals> <the next statements> }  ...
 *   }(); TT_SIM_CO_RETURN; }
 *   #endif
 *
 * with a #line before every statement copied, so that reports and compile
 * errors cite the kernel's own lines, and one after it back to the line it
 * was inserted on.  The coroutine form below it stays, for the launches that
 * do not run regions; TT_SIM_NO_REGIONS drops the form (`tiletrans check`
 * builds a file again so when C++20 rejects it, in case the form is what it
 * rejects).
 *
 * Which kernels: the form must mean what the body means for every thread,
 * and compile wherever the body compiles, so the reader is narrow and gives
 * up (no region form; the kernel stays a coroutine) on anything else.  The
 * body's statements, those of each `for`/`while` loop that holds a sync
 * point, and those of each `if` (without else) that holds a chain, are its
 * "split scopes".  Every barrier is a `__syncthreads();` statement of a
 * split scope outside split ifs, every chain a statement of a split scope
 * (a barrier in an if, _count/_and/_or, a split loop in a split if or with
 * break/continue: no form).  A split loop becomes a C++ loop around the
 * region loops; its condition is kept per thread and must agree across the
 * block (rg_all).  A `return` marks the thread exited: it leaves the loop
 * it is in (a label at the loop body's end) and every later loop skips it.
 * No goto, label or preprocessor line other than #pragma; __shared__
 * declarations first, or at a split scope, whence they move in front of
 * the form (hoist_shared: at most MAX_VARS, each a pass over the body).  A local of a split scope that must live across
 * a sync point (used after one that follows it, or in a loop that holds
 * one) is kept per thread: its declaration must then be of a plain type
 * (arithmetic, vector, half, pointers to them), with `=` or no initialiser;
 * `constexpr` ones (and `const` ones initialised from numbers) move to the
 * top instead.  Other statements are copied whole; one that might declare
 * something of a type not recognised, or starts with a word the reader does
 * not know, ends the form.
 *
 * A region between two barriers (or the block's start or end) whose code
 * surely writes no shared memory (prep_ro.c) is a whole barrier
 * interval without a write: none of its accesses can race, so its loop is
 * TT_SIM_RG_FOR_RO, whose reads are not recorded (tt_sim_region.hpp,
 * rg_reads_only; a write there after all sends the launch back to
 * coroutines, which check everything).
 */
#include "prep_rg.h"
#include "prep_stmt.h"

#include <stdio.h>

#define NO TOK_NONE
#define MAX_VARS 256
#define MAX_LEVELS 16
#define code_at tt_xf_stmt_code_at
#define is_type_word tt_xf_stmt_type_word

/* A local kept per thread (its array is tt_sim_rg_<id>_). */
typedef struct rg_var {
    size_t name;
    size_t ts, te; /* its type: the declaration's words, then the */
    size_t ds, de; /* declarator's `*`s and consts before the name */
    int id, level; /* level: the depth of the scope it is declared in */
    int live;      /* its scope is open */
} rg_var;

typedef struct rg {
    const tt_xf_rg_kernel *k;
    const toks *ts;
    sbuf top, body;
    rg_var var[MAX_VARS];
    int nvar, nid, nsteps;
    size_t moved[MAX_VARS]; /* names of the locals moved to the top */
    int nmoved;
    /* the open scopes below the body: an `if`'s (the id of its guard's flag
     * array) or a loop's (-1); nif counts the ifs */
    int guard[MAX_LEVELS], nguard, nif;
    int in_region;                 /* a TT_SIM_RG_FOR is open */
    int nregion;                   /* loops opened so far (their labels) */
    int has_return;                /* the body returns: exited threads are skipped */
    size_t *sync, nsync;           /* every barrier name and chain `for`, in order */
    size_t *loop, nloop;           /* [start, end) of each loop holding a sync point */
    size_t lpos, lline;            /* line cursor: byte lpos is on line lline */
    /* the reads-only form: whether nothing but a barrier (or the block's
     * start) came since the last region closed, and where it ended; for the
     * open region, whether it opened so, its first token, and where in body
     * its loop's name is (overwritten with RG_FOR_RO) */
    int after_barrier, ro_open;
    size_t barrier_end, ro_from, ro_slot;
    tt_xf_ro ro;                   /* what the kernel's stretches write (prep_ro.c) */
    sbuf pre;                      /* the moved __shared__ declarations (hoist_shared) */
    size_t hoisted[2 * MAX_VARS];  /* and their statements' [start, end) */
    int nhoisted;
    int fail;
} rg;

/* The two names of a region's loop, of one length: the reads-only one is
 * written over the other once the region is known to write nothing. */
#define RG_FOR "TT_SIM_RG_FOR   "
#define RG_FOR_RO "TT_SIM_RG_FOR_RO"
_Static_assert(sizeof RG_FOR == sizeof RG_FOR_RO, "RG_FOR_RO overwrites RG_FOR");

static const char *const barrier_names[] = {"__syncthreads", "__syncthreads_count",
                                            "__syncthreads_and", "__syncthreads_or", NULL};
/* Words that end the form wherever they are. */
static const char *const never_words[] = {"goto", "co_return", "co_await", "co_yield",
                                          "TT_SIM_CO_RETURN", NULL};
/* Statement starts the reader does not take at a split scope. */
static const char *const stop_words[] = {
    "static", "struct", "class",  "union",   "enum",  "typedef", "using",  "extern", "register",
    "volatile", "try", "throw", "case",   "default", "break", "continue", "template", "asm",
    "TT_SIM_SHARED", "TT_SIM_SHARED_EXTERN", "else", NULL};
/* What follows the name an expression statement starts with. */
static const char *const expr_after[] = {"(",  "=",  "[",  ".",  "->", "++", "--", "+=", "-=", "*=",
                                         "/=", "%=", "&=", "|=", "^=", "<<=", ">>=", NULL};

/* ---------------------------------------------------------------- tokens */

/* The line of byte `at` (1-based).  Positions come mostly in order. */
static size_t line_at(rg *r, size_t at)
{
    if (at < r->lpos) {
        r->lpos = 0;
        r->lline = 1;
    }
    for (; r->lpos < at; r->lpos++)
        if (r->ts->t[r->lpos] == '\n')
            r->lline++;
    return r->lline;
}

static void put_line(rg *r, sbuf *b, size_t at)
{
    char l[48];
    snprintf(l, sizeof l, "\n#line %zu\n", line_at(r, r->ts->v[at].s));
    sb_puts(b, l);
}

/* Tokens [a, z) as written, but for the kernel's own `return`s: the
 * thread is marked exited and leaves the loop's body (the `else` takes the
 * return's `;`, so that an enclosing if-else still pairs up). */
static void put_span(rg *r, sbuf *b, size_t a, size_t z)
{
    const toks *ts = r->ts;
    size_t from = ts->v[a].s;
    for (size_t i = a; i < z && r->has_return; i++) {
        if (!r->k->rep[i] || !is(ts, i, "return"))
            continue;
        sb_put(b, ts->t + from, ts->v[i].s - from);
        char go[128];
        snprintf(go, sizeof go,
                 "if ((tt_sim_rg_x_[tt_sim_l_] = 1, ++tt_sim_rg_nx_)) goto tt_sim_r%d_; else",
                 r->nregion);
        sb_puts(b, go);
        from = ts->v[i].e;
    }
    sb_put(b, ts->t + from, ts->v[z - 1].e - from);
}

/* Tokens [a, z), one space between each. */
static void put_words(rg *r, sbuf *b, size_t a, size_t z)
{
    for (size_t i = a; i < z; i++) {
        if (r->ts->v[i].kind == T_COMMENT)
            continue;
        sb_put(b, tok_str(r->ts, i), tlen(r->ts, i));
        sb_puts(b, " ");
    }
}

/* Whether a barrier or chain starts in [a, z). */
static int has_sync(const rg *r, size_t a, size_t z)
{
    for (size_t i = 0; i < r->nsync; i++)
        if (r->sync[i] >= a && r->sync[i] < z)
            return 1;
    return 0;
}

static int used_in(const rg *r, size_t d, size_t a, size_t z)
{
    for (size_t j = a; j < z; j++)
        if (is_ident(r->ts, j, d))
            return 1;
    return 0;
}

/* Whether the local named at token d must live across a sync point: it is
 * used after one that follows it, or in a loop holding one that it is
 * declared before or in (the next round runs after it). */
static int crosses(const rg *r, size_t d)
{
    size_t s = NO;
    for (size_t i = 0; i < r->nsync && s == NO; i++)
        if (r->sync[i] > d)
            s = r->sync[i];
    if (s == NO)
        return 0;
    if (used_in(r, d, s, r->k->close))
        return 1;
    for (size_t i = 0; i < r->nloop; i++) {
        size_t a = r->loop[2 * i], z = r->loop[2 * i + 1];
        if (d < z && used_in(r, d, a > d ? a : d + 1, z))
            return 1;
    }
    return 0;
}

/* ---------------------------------------------------------------- regions */

/* Arithmetic words a kept local's type may consist of to be copied into the
 * loop (rg_local) rather than bound by reference. */
static const char *const arith_words[] = {
    "int", "unsigned", "signed", "long", "short", "char", "float", "double", "bool", "const",
    "size_t", "int8_t", "int16_t", "int32_t", "int64_t", "uint8_t", "uint16_t", "uint32_t",
    "uint64_t", NULL};

/* Whether the kept local v may live in a copy for the length of one loop
 * over the threads (rg_local: the compiler can keep it in a register; a
 * reference into the per-thread array lives in memory across every call the
 * loop makes, the race check's included).  Only plain arithmetic locals whose
 * address the kernel never takes (no `&name` anywhere in it): a pointer to
 * the copy would outlive the loop. */
static int copyable(const rg *r, const rg_var *v)
{
    if (v->ds != v->de)
        return 0;
    for (size_t j = v->ts; j < v->te; j = tok_next(r->ts, j))
        if (!in_list(r->ts, j, arith_words))
            return 0;
    for (size_t j = r->k->open; j < r->k->close; j++)
        if (is_ident(r->ts, j, v->name)) {
            size_t p = tok_prev(r->ts, j);
            if (p != TOK_NONE && is(r->ts, p, "&"))
                return 0;
        }
    return 1;
}

static void put_rebind(rg *r, int level)
{
    for (int i = 0; i < r->nvar; i++) {
        const rg_var *v = &r->var[i];
        if (!v->live || v->level != level)
            continue;
        if (copyable(r, v)) {
            char s[160];
            snprintf(s, sizeof s, " ::tt_sim::rg_local<std::remove_reference_t<decltype(tt_sim_rg_%d_[0])>> tt_sim_rgl_%d_(tt_sim_rg_%d_[tt_sim_l_]);", v->id, v->id, v->id);
            sb_puts(&r->body, s);
            put_words(r, &r->body, v->ts, v->te);
            sb_puts(&r->body, "&");
            put_span(r, &r->body, v->name, v->name + 1);
            snprintf(s, sizeof s, " = tt_sim_rgl_%d_.v; (void)", v->id);
            sb_puts(&r->body, s);
            put_span(r, &r->body, v->name, v->name + 1);
            sb_puts(&r->body, ";");
            continue;
        }
        sb_puts(&r->body, " ");
        put_words(r, &r->body, v->ts, v->te);
        put_words(r, &r->body, v->ds, v->de);
        sb_puts(&r->body, "&");
        put_span(r, &r->body, v->name, v->name + 1);
        char s[64];
        snprintf(s, sizeof s, " = tt_sim_rg_%d_[tt_sim_l_]; (void)", v->id);
        sb_puts(&r->body, s);
        put_span(r, &r->body, v->name, v->name + 1);
        sb_puts(&r->body, ";");
    }
}

static void put_guard_open(rg *r, int level)
{
    char s[64];
    if (r->guard[level - 1] < 0)
        snprintf(s, sizeof s, " {");
    else
        snprintf(s, sizeof s, " if (tt_sim_rg_%d_[tt_sim_l_]) {", r->guard[level - 1]);
    sb_puts(&r->body, s);
    put_rebind(r, level);
}

/* Opens the loop over the threads (if none is open): the kept locals in
 * scope re-bound, the open guards tested. */
static void open_region(rg *r)
{
    if (r->in_region)
        return;
    r->in_region = 1;
    r->nregion++;
    r->ro_open = r->after_barrier && r->nif == 0;
    r->ro_from = r->barrier_end;
    r->after_barrier = 0;
    sb_puts(&r->body, "\n");
    r->ro_slot = r->body.n;
    sb_puts(&r->body, RG_FOR " { const uint32_t tt_sim_l_ = tt_sim_it_.lin; (void)tt_sim_l_;");
    if (r->has_return)
        sb_puts(&r->body, " if (tt_sim_rg_x_[tt_sim_l_]) continue; {");
    put_rebind(r, 0);
    for (int l = 1; l <= r->nguard; l++)
        put_guard_open(r, l);
}

static void close_region(rg *r)
{
    if (!r->in_region)
        return;
    r->in_region = 0;
    for (int l = 0; l < r->nguard; l++)
        sb_puts(&r->body, " }");
    if (r->has_return) {
        char label[64];
        snprintf(label, sizeof label, " } tt_sim_r%d_: __attribute__((unused));", r->nregion);
        sb_puts(&r->body, label);
    }
    sb_puts(&r->body, "\n}");
}

static int new_id(rg *r)
{
    return r->nid++;
}

/* ---------------------------------------------------------------- declarations */

/* Whether tokens [a, z) are a constant: numbers, operators, type words,
 * sizeof, warpSize and locals already moved to the top. */
static int constant_init(const rg *r, size_t a, size_t z)
{
    const toks *ts = r->ts;
    for (size_t i = a; i < z; i++) {
        int k = ts->v[i].kind;
        if (k == T_NUM || k == T_COMMENT || is_type_word(ts, i) || is(ts, i, "sizeof") ||
            is(ts, i, "warpSize"))
            continue;
        if (k == T_PUNCT && !is(ts, i, "=") && !is(ts, i, "++") && !is(ts, i, "--") &&
            !is(ts, i, "{") && !is(ts, i, "}") && !is(ts, i, "[") && !is(ts, i, "]"))
            continue;
        int moved = 0;
        for (int m = 0; m < r->nmoved && !moved; m++)
            moved = is_ident(ts, i, r->moved[m]);
        if (!moved)
            return 0;
    }
    return 1;
}

/* A declaration of a recognised type (tokens [ts0, te0)) whose declarators
 * are d[0, n), statement [s, end). */
static void put_decl(rg *r, size_t s, size_t end, size_t ts0, size_t te0, const tt_xf_decl *d, int n)
{
    const toks *ts = r->ts;
    int level = r->nguard;
    /* constexpr: constant by the language's rules; const: when its
     * initialisers are (moved either way, so that they may size arrays) */
    int is_constexpr = is(ts, ts0, "constexpr"), is_const = 0;
    for (size_t i = ts0; i < te0; i++)
        is_const |= is(ts, i, "const");
    int any = 0, constant = is_constexpr || is_const;
    for (int i = 0; i < n; i++) {
        any |= crosses(r, d[i].name);
        if (d[i].init == NO || !d[i].simple ||
            (!is_constexpr && !constant_init(r, d[i].init, d[i].end)))
            constant = 0;
    }
    if (constant && level == 0) { /* the same for every thread: once, at the top */
        put_line(r, &r->top, s);
        put_span(r, &r->top, s, end);
        for (int i = 0; i < n && r->nmoved < MAX_VARS; i++)
            r->moved[r->nmoved++] = d[i].name;
        if (r->nmoved == MAX_VARS)
            r->fail = 1;
        return;
    }
    if (is_constexpr && any) {
        r->fail = 1;
        return;
    }
    open_region(r);
    if (!any) {
        put_line(r, &r->body, s);
        put_span(r, &r->body, s, end);
        return;
    }
    for (int i = 0; i < n; i++) {
        const tt_xf_decl *x = &d[i];
        size_t first = x->init != NO ? x->init : x->name;
        if (!crosses(r, x->name)) {
            put_line(r, &r->body, x->ds);
            put_words(r, &r->body, ts0, te0);
            put_span(r, &r->body, x->ds, x->end);
            sb_puts(&r->body, ";");
            continue;
        }
        if (!x->simple || r->nvar == MAX_VARS) {
            r->fail = 1;
            return;
        }
        rg_var *v = &r->var[r->nvar++];
        v->name = x->name;
        v->ts = ts0;
        v->te = te0;
        v->ds = x->ds;
        v->de = x->name;
        v->id = new_id(r);
        v->level = level;
        v->live = 1;
        put_line(r, &r->body, first);
        put_words(r, &r->body, ts0, te0);
        put_words(r, &r->body, x->ds, x->name);
        sb_puts(&r->body, "&");
        put_span(r, &r->body, x->name, x->name + 1);
        char num[64];
        if (x->init != NO) {
            snprintf(num, sizeof num, " = (tt_sim_rg_%d_[tt_sim_l_] = (", v->id);
            sb_puts(&r->body, num);
            put_span(r, &r->body, x->init, x->end);
            sb_puts(&r->body, "));");
        } else {
            snprintf(num, sizeof num, " = tt_sim_rg_%d_[tt_sim_l_];", v->id);
            sb_puts(&r->body, num);
        }
    }
}

/* Whether the name at token i means the same in front of the form as at
 * token s, inside the kernel: a macro of the file, a template parameter of
 * the kernel, or a name the body does not use before s (so not one of its
 * locals). */
static int outside_name(rg *r, size_t i, size_t s)
{
    const toks *ts = r->ts;
    char kind = tt_xf_ro_file_kind(&r->ro, i);
    if (kind == 'p' || kind == 'w') /* a macro */
        return 1;
    size_t close = tok_prev(ts, r->k->open), p = TOK_NONE;
    if (close != TOK_NONE && is(ts, close, ")") && r->k->pair[close] != TOK_NONE)
        p = r->k->pair[close];
    /* the kernel's head, back to the statement before it: template <...> */
    for (size_t j = p; j != TOK_NONE && !is(ts, j, ";") && !is(ts, j, "}") && !is(ts, j, "{"); j = tok_prev(ts, j))
        if (is_ident(ts, j, i) && j != i)
            return 1;
    for (size_t j = r->k->open; j < s; j++)
        if (is_ident(ts, j, i))
            return 0;
    return 1;
}

/* A __shared__ declaration (rewritten: TT_SIM_SHARED(name, ...);) at a split
 * scope after the leading ones, as in a loop body (cuda-samples' matrixMul):
 * its array is the block's one object wherever it is declared, so it moves
 * in front of the form, where both forms see it (one declaration site: one
 * place in the arena), and is blanked where it was.  Only when that cannot
 * change what a name means: the name is declared once in the kernel and
 * used only in the declaration's own block. */
static void hoist_shared(rg *r, size_t s, size_t end)
{
    const toks *ts = r->ts;
    const size_t *pair = r->k->pair;
    size_t p = code_at(ts, s + 1), name = code_at(ts, p + 1), scope_end = r->k->close;
    if (!is(ts, p, "(") || ts->v[name].kind != T_ID) {
        r->fail = 1;
        return;
    }
    for (size_t i = s; i-- > r->k->open;) /* the innermost block holding it */
        if (is(ts, i, "{") && pair[i] != TOK_NONE && pair[i] > s) {
            scope_end = pair[i];
            break;
        }
    for (size_t i = r->k->open; i < r->k->close && !r->fail; i++)
        if (i != name && is_ident(ts, i, name) && (i < s || i >= scope_end))
            r->fail = 1;
    for (size_t i = r->k->open; i < r->k->close && !r->fail; i++)
        if (i != s && is(ts, i, "TT_SIM_SHARED") && is_ident(ts, code_at(ts, code_at(ts, i + 1) + 1), name))
            r->fail = 1;
    for (size_t i = name + 1; i < end && !r->fail; i++) /* what its type and extents name */
        if (ts->v[i].kind == T_ID && !is_type_word(ts, i) && !is(ts, i, "sizeof") && !outside_name(r, i, s))
            r->fail = 1;
    if (r->fail || r->nhoisted == MAX_VARS) {
        r->fail = 1;
        return;
    }
    put_line(r, &r->pre, s);
    put_span(r, &r->pre, s, end);
    r->hoisted[2 * r->nhoisted] = s;
    r->hoisted[2 * r->nhoisted++ + 1] = end;
}

/* A statement at a split scope that is not a barrier, chain or split if,
 * [s, end): a declaration to read, or one to copy whole. */
static void put_plain(rg *r, size_t s, size_t end)
{
    const toks *ts = r->ts;
    tt_xf_decl d[32];
    if (is(ts, s, "TT_SIM_SHARED")) {
        hoist_shared(r, s, end);
        return;
    }
    if (in_list(ts, s, stop_words)) {
        r->fail = 1;
        return;
    }
    if (is(ts, s, "{") || is(ts, s, "if") || is(ts, s, "for") || is(ts, s, "while") ||
        is(ts, s, "do") || is(ts, s, "switch") || is(ts, s, ";") || is(ts, s, "return")) {
        open_region(r); /* its locals are its own */
        put_line(r, &r->body, s);
        put_span(r, &r->body, s, end);
        return;
    }
    size_t te = s;
    if (is(ts, te, "constexpr"))
        te++;
    size_t words = te;
    while (te < end && (is_type_word(ts, te) || ts->v[te].kind == T_COMMENT))
        te++;
    if (te > words) { /* a recognised type */
        int n = tt_xf_stmt_decls(r->ts, r->k->pair, te, end, d, 32);
        if (n < 0) {
            r->fail = 1;
            return;
        }
        put_decl(r, s, end, s, te, d, n);
        return;
    }
    if (te > s) { /* constexpr of another type */
        r->fail = 1;
        return;
    }
    /* an expression (or a declaration of a type not recognised: then its
     * locals must not cross a sync point) */
    size_t j = s;
    int kind = ts->v[j].kind;
    if (kind == T_ID) {
        while (is(ts, code_at(ts, j + 1), "::") && ts->v[code_at(ts, code_at(ts, j + 1) + 1)].kind == T_ID)
            j = code_at(ts, code_at(ts, j + 1) + 1);
        size_t a = code_at(ts, j + 1);
        if (!in_list(ts, a, expr_after)) {
            int n = ts->v[a].kind == T_ID || is(ts, a, "*") || is(ts, a, "&")
                        ? tt_xf_stmt_decls(r->ts, r->k->pair, a, end, d, 32)
                        : -1;
            for (int i = 0; i < n; i++)
                if (crosses(r, d[i].name))
                    n = -1;
            if (n < 0) {
                r->fail = 1;
                return;
            }
        }
    } else if (!is(ts, j, "(") && !is(ts, j, "*") && !is(ts, j, "++") && !is(ts, j, "--")) {
        r->fail = 1;
        return;
    }
    open_region(r);
    put_line(r, &r->body, s);
    put_span(r, &r->body, s, end);
}

/* At the end of the open region (token z: the barrier that closes it, or
 * the body's end): the reads-only loop when it opened after a barrier too,
 * outside split ifs, and its code writes nothing. */
static void mark_reads_only(rg *r, size_t z)
{
    if (r->in_region && r->ro_open && r->nif == 0 && !r->body.oom && tt_xf_ro_writes_nothing(&r->ro, r->ro_from, z))
        memcpy(r->body.p + r->ro_slot, RG_FOR_RO, sizeof RG_FOR_RO - 1);
}

static void walk(rg *r, size_t s, size_t e);
static void put_split_if(rg *r, size_t i, size_t end);

/* In the open loop: the running thread's flag g (a guard's or a split
 * loop's) = the condition in tokens [a, z). */
static void put_flag(rg *r, int g, size_t a, size_t z)
{
    char num[64];
    a = code_at(r->ts, a);
    put_line(r, &r->body, a);
    snprintf(num, sizeof num, "tt_sim_rg_%d_[tt_sim_l_] = (", g);
    sb_puts(&r->body, num);
    put_span(r, &r->body, a, z);
    sb_puts(&r->body, ");");
}

/* Leaves the innermost scope: its brace in the open loop, its locals. */
static void pop_scope(rg *r)
{
    if (r->in_region)
        sb_puts(&r->body, "\n}");
    for (int v = 0; v < r->nvar; v++)
        if (r->var[v].level == r->nguard)
            r->var[v].live = 0;
    r->nguard--;
}

/* `if (C) S` at a split scope, S holding a chain: C is kept per thread
 * (a guard) and S walked as a split scope under it. */
static void put_split_if(rg *r, size_t i, size_t end)
{
    const toks *ts = r->ts;
    const size_t *pair = r->k->pair;
    size_t p = code_at(ts, i + 1), b = code_at(ts, pair[p] + 1);
    size_t bend = tt_xf_stmt_end(r->ts, r->k->pair, b, end);
    if (bend != end || r->nguard == MAX_LEVELS || has_sync(r, p, pair[p]) ||
        tt_xf_tok_count_top_level(ts, p + 1, pair[p], ";") > 0 ||
        (is_type_word(ts, code_at(ts, p + 1)))) {
        r->fail = 1; /* an else, a declaration or a sync in the condition */
        return;
    }
    int g = new_id(r);
    open_region(r);
    put_flag(r, g, p + 1, pair[p]);
    r->guard[r->nguard++] = g;
    r->nif++;
    put_guard_open(r, r->nguard);
    if (is(ts, b, "{"))
        walk(r, b + 1, pair[b]);
    else
        walk(r, b, end);
    pop_scope(r);
    r->nif--;
}

/* `for (I; C; N) S` or `while (C) S` at a split scope outside any split if,
 * S holding a barrier or chain: a loop around the regions, whose condition
 * every thread evaluates and all that have not returned must agree on
 * (::tt_sim::rg_all; else the launch is left to coroutines).  I, C and N
 * run in the loops before and after S's (I's locals in the loop's scope). */
static void put_split_loop(rg *r, size_t i, size_t end)
{
    const toks *ts = r->ts;
    const size_t *pair = r->k->pair;
    size_t p = code_at(ts, i + 1), close = pair[p], b = code_at(ts, close + 1);
    size_t cs = p + 1, ce = close, ns = close, ne = close, is_ = NO;
    if (is(ts, i, "for")) {
        if (tt_xf_tok_count_top_level(ts, p + 1, close, ";") != 2) {
            r->fail = 1; /* a range-for */
            return;
        }
        size_t s1 = p + 1;
        while (!is(ts, s1, ";"))
            s1 = pair[s1] != NO && pair[s1] > s1 ? pair[s1] + 1 : s1 + 1;
        size_t s2 = s1 + 1;
        while (!is(ts, s2, ";"))
            s2 = pair[s2] != NO && pair[s2] > s2 ? pair[s2] + 1 : s2 + 1;
        is_ = code_at(ts, p + 1) < s1 ? code_at(ts, p + 1) : NO;
        cs = s1 + 1;
        ce = s2;
        ns = s2 + 1;
        ne = close;
    }
    int has_break = 0;
    for (size_t j = b; j < end; j++)
        has_break |= is(ts, j, "break") || is(ts, j, "continue");
    if (code_at(ts, cs) >= ce || has_sync(r, p, close) || has_break ||
        r->nguard == MAX_LEVELS) {
        r->fail = 1; /* no condition, a sync point in the header, break, continue */
        return;
    }
    int g = new_id(r), level;
    open_region(r);
    r->guard[r->nguard++] = -1;
    level = r->nguard;
    put_guard_open(r, level);
    if (is_ != NO) /* the init, a statement of the loop's scope */
        put_plain(r, is_, cs);
    if (r->fail)
        return;
    put_flag(r, g, cs, ce);
    close_region(r);
    char num[96];
    snprintf(num, sizeof num, "\nfor (;;) { if (!::tt_sim::rg_all(tt_sim_rg_%d_, %s)) break;", g,
             r->has_return ? "tt_sim_rg_x_" : "nullptr");
    sb_puts(&r->body, num);
    if (is(ts, b, "{"))
        walk(r, b + 1, pair[b]);
    else
        walk(r, b, end);
    if (r->fail || r->nguard != level)
        return;
    open_region(r); /* the step and the next test */
    if (code_at(ts, ns) < ne) {
        put_line(r, &r->body, code_at(ts, ns));
        put_span(r, &r->body, code_at(ts, ns), ne);
        sb_puts(&r->body, ";");
    }
    put_flag(r, g, cs, ce);
    close_region(r);
    sb_puts(&r->body, "\n}");
    pop_scope(r);
}

static const tt_xf_chain_loop *chain_at(const rg *r, size_t i)
{
    for (size_t c = 0; c < r->k->nch; c++)
        if (r->k->ch[c].kw == i)
            return &r->k->ch[c];
    return NULL;
}

static void put_chain(rg *r, const tt_xf_chain_loop *ch)
{
    const rg_var *x = NULL;
    for (int v = r->nvar - 1; v >= 0 && !x; v--)
        if (r->var[v].live && is_ident(r->ts, ch->x, r->var[v].name))
            x = &r->var[v];
    if (!x) { /* a parameter, or a local of another scope */
        r->fail = 1;
        return;
    }
    int steps = -1;
    if (tt_xf_chain_uniform(r->ts, ch)) { /* its steps, recorded once */
        steps = r->nsteps++;
        char decl[80];
        snprintf(decl, sizeof decl, "\nstatic ::tt_sim::rg_steps_cache tt_sim_rs_%d_;", steps);
        sb_puts(&r->top, decl);
    }
    open_region(r);
    put_line(r, &r->body, ch->c.name);
    tt_xf_chain_put_rg(&r->body, r->ts, ch, -1, steps);
    close_region(r);
    sb_puts(&r->body, "\n");
    tt_xf_chain_put_rg(&r->body, r->ts, ch, x->id, steps);
}

/* The statements [s, e) of a split scope. */
static void walk(rg *r, size_t s, size_t e)
{
    const toks *ts = r->ts;
    for (size_t i = code_at(ts, s); i < e && !r->fail; i = code_at(ts, i)) {
        if (ts->v[i].kind == T_PP) { /* a #pragma (the only kind there is) */
            const tt_xf_chain_loop *ch = chain_at(r, code_at(ts, i + 1));
            if (!ch) {
                open_region(r);
                put_line(r, &r->body, i);
                put_span(r, &r->body, i, i + 1);
            }
            i++;
            continue;
        }
        const tt_xf_chain_loop *ch = chain_at(r, i);
        if (ch) {
            put_chain(r, ch);
            i = ch->be;
            continue;
        }
        size_t end = tt_xf_stmt_end(r->ts, r->k->pair, i, e);
        if (end == NO) {
            r->fail = 1;
            return;
        }
        if (!has_sync(r, i, end)) {
            put_plain(r, i, end);
        } else if (is(ts, i, "if")) {
            put_split_if(r, i, end);
        } else if ((is(ts, i, "for") || is(ts, i, "while")) && r->nif == 0) {
            put_split_loop(r, i, end);
        } else if (is(ts, i, "__syncthreads") && r->nif == 0 && is(ts, code_at(ts, i + 1), "(") &&
                   is(ts, code_at(ts, code_at(ts, i + 1) + 1), ")") &&
                   end == code_at(ts, code_at(ts, code_at(ts, i + 1) + 1) + 1) + 1) {
            mark_reads_only(r, i);
            close_region(r);
            put_line(r, &r->body, i);
            sb_puts(&r->body, r->has_return ? "::tt_sim_rg_barrier(tt_sim_rg_nx_);"
                                            : "::tt_sim_rg_barrier(0);");
            r->after_barrier = 1;
            r->barrier_end = end;
        } else {
            r->fail = 1; /* a sync point in a loop, a block, an expression */
        }
        i = end;
    }
}

/* ---------------------------------------------------------------- the form */

/* Collects the sync points and checks the words the form never holds. */
static int scan(rg *r)
{
    const toks *ts = r->ts;
    const tt_xf_rg_kernel *k = r->k;
    r->sync = malloc(sizeof *r->sync * (k->close - k->open + 1));
    if (!r->sync)
        return -1;
    size_t c = 0;
    for (size_t i = k->open + 1; i < k->close; i++) {
        if (ts->v[i].kind == T_PP) {
            const char *p = tok_str(ts, i) + 1, *e = tok_str(ts, i) + tlen(ts, i);
            while (p < e && (*p == ' ' || *p == '\t'))
                p++;
            if (e - p < 6 || memcmp(p, "pragma", 6) != 0)
                r->fail = 1;
        }
        if (in_list(ts, i, never_words))
            r->fail = 1;
        if (k->rep[i] && is(ts, i, "return"))
            r->has_return = 1;
        while (c < k->nch && k->ch[c].kw < i)
            c++;
        if ((c < k->nch && k->ch[c].kw == i) || in_list(ts, i, barrier_names))
            r->sync[r->nsync++] = i;
    }
    r->loop = malloc(sizeof *r->loop * 2 * (k->close - k->open + 1));
    if (!r->loop)
        return -1;
    for (size_t i = k->open + 1; i < k->close; i++) {
        if (!is(ts, i, "for") && !is(ts, i, "while") && !is(ts, i, "do"))
            continue;
        size_t end = tt_xf_stmt_end(r->ts, r->k->pair, i, k->close);
        if (end != NO && has_sync(r, i, end)) {
            r->loop[2 * r->nloop] = i;
            r->loop[2 * r->nloop++ + 1] = end;
        }
    }
    return 0;
}

/* Whether a #line (or a `# N` line marker) comes before the body: the
 * form's own #lines name physical lines, which would then be wrong. */
static int renumbered(const rg *r)
{
    const toks *ts = r->ts;
    for (size_t i = 0; i < r->k->open; i++) {
        if (ts->v[i].kind != T_PP)
            continue;
        const char *p = tok_str(ts, i) + 1, *e = tok_str(ts, i) + tlen(ts, i);
        while (p < e && (*p == ' ' || *p == '\t'))
            p++;
        if ((e - p >= 4 && memcmp(p, "line", 4) == 0) || (p < e && isdigit((unsigned char)*p)))
            return 1;
    }
    return 0;
}

/* The kernel's leading __shared__ declarations: the token after which the
 * form goes (they stay the kernel's; the form's lambda captures them). */
static size_t after_shared(const rg *r)
{
    const toks *ts = r->ts;
    size_t at = r->k->open;
    for (size_t i = code_at(ts, at + 1); i < r->k->close; i = code_at(ts, at + 1)) {
        if (!is(ts, i, "TT_SIM_SHARED") && !is(ts, i, "TT_SIM_SHARED_EXTERN"))
            break;
        size_t end = tt_xf_stmt_end(r->ts, r->k->pair, i, r->k->close);
        if (end == NO)
            break;
        at = end - 1;
    }
    return at;
}

static void put_form(rg *r, sbuf *b, size_t at)
{
    if (r->pre.n) { /* the moved declarations, then the line the form starts on */
        char l[48];
        sb_put(b, r->pre.p, r->pre.n);
        snprintf(l, sizeof l, "\n#line %zu", line_at(r, r->ts->v[at].s) + 1);
        sb_puts(b, l);
    }
    sb_puts(b, "\n#ifndef TT_SIM_NO_REGIONS\nif (TT_SIM_RG_ENTER()) { [&] {");
    sb_put(b, r->top.p ? r->top.p : "", r->top.n);
    if (r->has_return)
        sb_puts(b, "\nTT_SIM_RG_EXITS;");
    for (int i = 0; i < r->nid; i++) {
        const rg_var *v = NULL;
        for (int j = 0; j < r->nvar && !v; j++)
            if (r->var[j].id == i)
                v = &r->var[j];
        char num[64];
        snprintf(num, sizeof num, "\nTT_SIM_RG_VAR(%d, ", i);
        sb_puts(b, num);
        if (v) {
            put_words(r, b, v->ts, v->te);
            put_words(r, b, v->ds, v->de);
        } else {
            sb_puts(b, "bool"); /* a guard */
        }
        sb_puts(b, ");");
    }
    sb_put(b, r->body.p ? r->body.p : "", r->body.n);
    char l[80];
    snprintf(l, sizeof l, "\n}(); TT_SIM_CO_RETURN; }\n#endif\n#line %zu\n", line_at(r, r->ts->v[at].s));
    sb_puts(b, l);
}

int tt_xf_rg_put(sbuf *b, const tt_xf_rg_kernel *k, size_t *at)
{
    rg *r = calloc(1, sizeof *r);
    if (!r)
        return -1;
    r->k = k;
    r->ts = k->ts;
    r->ro = (tt_xf_ro){.ts = k->ts, .pair = k->pair, .open = k->open, .close = k->close, .names = k->names};
    r->lline = 1;
    int ret = scan(r);
    if (ret == 0 && !r->fail && !renumbered(r)) {
        *at = after_shared(r);
        r->after_barrier = 1; /* the block's start begins an interval, */
        r->barrier_end = *at + 1;
        walk(r, *at + 1, k->close);
        mark_reads_only(r, k->close); /* and its end ends one */
        close_region(r);
        if (r->top.oom || r->body.oom || r->pre.oom)
            ret = -1;
        else if (!r->fail && r->nsync > 0) {
            put_form(r, b, *at);
            for (int m = 0; m < r->nhoisted; m++)
                for (size_t i = r->hoisted[2 * m]; i < r->hoisted[2 * m + 1]; i++)
                    k->rep[i] = "";
            ret = 1;
        }
    }
    free(r->top.p);
    free(r->pre.p);
    free(r->body.p);
    free(r->sync);
    free(r->loop);
    tt_xf_ro_free(&r->ro);
    free(r);
    return ret;
}
