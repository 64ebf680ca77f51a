/* prep_tok.h — internal to tt_xf_prepare_source(): the token view
 * of a source that its rewrites (__shared__ declarations, prep.c; shuffle
 * chains, prep_chain.c; coroutine kernels, prep_co.c; the source's own warp
 * functions, prep_own.c) read, and the
 * growable output buffer every rewrite writes into.
 *
 * Ownership: a toks borrows its text (t) and owns its token array (v, free
 * it); tokens are byte ranges of that text.  The short helpers below are
 * static inline and local to the prep files; the out-of-line ones, in
 * prep_tok.c, carry the tt_sim_tok_ prefix. */
#ifndef TT_XF_PREP_TOK_H
#define TT_XF_PREP_TOK_H

#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- output */

/* A NUL-terminated growing text.  After an allocation failure `oom` is set
 * and further appends are dropped, so callers check once at the end. */
typedef struct sbuf {
    char *p;
    size_t n, cap;
    int oom;
} sbuf;

static inline void sb_put(sbuf *b, const char *s, size_t n)
{
    if (b->oom)
        return;
    if (b->n + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 4096;
        while (cap < b->n + n + 1)
            cap *= 2;
        char *p = realloc(b->p, cap);
        if (!p) {
            b->oom = 1;
            return;
        }
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = 0;
}

static inline void sb_puts(sbuf *b, const char *s)
{
    sb_put(b, s, strlen(s));
}

/* One "\n" for every newline of t[from, to): a rewrite that puts a
 * construct on one line keeps the lines it spanned. */
static inline void sb_newlines(sbuf *b, const char *t, size_t from, size_t to)
{
    for (size_t i = from; i < to; i++)
        if (t[i] == '\n')
            sb_puts(b, "\n");
}

/* ---------------------------------------------------------------- tokens */

/* "No such token" (an index). */
#define TOK_NONE SIZE_MAX

/* Comments, literals and preprocessor lines are single tokens, so nothing
 * inside them is ever seen as code.  Kinds below T_OTHER are code; T_OTHER
 * is a byte no rule knows (a stray character). */
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

/* Bytes >= 0x80 count as identifier bytes (UTF-8 identifiers), so that a
 * non-ASCII name is one token and never looks like a shorter ASCII one. */
static inline int idc(unsigned char c)
{
    return isalnum(c) || c == '_' || c >= 0x80;
}

static inline size_t tlen(const toks *ts, size_t i)
{
    return ts->v[i].e - ts->v[i].s;
}

/* Token i is the code token s (false past the end). */
static inline int is(const toks *ts, size_t i, const char *s)
{
    size_t l = strlen(s);
    return i < ts->n && ts->v[i].kind < T_OTHER && tlen(ts, i) == l &&
           memcmp(ts->t + ts->v[i].s, s, l) == 0;
}

static inline int in_list(const toks *ts, size_t i, const char *const *list)
{
    for (; *list; list++)
        if (is(ts, i, *list))
            return 1;
    return 0;
}

/* Token i is an identifier spelled as token x. */
static inline int is_ident(const toks *ts, size_t i, size_t x)
{
    return i < ts->n && ts->v[i].kind == T_ID && tlen(ts, i) == tlen(ts, x) &&
           memcmp(ts->t + ts->v[i].s, ts->t + ts->v[x].s, tlen(ts, x)) == 0;
}

static inline int has_prefix(const toks *ts, size_t i, const char *const *prefixes)
{
    for (; *prefixes; prefixes++) {
        size_t l = strlen(*prefixes);
        if (tlen(ts, i) >= l && memcmp(ts->t + ts->v[i].s, *prefixes, l) == 0)
            return 1;
    }
    return 0;
}

static inline const char *tok_str(const toks *ts, size_t i)
{
    return ts->t + ts->v[i].s;
}

/* The next / previous token that is not a comment, or TOK_NONE. */
static inline size_t tok_next(const toks *ts, size_t i)
{
    for (i++; i < ts->n; i++)
        if (ts->v[i].kind != T_COMMENT)
            return i;
    return TOK_NONE;
}

static inline size_t tok_prev(const toks *ts, size_t i)
{
    while (i != TOK_NONE && i-- > 0)
        if (ts->v[i].kind != T_COMMENT)
            return i;
    return TOK_NONE;
}

/* Cuts ts->t[0, n) into ts->v (ts->v NULL and ts->n 0 on entry): the leaves
 * of its tree-sitter parse (prep_tok.c says how they are normalised).
 * Returns 0, or -1 when out of memory or the text cannot be parsed (over 4 GB)
 * (ts->v may then hold a partial array). */
int tt_xf_tok_split(toks *ts, size_t n);

/* Index of the bracket closing the one at `open`, or TOK_NONE when brackets
 * do not nest properly. */
size_t tt_xf_tok_match_close(const toks *ts, size_t open);

/* pair[i] = the bracket matching bracket i (either direction) for every
 * ( [ { ) ] } token that nests properly, TOK_NONE for every other token.
 * pair has ts->n entries. */
void tt_xf_tok_pairs(const toks *ts, size_t *pair);

/* Number of `sep` tokens in [a, b) outside any brackets. */
int tt_xf_tok_count_top_level(const toks *ts, size_t a, size_t b, const char *sep);

#endif
