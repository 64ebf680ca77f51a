/* prep_chain.c — the second rewrite of tt_xf_prepare_source():
 * shuffle-chain loops such as
 *
 *     for (int o = warpSize / 2; o > 0; o /= 2) v += __shfl_down(v, o);
 *
 * become a probe loop plus a fused collective (tt_sim_chain.hpp), with the
 * original loop kept as the fallback (for other types, or when the probe
 * could not record the steps):
 *
 *     { bool done = false; if (::tt_sim::chain_ok<decltype(v)>()) {
 *       ::tt_sim::chain_probe tt_sim_cp_; for (H) (void)(CALL);
 *       if (tt_sim_cp_.complete()) { v = tt_sim_cp_.run(v, [](a, r) -> T { OP });
 *       done = true; } } if (!done) for (H) BODY }
 *
 * Why a source pass: C++ cannot hand a loop to a function, and the runtime
 * must know every step of the chain before the first shuffle and be free to
 * apply the combine step for any lane.  That is only exact when nothing but
 * the value changes in the loop and the combine step reads nothing but the
 * value and the shuffled value, so the recogniser is deliberately narrow:
 * whatever it does not fully understand is copied byte for byte.  The whole
 * rewrite goes on the line of the shuffle (compile errors and runtime reports
 * cite that line) and the newlines around it are kept, so no line moves.
 *
 * In a kernel that prep_co.c makes a coroutine, the loop takes a
 * second form (co_form below) in which the fused collective is awaited
 * (TT_SIM_CO_CHAIN) instead of blocking a fiber.
 *
 * This file recognises and emits; the tokens come from prep_tok.c
 * (comments, literals and preprocessor lines are single tokens, so nothing
 * inside them is ever seen as code) and the driver that walks the file is
 * prep_co.c.
 */
#include "prep_chain.h"

#include <stdio.h>

/* Short names within this file. */
typedef tt_xf_chain_call call;
typedef tt_xf_chain_loop chain;

/* ---------------------------------------------------------------- token tests */

static const char *const shfl_names[] = {"__shfl", "__shfl_up", "__shfl_down", "__shfl_xor", NULL};
static const char *const shfl_sync_names[] = {"__shfl_sync", "__shfl_up_sync", "__shfl_down_sync",
                                              "__shfl_xor_sync", NULL};
static const char *const shfl_members[] = {"shfl", "shfl_up", "shfl_down", "shfl_xor", NULL};
static const char *const compound_ops[] = {"+=", "-=", "*=", "&=", "|=", "^=", NULL};
static const char *const assign_ops[] = {"=",  "+=", "-=",  "*=",  "/=", "%=", "&=",
                                         "|=", "^=", "<<=", ">>=", "++", "--", NULL};
/* What the combine step may use besides x and the shuffled value: it is run
 * by the runtime for every lane, so only pure arithmetic on the two. */
static const char *const expr_words[] = {"max",    "min",    "fmaxf",  "fminf",     "fmax",
                                         "fmin",   "std",    "__hadd", "__hmax",    "__hmin",
                                         "__fadd_rn", "__dadd_rn", "__fmul_rn", NULL};
/* (no / or %: a division by zero in the fused pass would fault in another
 * lane's name) */
static const char *const expr_ops[] = {"+",  "-",  "*",  "&",  "|", "^", "~",
                                       "!",  "<",  ">",  "<=", ">=", "==", "!=", "&&", "||",
                                       "<<", ">>", "?",  ":",  "(",  ")",  ",",  "::", NULL};
const char *const tt_xf_chain_collectives[] = {"__shfl",  "__ballot", "__any",    "__all",        "__sync",
                                                "__match", "__reduce", "__activemask", NULL};
/* Expression keywords that run code of their own. */
static const char *const never_words[] = {"new", "delete", "throw", "asm", "__asm", "__asm__",
                                          "co_await", "co_yield", NULL};

/* Accessors that read nothing a loop can change (a group's size). */
static const char *const pure_members[] = {"size", "num_threads", "meta_group_size", NULL};

