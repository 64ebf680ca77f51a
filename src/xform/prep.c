/* prep.c — tt_xf_prepare_source(): rewrites __shared__ declarations
 * into arena lookups (see tt_sim.h).
 *
 * Why a source pass: C++ has no storage class meaning "one object per GPU
 * block", and `static`/`thread_local` would share one object between blocks
 * (or tie it to an OS thread).  The declaration must become a reference into
 * the running block's arena, which needs the declarator split into type, name
 * and extents — something the preprocessor cannot do.
 *
 * Output forms (one line each; the newlines a declaration spanned are kept
 * after it so line numbers do not move):
 *   TT_SIM_SHARED(name, align, (dims), type...)          in a function
 *   TT_SIM_SHARED_EXTERN(name, align, (dims), type...)   extern __shared__
 *   TT_SIM_SHARED_GLOBAL(name, align, (dims), type...)   at namespace scope
 * `align` is the __align__/alignas argument or 0.  The type is last so that
 * template arguments with commas survive as __VA_ARGS__.
 *
 * It reads the text as tokens of the project's tree-sitter parse
 * (prep_tok.h), so a comment, a literal or a directive is never taken for
 * code; only a #define whose body declares __shared__ memory is looked into,
 * and its body rewritten as a text of its own.  The second and third
 * rewrites, of shuffle-chain loops (prep_chain.c) and of kernels that become
 * coroutines (prep_co.c), work on the same token view and run as one pass
 * after this one.
 */
#define _GNU_SOURCE 1
#include "xform/prep.h"
#include "prep_co.h"
#include "prep_own.h"
#include "prep_tok.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int is_id(int c)
{
    return isalnum(c) || c == '_';
}

/* Lines of a text counted as a pass moves forward through it: asking for
 * positions in increasing order costs one look at each byte in all. */
typedef struct line_cursor {
    const char *t;
    size_t pos;
    int line; /* the line of byte pos */
} line_cursor;

static int line_at(line_cursor *c, size_t pos)
{
    for (; c->pos < pos; c->pos++)
        c->line += c->t[c->pos] == '\n';
    return c->line;
}

static void trim(const char **s, const char **e)
{
    while (*s < *e && isspace((unsigned char)**s))
        (*s)++;
    while (*e > *s && isspace((unsigned char)(*e)[-1]))
        (*e)--;
}

static int fail(char *err, size_t errlen, int line, const char *fmt, ...)
{
    if (err && errlen) {
        int k = snprintf(err, errlen, "line %d: ", line);
        va_list ap;
        va_start(ap, fmt);
        if (k >= 0 && (size_t)k < errlen)
            vsnprintf(err + k, errlen - (size_t)k, fmt, ap);
        va_end(ap);
    }
    return -1;
}

/* Splits one declarator "type name dims" (type may be empty for the 2nd+
 * declarator) into its parts.  Returns 0 on success. */
static int split_decl(const char *s, const char *e, const char **ts, const char **te,
                      const char **ns, const char **ne, const char **ds, const char **de)
{
    trim(&s, &e);
    const char *p = e;
    /* trailing [..] groups */
    while (p > s && p[-1] == ']') {
        int depth = 0;
        const char *q = p - 1;
        for (; q >= s; q--) {
            if (*q == ']')
                depth++;
            else if (*q == '[' && --depth == 0)
                break;
        }
        if (q < s)
            return -1;
        p = q;
        while (p > s && isspace((unsigned char)p[-1]))
            p--;
    }
    *ds = p;
    *de = e;
    const char *n_end = p;
    while (n_end > s && isspace((unsigned char)n_end[-1]))
        n_end--;
    const char *n_start = n_end;
    while (n_start > s && is_id((unsigned char)n_start[-1]))
        n_start--;
    if (n_start == n_end || isdigit((unsigned char)*n_start))
        return -1;
    *ns = n_start;
    *ne = n_end;
    *ts = s;
    *te = n_start;
    trim(ts, te);
    return 0;
}

/* The `;` that ends the declaration whose `__shared__` is token i (its
 * brackets nesting properly), or TOK_NONE. */
static size_t decl_end(const toks *ts, size_t i)
{
    for (; i < ts->n; i++) {
        if (is(ts, i, "(") || is(ts, i, "[") || is(ts, i, "{")) {
            if ((i = tt_xf_tok_match_close(ts, i)) == TOK_NONE)
                return TOK_NONE;
        } else if (is(ts, i, ")") || is(ts, i, "]") || is(ts, i, "}")) {
            return TOK_NONE;
        } else if (is(ts, i, ";")) {
            return i;
        }
    }
    return TOK_NONE;
}

/* The `{` at token i opens a function body: `)` before it, or `) const`,
 * `) noexcept`, `) override` (a lambda's too).  `namespace X {`,
 * `extern "C" {` and `struct S {` keep namespace scope (a __shared__ member is
 * not valid CUDA anyway). */
