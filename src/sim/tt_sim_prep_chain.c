/* tt_sim_prep_chain.c — the second rewrite of tt_sim_prepare_source():
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
 * The text is first cut into tokens (comments, literals and preprocessor
 * lines are single tokens, so nothing inside them is ever seen as code).
 */
#include "tt_sim_prep_chain.h"

#include <ctype.h>
#include <stdint.h>

#define NONE SIZE_MAX

enum { T_ID, T_NUM, T_PUNCT, T_OTHER, T_COMMENT, T_STR, T_PP };

typedef struct tok {
    size_t s, e; /* [s, e) in the text */
    int kind;
} tok;

typedef struct toks {
    const char *t;
    tok *v;
    size_t n;
} toks;

/* ---------------------------------------------------------------- lexing */

/* Bytes >= 0x80 count as identifier bytes (UTF-8 identifiers), so that a
 * non-ASCII name is one token and never looks like a shorter ASCII one. */
static int idc(unsigned char c)
{
    return isalnum(c) || c == '_' || c >= 0x80;
}

/* End of a comment starting at i, or i when none starts there. */
static size_t scan_comment(const char *t, size_t n, size_t i)
{
    if (i + 1 >= n || t[i] != '/')
        return i;
    if (t[i + 1] == '/') {
        while (i < n && t[i] != '\n')
            i++;
        return i;
    }
    if (t[i + 1] != '*')
        return i;
    for (i += 2; i + 1 < n; i++)
        if (t[i] == '*' && t[i + 1] == '/')
            return i + 2;
    return n;
}

/* End of a "string" or 'c' literal starting at i.  An unterminated one
 * ends at the newline, as the compiler would stop there too. */
static size_t scan_quoted(const char *t, size_t n, size_t i)
{
    char q = t[i++];
    while (i < n && t[i] != q && t[i] != '\n')
        i += t[i] == '\\' ? 2 : 1;
    return i < n && t[i] == q ? i + 1 : (i < n ? i : n);
}

/* End of the raw string R"d(...)d" whose quote is at q, or q when the
 * delimiter is not valid (then it is lexed as an ordinary string). */
static size_t scan_raw(const char *t, size_t n, size_t q)
{
    size_t d = q + 1, k = d;
    while (k < n && k - d <= 16 && t[k] != '(') {
        if (isspace((unsigned char)t[k]) || t[k] == ')' || t[k] == '\\' || t[k] == '"')
            return q;
        k++;
    }
    if (k >= n || t[k] != '(')
        return q;
    size_t dl = k - d;
    for (size_t i = k + 1; i + dl + 1 < n; i++)
        if (t[i] == ')' && memcmp(t + i + 1, t + d, dl) == 0 && t[i + dl + 1] == '"')
            return i + dl + 2;
    return n;
}

/* End of a preprocessor line starting at the '#' at i: up to the newline,
 * following backslash continuations and comments or literals that would
 * otherwise hide a newline or fake one. */
static size_t scan_pp_line(const char *t, size_t n, size_t i)
{
    while (i < n && t[i] != '\n') {
        size_t k = scan_comment(t, n, i);
        if (k != i)
            i = k;
        else if (t[i] == '"' || t[i] == '\'')
            i = scan_quoted(t, n, i);
        else if (t[i] == '\\' && i + 1 < n && t[i + 1] == '\n')
            i += 2;
        else if (t[i] == '\\' && i + 2 < n && t[i + 1] == '\r' && t[i + 2] == '\n')
            i += 3;
        else
            i++;
    }
    return i;
}

/* A pp-number: digits, letters, '.', exponent signs and ' separators. */
static size_t scan_number(const char *t, size_t n, size_t i)
{
    while (i < n) {
        char c = t[i];
        if (strchr("eEpP", c) && i + 1 < n && (t[i + 1] == '+' || t[i + 1] == '-'))
            i += 2;
        else if (idc((unsigned char)c) || c == '.')
            i++;
        else if (c == '\'' && i + 1 < n && idc((unsigned char)t[i + 1]))
            i += 2;
        else
            break;
    }
    return i;
}