/* Whether token i followed by `(` calls something.  Besides `name(`, a
 * `)(`, `](`, `}(`, `>(` or `>>(` may be a call through a pointer, a lambda or a
 * template: treated as calls too (a comparison `a > (b)` is lost, rarely). */
static int calls_at(const toks *ts, size_t i)
{
    if (!is(ts, i + 1, "("))
        return 0;
    /* `tile.size()`, as in `for (int o = tile.size() / 2; ...)` */
    if (i > 0 && (is(ts, i - 1, ".") || is(ts, i - 1, "->")) && in_list(ts, i, pure_members) &&
        is(ts, i + 2, ")"))
        return 0;
    if (ts->v[i].kind == T_ID)
        return !is(ts, i, "sizeof");
    return is(ts, i, ")") || is(ts, i, "]") || is(ts, i, "}") || is(ts, i, ">") || is(ts, i, ">>");
}

/* The loop header and the shuffle's other arguments are evaluated by the
 * probe loop before any step runs: the same as in the original loop only if
 * they do not read x and cannot call, shuffle or synchronise.  Arguments
 * (evaluated once per step in both loops) must not change anything either. */
static int operand_ok(const toks *ts, size_t a, size_t b, size_t x, int may_assign)
{
    for (size_t i = a; i < b; i++) {
        if (ts->v[i].kind == T_ID && (is_ident(ts, i, x) || has_prefix(ts, i, tt_xf_chain_collectives) ||
                                      in_list(ts, i, never_words)))
            return 0;
        if (!may_assign && in_list(ts, i, assign_ops))
            return 0;
        if (i + 1 < b && calls_at(ts, i))
            return 0;
    }
    return 1;
}

/* ---------------------------------------------------------------- the chain */

/* Recognises the shape of a shuffle call at i, ending before `end`. */
static int call_at(const toks *ts, size_t i, size_t end, call *c)
{
    c->s = i;
    if (in_list(ts, i, shfl_names) || in_list(ts, i, shfl_sync_names)) {
        c->name = i;
        c->open = i + 1;
        c->value = in_list(ts, i, shfl_sync_names);
    } else if (ts->v[i].kind == T_ID && (is(ts, i + 1, ".") || is(ts, i + 1, "->")) &&
               in_list(ts, i + 2, shfl_members)) {
        c->name = i + 2;
        c->open = i + 3;
        c->value = 0; /* cooperative-groups tile: g.shfl_down(v, o) */
    } else {
        return 0;
    }
    if (!is(ts, c->open, "("))
        return 0;
    size_t close = tt_xf_tok_match_close(ts, c->open);
    if (close == TOK_NONE || close >= end)
        return 0;
    c->e = close + 1;
    return 1;
}

/* The arguments, split at top-level commas: the value one must be exactly
 * x, the others plain operands.  The tile object must not be x either. */
static int call_args_ok(const toks *ts, const call *c, size_t x)
{
    if (c->name != c->s && is_ident(ts, c->s, x))
        return 0;
    size_t a = c->open + 1, close = c->e - 1;
    int arg = 0, depth = 0;
    for (size_t i = a; i <= close; i++) {
        if (i < close && (is(ts, i, "(") || is(ts, i, "[") || is(ts, i, "{")))
            depth++;
        else if (i < close && (is(ts, i, ")") || is(ts, i, "]") || is(ts, i, "}")))
            depth--;
        if (i < close && !(depth == 0 && is(ts, i, ",")))
            continue;
        int ok = arg == c->value ? i == a + 1 && is_ident(ts, a, x)
                                 : i > a && operand_ok(ts, a, i, x, 0);
        if (!ok)
            return 0;
        arg++;
        a = i + 1;
    }
    return arg > c->value;
}

/* The combine expression of `X = EXPR;`: outside the call only x, numbers,
 * whitelisted functions and operators, with balanced parentheses.  A `::`
 * must lead to a whitelisted name, so that neither x nor the call can be
 * qualified (the rewrite replaces both by lambda parameters).  No `?`, `&&`
 * or `||` before the call: the shuffle must run on every lane at every step,
 * as the fused one does; fusing `v = c ? shfl(v, o) : v` would hide the
 * divergent shuffle the original makes. */