static int opens_function(const toks *ts, size_t i)
{
    size_t p = tok_prev(ts, i);
    if (p != TOK_NONE && (is(ts, p, "const") || is(ts, p, "noexcept") || is(ts, p, "override")))
        p = tok_prev(ts, p);
    return p != TOK_NONE && is(ts, p, ")");
}

/* Why decl_text refused a declaration. */
enum { DECL_UNSPLIT = -1, DECL_INITIALIZER = -2 };

/* The declaration of tokens [a, z) as "type name dims, name dims", without
 * __shared__, extern, static, __align__(..), alignas(..), __attribute__((..))
 * and comments, one space wherever the source had a gap.  Sets *is_extern,
 * and align to the __align__ / alignas argument (left "" when none).  0, or
 * DECL_INITIALIZER for an `=`, DECL_UNSPLIT for a group that does not close. */
static int decl_text(const toks *ts, size_t a, size_t z, sbuf *d, int *is_extern, char *align, size_t alen)
{
    size_t last_end = ts->v[a].s;
    for (size_t i = a; i < z; i++) {
        const tok *k = &ts->v[i];
        if (k->kind == T_COMMENT || k->kind == T_OTHER) /* a comment, a macro's line splice */
            continue;
        if (is(ts, i, "__shared__") || is(ts, i, "static"))
            continue;
        if (is(ts, i, "extern")) {
            *is_extern = 1;
            continue;
        }
        if (is(ts, i, "="))
            return DECL_INITIALIZER;
        int al = is(ts, i, "__align__") || is(ts, i, "alignas");
        size_t open = tok_next(ts, i);
        if ((al || is(ts, i, "__attribute__")) && open < z && is(ts, open, "(")) {
            size_t close = tt_xf_tok_match_close(ts, open);
            if (close == TOK_NONE || close >= z)
                return DECL_UNSPLIT;
            const char *as = ts->t + ts->v[open].e, *ae = ts->t + ts->v[close].s;
            trim(&as, &ae);
            if (al && !align[0] && (size_t)(ae - as) < alen) {
                memcpy(align, as, (size_t)(ae - as));
                align[ae - as] = 0;
            }
            i = close;
            continue;
        }
        if (d->n && k->s != last_end)
            sb_puts(d, " ");
        sb_put(d, ts->t + k->s, k->e - k->s);
        last_end = k->e;
    }
    return 0;
}

/* Appends to b the macros that declaration `decl` ("type name dims, ...")
 * becomes; -1 when it is not one this rewrite can split. */
static int put_macros(sbuf *b, const char *macro, const char *align, char *decl)
{
    const char *type_s = NULL, *type_e = NULL;
    char *p = decl, *start = decl;
    int dp = 0, ang = 0;
    /* declarators at top-level commas (template angle brackets count as
     * nesting outside [] and ()) */
    for (;; p++) {
        if (*p == '(' || *p == '[')
            dp++;
        else if (*p == ')' || *p == ']')
            dp--;
        else if (*p == '<' && dp == 0)
            ang++;
        else if (*p == '>' && dp == 0 && ang > 0)
            ang--;
        if (*p == 0 || (*p == ',' && dp == 0 && ang == 0)) {
            const char *ts, *te, *ns, *ne, *ds, *de;
            if (split_decl(start, p, &ts, &te, &ns, &ne, &ds, &de) != 0)
                return -1;
            if (!type_s) {
                type_s = ts;
                type_e = te;
            } else if (te > ts) {
                return -1; /* e.g. `a, *b` */
            }
            if (type_e <= type_s)
                return -1;
            sb_puts(b, macro);
            sb_puts(b, "(");
            sb_put(b, ns, (size_t)(ne - ns));
            sb_puts(b, ", ");
            sb_puts(b, align[0] ? align : "0");
            sb_puts(b, ", (");
            sb_put(b, ds, (size_t)(de - ds));
            sb_puts(b, "), ");
            sb_put(b, type_s, (size_t)(type_e - type_s));
            sb_puts(b, ");");
            if (!*p)
                return 0;
            sb_puts(b, " ");
            start = p + 1;
        }
    }
}

static int prepare_shared(const char *text, size_t len, sbuf *b, int in_define, int line0, char *err,
                          size_t errlen);

/* Where the body of directive `d` (`len` bytes) starts when it is a #define
 * of a name other than __shared__ whose body says __shared__; else 0.  (The
 * directive's own text, cut by hand: the token view keeps a directive whole.) */
static size_t define_body(const char *d, size_t len)
{
    if (!memmem(d, len, "__shared__", 10))
        return 0;
    size_t k = 1;
    while (k < len && (d[k] == ' ' || d[k] == '\t'))
        k++;
    if (len - k < 7 || strncmp(d + k, "define", 6) != 0 || is_id((unsigned char)d[k + 6]))
        return 0;
    k += 6;
    while (k < len && (d[k] == ' ' || d[k] == '\t'))
        k++;
    size_t nm = k;
    while (k < len && is_id((unsigned char)d[k]))
        k++;
    if (k == nm || (k - nm == 10 && strncmp(d + nm, "__shared__", 10) == 0))
        return 0;
    if (k < len && d[k] == '(') { /* a function-like macro's parameters */
        while (k < len && d[k] != ')')
            k++;
        if (k < len)
            k++;
    }
    return k;
}