/* The longest C++ punctuator at i; i when there is none (e.g. '\', '@'). */
static size_t scan_punct(const char *t, size_t n, size_t i)
{
    static const char *const multi[] = {
        "<=>", "<<=", ">>=", "->*", "...", "::", "->", "++", "--", "<<", ">>", "<=", ">=",
        "==",  "!=",  "&&",  "||",  "+=",  "-=", "*=", "/=", "%=", "&=", "|=", "^=", ".*", NULL};
    for (int k = 0; multi[k]; k++) {
        size_t l = strlen(multi[k]);
        if (n - i >= l && memcmp(t + i, multi[k], l) == 0)
            return i + l;
    }
    return t[i] && strchr("{}[]()<>;:,.?+-*/%&|^~!=", t[i]) ? i + 1 : i;
}

static int is_raw_prefix(const char *s, size_t l)
{
    static const char *const pre[] = {"R", "LR", "uR", "UR", "u8R", NULL};
    for (int k = 0; pre[k]; k++)
        if (strlen(pre[k]) == l && memcmp(s, pre[k], l) == 0)
            return 1;
    return 0;
}

/* Scans the token at i (not whitespace) into *k; returns its end. */
static size_t scan_token(const char *t, size_t n, size_t i, int line_start, tok *k)
{
    unsigned char c = (unsigned char)t[i];
    size_t e = scan_comment(t, n, i);
    k->s = i;
    if (e != i) {
        k->kind = T_COMMENT;
    } else if (c == '#' && line_start) {
        e = scan_pp_line(t, n, i);
        k->kind = T_PP;
    } else if (c == '"' || c == '\'') {
        e = scan_quoted(t, n, i);
        k->kind = T_STR;
    } else if (isdigit(c) || (c == '.' && i + 1 < n && isdigit((unsigned char)t[i + 1]))) {
        e = scan_number(t, n, i);
        k->kind = T_NUM;
    } else if (idc(c)) {
        for (e = i; e < n && idc((unsigned char)t[e]);)
            e++;
        size_t r = e < n && t[e] == '"' && is_raw_prefix(t + i, e - i) ? scan_raw(t, n, e) : e;
        k->kind = r != e ? T_STR : T_ID;
        e = r;
    } else {
        e = scan_punct(t, n, i);
        k->kind = e != i ? T_PUNCT : T_OTHER;
        e = e != i ? e : i + 1;
    }
    k->e = e;
    return e;
}

/* Cuts t[0, n) into ts->v.  Returns 0, or -1 when out of memory. */
static int tokenize(toks *ts, size_t n)
{
    size_t cap = 0;
    int line_start = 1; /* only blanks and comments so far on this line */
    for (size_t i = 0; i < n;) {
        unsigned char c = (unsigned char)ts->t[i];
        if (isspace(c)) {
            line_start |= c == '\n';
            i++;
            continue;
        }
        if (ts->n == cap) {
            cap = cap ? cap * 2 : 1024;
            tok *v = realloc(ts->v, cap * sizeof *v);
            if (!v)
                return -1;
            ts->v = v;
        }
        tok *k = &ts->v[ts->n++];
        i = scan_token(ts->t, n, i, line_start, k);
        line_start &= k->kind == T_COMMENT;
    }
    return 0;
}

/* ---------------------------------------------------------------- token tests */

static size_t tlen(const toks *ts, size_t i)
{
    return ts->v[i].e - ts->v[i].s;
}

static int is(const toks *ts, size_t i, const char *s)
{
    size_t l = strlen(s);
    return i < ts->n && ts->v[i].kind < T_OTHER && tlen(ts, i) == l &&
           memcmp(ts->t + ts->v[i].s, s, l) == 0;
}

static int in_list(const toks *ts, size_t i, const char *const *list)
{
    for (; *list; list++)
        if (is(ts, i, *list))
            return 1;
    return 0;
}