static int expr_ok(const toks *ts, const chain *ch)
{
    int depth = 0;
    for (size_t i = ch->es; i < ch->ee; i++) {
        if (i == ch->c.s) {
            i = ch->c.e - 1;
            continue;
        }
        if (is(ts, i, "::") && (i + 1 == ch->c.s || !in_list(ts, i + 1, expr_words)))
            return 0;
        if (i < ch->c.s && (is(ts, i, "?") || is(ts, i, "&&") || is(ts, i, "||")))
            return 0;
        depth += is(ts, i, "(") - is(ts, i, ")");
        int ok = is_ident(ts, i, ch->x) || ts->v[i].kind == T_NUM ||
                 (ts->v[i].kind == T_ID && in_list(ts, i, expr_words)) ||
                 (ts->v[i].kind == T_PUNCT && in_list(ts, i, expr_ops));
        if (!ok || depth < 0)
            return 0;
    }
    return depth == 0;
}

/* Parses `X op= CALL;` or `X = EXPR;` at s, ending before `end`.  Returns
 * the index of its `;`, or TOK_NONE. */
static size_t parse_stmt(const toks *ts, size_t s, size_t end, chain *ch)
{
    if (s + 2 >= end || ts->v[s].kind != T_ID || in_list(ts, s, expr_words))
        return TOK_NONE;
    ch->x = s;
    ch->op = s + 1;
    if (in_list(ts, ch->op, compound_ops)) {
        ch->es = ch->ee = s + 2;
        if (!call_at(ts, s + 2, end, &ch->c) || ch->c.e >= end || !is(ts, ch->c.e, ";"))
            return TOK_NONE;
        return call_args_ok(ts, &ch->c, s) ? ch->c.e : TOK_NONE;
    }
    if (!is(ts, ch->op, "="))
        return TOK_NONE;
    size_t semi = s + 2;
    while (semi < end && !is(ts, semi, ";"))
        semi++;
    ch->es = s + 2;
    ch->ee = semi;
    size_t i = ch->es;
    while (i < semi && !call_at(ts, i, semi, &ch->c))
        i++;
    if (semi >= end || i >= semi || !call_args_ok(ts, &ch->c, s) || !expr_ok(ts, ch))
        return TOK_NONE;
    return semi;
}

/* No comment, literal, preprocessor line or stray character in [a, b):
 * whitespace collapsing would break them, and they hide code from us. */
static int plain_tokens(const toks *ts, size_t a, size_t b)
{
    for (size_t i = a; i < b; i++)
        if (ts->v[i].kind >= T_OTHER)
            return 0;
    return 1;
}

/* Recognises `for (HEADER) BODY` at the `for` token k. */
/* The header's init clause assigns (`int o = 16` or `o = 16`): the loop is
 * run again from the start when its probe could not record it (see
 * chain_form), which must reset the loop variable. */
static int init_assigns(const toks *ts, size_t hs, size_t he)
{
    int depth = 0;
    for (size_t i = hs; i < he; i++) {
        if (is(ts, i, "(") || is(ts, i, "[") || is(ts, i, "{"))
            depth++;
        else if (is(ts, i, ")") || is(ts, i, "]") || is(ts, i, "}"))
            depth--;
        else if (depth == 0 && is(ts, i, ";"))
            return 0;
        else if (depth == 0 && is(ts, i, "="))
            return 1;
    }
    return 0;
}