/* The __shared__ rewrite over the token view of the text (prep_tok.h):
 * appends the rewritten text to *b (which the caller frees, also on
 * failure).  In a #define body (in_define) the lines a declaration spanned
 * are kept as line splices.  Returns 0, or -1 with "line N: why" in err
 * (line0: the line of text's first byte, minus one). */
static int prepare_shared(const char *text, size_t len, sbuf *b, int in_define, int line0, char *err,
                          size_t errlen)
{
    if (!memmem(text, len, "__shared__", 10)) {
        sb_put(b, text, len);
        return 0;
    }
    toks ts = {text, NULL, 0};
    if (tt_xf_tok_split(&ts, len) != 0) {
        free(ts.v);
        return fail(err, errlen, line0 + 1, "cannot parse the file to find its __shared__ declarations");
    }
    line_cursor lc = {text, 0, line0 + 1};
    unsigned char fn[512]; /* per open brace: it opened a function body */
    int depth = 0, in_fn = 0, rc = 0;
    size_t copied = 0, stmt = 0; /* stmt: the first token after ; { } or a directive */
    for (size_t i = 0; i < ts.n && rc == 0; i++) {
        const tok *k = &ts.v[i];
        if (k->kind == T_PP) {
            size_t body = define_body(text + k->s, k->e - k->s);
            if (body) {
                sb_put(b, text + copied, k->s + body - copied);
                rc = prepare_shared(text + k->s + body, k->e - k->s - body, b, 1, line_at(&lc, k->s) - 1, err,
                                    errlen);
                copied = k->e;
            }
            stmt = i + 1;
            continue;
        }
        if (is(&ts, i, "{")) {
            int f = in_fn > 0 || opens_function(&ts, i);
            if (depth < (int)sizeof fn)
                fn[depth] = (unsigned char)f;
            depth++;
            in_fn += f;
            stmt = i + 1;
            continue;
        }
        if (is(&ts, i, "}") || is(&ts, i, ";")) {
            if (is(&ts, i, "}") && depth > 0 && --depth < (int)sizeof fn)
                in_fn -= fn[depth];
            stmt = i + 1;
            continue;
        }
        if (!is(&ts, i, "__shared__"))
            continue;
        size_t first = stmt, semi = decl_end(&ts, i);
        while (first < i && ts.v[first].kind == T_COMMENT)
            first++;
        int line = line_at(&lc, k->s);
        if (semi == TOK_NONE) {
            rc = fail(err, errlen, line, "cannot find the end of the __shared__ declaration");
            break;
        }
        sbuf decl = {0};
        int is_extern = 0;
        char align[128] = "";
        int why = decl_text(&ts, first, semi, &decl, &is_extern, align, sizeof align);
        if (why != 0) {
            free(decl.p);
            rc = fail(err, errlen, line, why == DECL_INITIALIZER ? "__shared__ variables cannot have an initializer"
                                                                 : "cannot parse the __shared__ declaration");
            break;
        }
        const char *macro = is_extern ? "TT_SIM_SHARED_EXTERN" : in_fn > 0 ? "TT_SIM_SHARED" : "TT_SIM_SHARED_GLOBAL";
        sb_put(b, text + copied, ts.v[first].s - copied);
        if (decl.oom || put_macros(b, macro, align, decl.p ? decl.p : (char *)"") != 0) {
            free(decl.p);
            rc = fail(err, errlen, line, "cannot parse the __shared__ declaration");
            break;
        }
        free(decl.p);
        for (size_t q = ts.v[first].s; q < ts.v[semi].e; q++)
            if (text[q] == '\n')
                sb_puts(b, in_define ? "\\\n" : "\n");
        copied = ts.v[semi].e;
        i = semi;
        stmt = semi + 1;
    }
    free(ts.v);
    if (rc == 0)
        sb_put(b, text + copied, len - copied);
    return rc;
}

int tt_xf_prepare_source(const char *text, size_t len, char **out, char *err, size_t errlen)
{
    sbuf own = {0}, shared = {0}, chained = {0};
    if (tt_xf_prep_own(text, len, &own) != 0) {
        free(own.p);
        return fail(err, errlen, 0, "out of memory");
    }
    int rc = prepare_shared(own.p ? own.p : "", own.n, &shared, 0, 0, err, errlen);
    free(own.p);
    if (rc != 0) {
        free(shared.p);
        return -1;
    }
    /* Second pass on the first one's output: the rewrites never touch the
     * same text (a chain loop or a kernel's void, barrier or return has no
     * __shared__), and all keep every line, so the order does not matter and
     * lines stay the original's. */
    if (!shared.oom)
        tt_xf_prep_co(shared.p ? shared.p : "", shared.n, &chained);
    sb_put(&chained, "", 0); /* an empty source still gets a string */
    free(shared.p);
    if (shared.oom || chained.oom) {
        free(chained.p);
        return fail(err, errlen, 0, "out of memory");
    }
    *out = chained.p;
    return 0;
}