static int is_ident(const toks *ts, size_t i, size_t x)
{
    return i < ts->n && ts->v[i].kind == T_ID && tlen(ts, i) == tlen(ts, x) &&
           memcmp(ts->t + ts->v[i].s, ts->t + ts->v[x].s, tlen(ts, x)) == 0;
}

static int has_prefix(const toks *ts, size_t i, const char *const *prefixes)
{
    for (; *prefixes; prefixes++) {
        size_t l = strlen(*prefixes);
        if (tlen(ts, i) >= l && memcmp(ts->t + ts->v[i].s, *prefixes, l) == 0)
            return 1;
    }
    return 0;
}

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
/* Names that shuffle, vote or synchronise: the probe loop must not run them. */
static const char *const collective_prefixes[] = {"__shfl",       "__ballot", "__any",    "__all",
                                                  "__sync",       "__match",  "__reduce", "__activemask",
                                                  NULL};
/* Expression keywords that run code of their own. */
static const char *const never_words[] = {"new", "delete", "throw", "asm", "__asm", "__asm__",
                                          "co_await", "co_yield", NULL};

/* Index of the bracket closing the one at `open`, or NONE when brackets do
 * not nest properly (then nothing is rewritten). */
static size_t match_close(const toks *ts, size_t open)
{
    static const char opens[] = "([{", closes[] = ")]}";
    char want[64];
    size_t depth = 0;
    for (size_t i = open; i < ts->n; i++) {
        if (ts->v[i].kind != T_PUNCT || tlen(ts, i) != 1)
            continue;
        const char c = ts->t[ts->v[i].s], *o = strchr(opens, c);
        if (o) {
            if (depth == sizeof want)
                return NONE;
            want[depth++] = closes[o - opens];
        } else if (strchr(closes, c)) {
            if (depth == 0 || want[--depth] != c)
                return NONE;
            if (depth == 0)
                return i;
        }
    }
    return NONE;
}