int tt_xf_chain_match(const toks *ts, size_t k, chain *ch)
{
    if (!is(ts, k, "for") || !is(ts, k + 1, "("))
        return 0;
    /* the fallback of a chain already rewritten (see chain_form) */
    if (k >= 5 && is(ts, k - 5, "if") && is(ts, k - 4, "(") && is(ts, k - 3, "!") &&
        is(ts, k - 2, "tt_sim_cd_") && is(ts, k - 1, ")"))
        return 0;
    size_t hclose = tt_xf_tok_match_close(ts, k + 1);
    if (hclose == TOK_NONE)
        return 0;
    ch->kw = k;
    ch->hs = k + 2;
    ch->he = hclose;
    if (tt_xf_tok_count_top_level(ts, ch->hs, ch->he, ";") != 2) /* not a range-for */
        return 0;
    if (!init_assigns(ts, ch->hs, ch->he))
        return 0;
    size_t bs = hclose + 1, last;
    if (is(ts, bs, "{")) {
        size_t bclose = tt_xf_tok_match_close(ts, bs);
        if (bclose == TOK_NONE || parse_stmt(ts, bs + 1, bclose, ch) != bclose - 1)
            return 0;
        last = bclose;
    } else {
        last = parse_stmt(ts, bs, ts->n, ch);
        if (last == TOK_NONE)
            return 0;
    }
    ch->bs = bs;
    ch->be = last + 1;
    return operand_ok(ts, ch->hs, ch->he, ch->x, 1) && plain_tokens(ts, k, ch->be);
}

/* ---------------------------------------------------------------- output */

/* Tokens [a, b) with each gap between them (only whitespace: see
 * plain_tokens) as one space.  With `combine`, x becomes tt_sim_a_ and the
 * shuffle call tt_sim_r_, the lambda's parameters. */
static void put_tokens(sbuf *b, const toks *ts, size_t a, size_t e, const chain *ch, int combine)
{
    for (size_t i = a; i < e; i++) {
        if (i > a && ts->v[i].s > ts->v[i - 1].e)
            sb_puts(b, " ");
        if (combine && i == ch->c.s) {
            sb_puts(b, "tt_sim_r_");
            i = ch->c.e - 1;
        } else if (combine && is_ident(ts, i, ch->x)) {
            sb_puts(b, "tt_sim_a_");
        } else {
            sb_put(b, ts->t + ts->v[i].s, tlen(ts, i));
        }
    }
}

/* The lambda body: `tt_sim_a_ op= tt_sim_r_; return tt_sim_a_;` or
 * `return EXPR';`. */
static void put_combine(sbuf *b, const toks *ts, const chain *ch)
{
    if (ch->es == ch->ee) {
        sb_puts(b, "tt_sim_a_ ");
        put_tokens(b, ts, ch->op, ch->op + 1, ch, 0);
        sb_puts(b, " tt_sim_r_; return tt_sim_a_;");
    } else {
        sb_puts(b, "return ");
        put_tokens(b, ts, ch->es, ch->ee, ch, 1);
        sb_puts(b, ";");
    }
}

/* The lambda of the combine step, @L in the forms below. */
static const char lambda_form[] =
    "[](::tt_sim::chain_t<decltype(@X)> tt_sim_a_, ::tt_sim::chain_t<decltype(@X)> tt_sim_r_) "
    "-> ::tt_sim::chain_t<decltype(@X)> { @O }";

/* The replacement, on one line: @X value, @H header, @C call, @O combine
 * body, @B loop body, @L the lambda. */
static const char chain_form[] =
    "{ bool tt_sim_cd_ = false; if (::tt_sim::chain_ok<decltype(@X)>()) { ::tt_sim::chain_probe tt_sim_cp_; "
    "for (@H) (void)(@C); if (tt_sim_cp_.complete()) { @X = tt_sim_cp_.run(@X, @L); tt_sim_cd_ = true; } } "
    "if (!tt_sim_cd_) for (@H) @B }";

/* The same in a coroutine kernel.  The probe loop runs in a lambda (its
 * locals stay on the stack: a coroutine keeps every local of its own body in
 * its frame); TT_SIM_CO_CHAIN(x, probe, lambda) (the shims) then runs the
 * recorded steps as one awaited collective.  When the probe could not record
 * the whole loop, TT_SIM_CO_STEP awaits each shuffle on its own, recorded by
 * chain_probe::one, so that the kernel still never blocks a fiber; the plain
 * loop is left for types that chains do not take. */
static const char co_form[] =
    "{ bool tt_sim_cd_ = false; if (::tt_sim::chain_ok<decltype(@X)>()) { "
    "::tt_sim::chain_probe tt_sim_cp_; [&] { for (@H) (void)(@C); }(); "
    "if (tt_sim_cp_.complete()) { TT_SIM_CO_CHAIN(@X, tt_sim_cp_, @L); } else { for (@H) "
    "TT_SIM_CO_STEP(@X, ::tt_sim::chain_probe::one([&] { (void)(@C); }), @L); } "
    "tt_sim_cd_ = true; } if (!tt_sim_cd_) for (@H) @B }";

/* The two halves of a chain in a kernel's region form (tt_sim_region.hpp):
 * each thread's arrival, in the loop over the threads, and the fused run
 * after it, on the value's per-thread array (@V its number); @S names the
 * chain's steps recorded once (rg_steps), when it has them. */
static const char rg_arrive_form[] = "::tt_sim::rg_arrive(@X, [&] { for (@H) (void)(@C); }@S);";
static const char rg_chain_form[] =
    "::tt_sim::rg_chain(tt_sim_rg_@V_, [](auto tt_sim_a_, auto tt_sim_r_) -> decltype(tt_sim_a_) "
    "{ @O }@S);";

static void put_num(sbuf *b, const char *fmt, int v)
{
    char num[32];
    snprintf(num, sizeof num, fmt, v);
    sb_puts(b, num);
}

/* v: @V; steps: @S (none when < 0). */
static void put_form(sbuf *b, const toks *ts, const chain *ch, const char *form, int v, int steps)
{
    for (const char *f = form; *f; f++) {
        if (*f != '@') {
            const char *at = strchr(f, '@');
            size_t l = at ? (size_t)(at - f) : strlen(f);
            sb_put(b, f, l);
            f += l - 1;
            continue;
        }
        switch (*++f) {
        case 'X': put_tokens(b, ts, ch->x, ch->x + 1, ch, 0); break;
        case 'H': put_tokens(b, ts, ch->hs, ch->he, ch, 0); break;
        case 'C': put_tokens(b, ts, ch->c.s, ch->c.e, ch, 0); break;
        case 'O': put_combine(b, ts, ch); break;
        case 'B': put_tokens(b, ts, ch->bs, ch->be, ch, 0); break;
        case 'L': put_form(b, ts, ch, lambda_form, v, steps); break;
        case 'V': put_num(b, "%d", v); break;
        case 'S':
            if (steps >= 0)
                put_num(b, ", tt_sim_rs_%d_", steps);
            break;
        }
    }
}

void tt_xf_chain_put(sbuf *b, const toks *ts, const chain *ch, int co)
{
    size_t name = ts->v[ch->c.name].s;
    sb_newlines(b, ts->t, ts->v[ch->kw].s, name);
    put_form(b, ts, ch, co ? co_form : chain_form, 0, -1);
    sb_newlines(b, ts->t, name, ts->v[ch->be - 1].s);
}

void tt_xf_chain_put_rg(sbuf *b, const toks *ts, const chain *ch, int var, int steps)
{
    put_form(b, ts, ch, var < 0 ? rg_arrive_form : rg_chain_form, var, steps);
}

int tt_xf_chain_uniform(const toks *ts, const chain *ch)
{
    if (ch->c.open != ch->c.s + 1) /* a member call: tile.shfl_down(...) */
        return 0;
    size_t init_end = ch->hs;
    while (init_end < ch->he && !is(ts, init_end, ";"))
        init_end++;
    for (size_t i = ch->hs; i < ch->c.e; i++) {
        if (i == ch->he)
            i = ch->c.open; /* from the header to the call's arguments */
        if (ts->v[i].kind == T_NUM || (ts->v[i].kind == T_PUNCT && !is(ts, i, ".") &&
                                       !is(ts, i, "->")))
            continue;
        if (ts->v[i].kind != T_ID)
            return 0;
        if (is(ts, i, "warpSize") || is(ts, i, "sizeof") || is(ts, i, "int") ||
            is(ts, i, "unsigned") || is(ts, i, "long") || is_ident(ts, i, ch->x))
            continue;
        /* a variable the loop's init assigns */
        int var = 0;
        for (size_t j = ch->hs; j + 1 < init_end && !var; j++)
            var = is_ident(ts, j, i) && is(ts, j + 1, "=");
        if (!var)
            return 0;
    }
    return 1;
}