/* Number of `sep` tokens in [a, b) outside any brackets. */
static int count_top_level(const toks *ts, size_t a, size_t b, const char *sep)
{
    int depth = 0, count = 0;
    for (size_t i = a; i < b; i++) {
        if (is(ts, i, "(") || is(ts, i, "[") || is(ts, i, "{"))
            depth++;
        else if (is(ts, i, ")") || is(ts, i, "]") || is(ts, i, "}"))
            depth--;
        else if (depth == 0 && is(ts, i, sep))
            count++;
    }
    return count;
}

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
        if (ts->v[i].kind == T_ID && (is_ident(ts, i, x) || has_prefix(ts, i, collective_prefixes) ||
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

typedef struct call {
    size_t s, e;  /* tokens [s, e) */
    size_t name;  /* NAME or M: the shuffle's line */
    size_t open;  /* its `(`; e - 1 is the `)` */
    int value;    /* index of the value argument */
} call;

typedef struct chain {
    size_t kw;     /* the `for` */
    size_t hs, he; /* header [hs, he) */
    size_t bs, be; /* body [bs, be) */
    size_t x;      /* the value, a single identifier */
    size_t op;     /* its `+=`... or `=` */
    size_t es, ee; /* EXPR [es, ee) of `X = EXPR;`; empty for `X op= CALL;` */
    call c;
} chain;

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
    size_t close = match_close(ts, c->open);
    if (close == NONE || close >= end)
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
 * the index of its `;`, or NONE. */
static size_t parse_stmt(const toks *ts, size_t s, size_t end, chain *ch)
{
    if (s + 2 >= end || ts->v[s].kind != T_ID || in_list(ts, s, expr_words))
        return NONE;
    ch->x = s;
    ch->op = s + 1;
    if (in_list(ts, ch->op, compound_ops)) {
        ch->es = ch->ee = s + 2;
        if (!call_at(ts, s + 2, end, &ch->c) || ch->c.e >= end || !is(ts, ch->c.e, ";"))
            return NONE;
        return call_args_ok(ts, &ch->c, s) ? ch->c.e : NONE;
    }
    if (!is(ts, ch->op, "="))
        return NONE;
    size_t semi = s + 2;
    while (semi < end && !is(ts, semi, ";"))
        semi++;
    ch->es = s + 2;
    ch->ee = semi;
    size_t i = ch->es;
    while (i < semi && !call_at(ts, i, semi, &ch->c))
        i++;
    if (semi >= end || i >= semi || !call_args_ok(ts, &ch->c, s) || !expr_ok(ts, ch))
        return NONE;
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

static int match_chain(const toks *ts, size_t k, chain *ch)
{
    if (!is(ts, k + 1, "("))
        return 0;
    size_t hclose = match_close(ts, k + 1);
    if (hclose == NONE)
        return 0;
    ch->kw = k;
    ch->hs = k + 2;
    ch->he = hclose;
    if (count_top_level(ts, ch->hs, ch->he, ";") != 2) /* not a range-for */
        return 0;
    if (!init_assigns(ts, ch->hs, ch->he))
        return 0;
    size_t bs = hclose + 1, last;
    if (is(ts, bs, "{")) {
        size_t bclose = match_close(ts, bs);
        if (bclose == NONE || parse_stmt(ts, bs + 1, bclose, ch) != bclose - 1)
            return 0;
        last = bclose;
    } else {
        last = parse_stmt(ts, bs, ts->n, ch);
        if (last == NONE)
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

static void put_newlines(sbuf *b, const char *t, size_t from, size_t to)
{
    for (size_t i = from; i < to; i++)
        if (t[i] == '\n')
            sb_puts(b, "\n");
}

/* The replacement, on one line: @X value, @H header, @C call, @O combine
 * body, @B loop body. */
static const char chain_form[] =
    "{ bool tt_sim_cd_ = false; if (::tt_sim::chain_ok<decltype(@X)>()) { ::tt_sim::chain_probe tt_sim_cp_; "
    "for (@H) (void)(@C); if (tt_sim_cp_.complete()) { @X = tt_sim_cp_.run(@X, "
    "[](::tt_sim::chain_t<decltype(@X)> tt_sim_a_, ::tt_sim::chain_t<decltype(@X)> tt_sim_r_) "
    "-> ::tt_sim::chain_t<decltype(@X)> { @O }); tt_sim_cd_ = true; } } "
    "if (!tt_sim_cd_) for (@H) @B }";

static void put_chain(sbuf *b, const toks *ts, const chain *ch)
{
    size_t name = ts->v[ch->c.name].s;
    put_newlines(b, ts->t, ts->v[ch->kw].s, name);
    for (const char *f = chain_form; *f; f++) {
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
        }
    }
    put_newlines(b, ts->t, name, ts->v[ch->be - 1].s);
}

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

int tt_sim_prep_chains(const char *text, size_t len, sbuf *out)
{
    toks ts = {text, NULL, 0};
    if (tokenize(&ts, len) != 0) {
        free(ts.v);
        out->oom = 1;
        return -1;
    }
    size_t copied = 0;
    for (size_t k = 0; k < ts.n; k++) {
        chain ch;
        if (ts.v[k].kind != T_ID || !is(&ts, k, "for") || !match_chain(&ts, k, &ch))
            continue;
        size_t upto = ts.v[k].s;
        if (k > 0 && is_pragma_unroll(&ts, k - 1))
            upto = ts.v[k - 1].s;
        sb_put(out, text + copied, upto - copied);
        if (upto != ts.v[k].s) { /* the pragma goes; its line stays, empty */
            put_newlines(out, text, upto, ts.v[k].s);
            put_indent(out, text, ts.v[k].s);
        }
        put_chain(out, &ts, &ch);
        copied = ts.v[ch.be - 1].e;
        k = ch.be - 1;
    }
    sb_put(out, text + copied, len - copied);
    free(ts.v);
    return out->oom ? -1 : 0;
}
