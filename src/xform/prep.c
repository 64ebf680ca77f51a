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
 * The second and third rewrites, of shuffle-chain loops
 * (prep_chain.c) and of kernels that become coroutines
 * (prep_co.c), work on tokens (prep_tok.c) and run as one
 * pass after this one.
 */
#define _GNU_SOURCE 1
#include "xform/prep.h"
#include "prep_co.h"
#include "prep_own.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int is_id(int c)
{
    return isalnum(c) || c == '_';
}

/* Skips a comment, string or character literal starting at i; returns the
 * index after it, or i if none starts there. */
static size_t skip_lit(const char *t, size_t n, size_t i)
{
    if (i + 1 < n && t[i] == '/' && t[i + 1] == '/') {
        while (i < n && t[i] != '\n')
            i++;
        return i;
    }
    if (i + 1 < n && t[i] == '/' && t[i + 1] == '*') {
        i += 2;
        while (i + 1 < n && !(t[i] == '*' && t[i + 1] == '/'))
            i++;
        return i + 2 <= n ? i + 2 : n;
    }
    if (t[i] == '"' || t[i] == '\'') {
        /* raw strings R"(...)" are rare in kernels; treat as normal */
        char q = t[i++];
        while (i < n && t[i] != q) {
            if (t[i] == '\\')
                i++;
            i++;
        }
        return i < n ? i + 1 : n;
    }
    return i;
}

static int line_of(const char *t, size_t pos)
{
    int l = 1;
    for (size_t i = 0; i < pos; i++)
        l += t[i] == '\n';
    return l;
}

static void trim(const char **s, const char **e)
{
    while (*s < *e && isspace((unsigned char)**s))
        (*s)++;
    while (*e > *s && isspace((unsigned char)(*e)[-1]))
        (*e)--;
}

/* Removes `word(args)` (e.g. __align__(16)) from [s,e) copied into out;
 * stores args in align (if non-NULL and empty). */
static void strip_call(char *txt, const char *word, char *align, size_t alen)
{
    size_t wl = strlen(word);
    for (char *p = strstr(txt, word); p; p = strstr(p, word)) {
        if ((p > txt && is_id((unsigned char)p[-1])) || is_id((unsigned char)p[wl])) {
            p += wl;
            continue;
        }
        char *q = p + wl;
        while (isspace((unsigned char)*q))
            q++;
        if (*q != '(') {
            p = q;
            continue;
        }
        int depth = 0;
        char *a = q + 1, *r = q;
        for (; *r; r++) {
            if (*r == '(')
                depth++;
            else if (*r == ')' && --depth == 0)
                break;
        }
        if (!*r)
            return;
        if (align && !align[0]) {
            size_t l = (size_t)(r - a);
            if (l >= alen)
                l = alen - 1;
            memcpy(align, a, l);
            align[l] = 0;
        }
        memmove(p, r + 1, strlen(r + 1) + 1);
    }
}

/* Removes a whole-word keyword. */
static void strip_word(char *txt, const char *word)
{
    size_t wl = strlen(word);
    for (char *p = strstr(txt, word); p; p = strstr(p, word)) {
        if ((p > txt && is_id((unsigned char)p[-1])) || is_id((unsigned char)p[wl])) {
            p += wl;
            continue;
        }
        memmove(p, p + wl, strlen(p + wl) + 1);
    }
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

/* Brace depth of namespace scope vs function scope: we only need to know
 * whether the declaration is inside some function body.  A '{' opened by
 * `namespace X {`, `extern "C" {`, `struct/class ... {` keeps namespace scope
 * (a __shared__ member is not valid CUDA anyway). */
typedef struct scope {
    unsigned char fn[512];
    int depth;
} scope;

/* The __shared__ rewrite: appends the rewritten text to *b (which the caller
 * frees, also on failure).  Returns 0, or -1 with "line N: why" in err. */
static int prepare_shared(const char *text, size_t len, sbuf *b, char *err, size_t errlen)
{
    scope sc;
    memset(&sc, 0, sizeof sc);
    size_t i = 0, copied = 0;
    size_t stmt_start = 0; /* start of the current statement (after ; { }) */
    int in_fn_depth = 0;   /* number of enclosing function-like braces */
    int at_line_start = 1;
    int in_define = 0;     /* scanning a #define's body: its line end ends a statement */
    while (i < len) {
        size_t j = skip_lit(text, len, i);
        if (j != i) {
            i = j;
            continue;
        }
        char c = text[i];
        if (c == '\\' && in_define && i + 1 < len && text[i + 1] == '\n') {
            i += 2;
            continue;
        }
        if (c == '\n') {
            at_line_start = 1;
            i++;
            /* a declaration after a #define starts on the line after it (a
             * local header's `#define X 32` then `__shared__ float s[64];`) */
            if (in_define)
                stmt_start = i;
            in_define = 0;
            continue;
        }
        if (isspace((unsigned char)c)) {
            i++;
            continue;
        }
        if (c == '#' && at_line_start) {
            /* a directive: skip it unless it is a #define whose body may use
             * __shared__ (we rewrite inside bodies, but never the name). */
            size_t k = i + 1;
            while (k < len && (text[k] == ' ' || text[k] == '\t'))
                k++;
            int is_define = len - k >= 6 && strncmp(text + k, "define", 6) == 0;
            if (!is_define) {
                while (i < len && text[i] != '\n') {
                    if (text[i] == '\\' && i + 1 < len && text[i + 1] == '\n')
                        i++;
                    i++;
                }
                /* a declaration after a directive starts after it: DeepSpeed's
                 * `#endif` then `extern __shared__ __align__(128) half smem[];`
                 * lost its #endif into the type */
                stmt_start = i;
                continue;
            }
            k += 6;
            while (k < len && (text[k] == ' ' || text[k] == '\t'))
                k++;
            size_t nm = k;
            while (k < len && is_id((unsigned char)text[k]))
                k++;
            if (k - nm == 10 && strncmp(text + nm, "__shared__", 10) == 0) {
                while (i < len && text[i] != '\n')
                    i++;
                continue;
            }
            i = k;
            stmt_start = i;
            at_line_start = 0;
            in_define = 1;
            continue;
        }
        at_line_start = 0;
        if (c == '{' || c == '}' || c == ';') {
            if (c == '{') {
                /* function body if the statement before it ends with ')' or a
                 * trailing qualifier (const, noexcept...), roughly */
                int fn = in_fn_depth > 0;
                if (!fn) {
                    size_t k = i;
                    while (k > stmt_start && isspace((unsigned char)text[k - 1]))
                        k--;
                    size_t e = k;
                    while (k > stmt_start && is_id((unsigned char)text[k - 1]))
                        k--;
                    int trailing_kw = e > k && (strncmp(text + k, "const", e - k) == 0 ||
                                                strncmp(text + k, "noexcept", e - k) == 0 ||
                                                strncmp(text + k, "override", e - k) == 0);
                    while (k > stmt_start && isspace((unsigned char)text[k - 1]))
                        k--;
                    fn = (e > 0 && text[e - 1] == ')') || (trailing_kw && k > 0 && text[k - 1] == ')');
                }
                if (sc.depth < (int)sizeof sc.fn)
                    sc.fn[sc.depth] = (unsigned char)fn;
                sc.depth++;
                in_fn_depth += fn;
            } else if (c == '}') {
                if (sc.depth > 0) {
                    sc.depth--;
                    if (sc.depth < (int)sizeof sc.fn)
                        in_fn_depth -= sc.fn[sc.depth];
                }
            }
            i++;
            stmt_start = i;
            continue;
        }
        if (!is_id((unsigned char)c)) {
            i++;
            continue;
        }
        size_t ws = i;
        while (i < len && is_id((unsigned char)text[i]))
            i++;
        if (i - ws != 10 || strncmp(text + ws, "__shared__", 10) != 0)
            continue;

        /* a __shared__ declaration: [stmt_start, semicolon], starting at its
         * first token (leading blanks and comments stay where they are) */
        for (;;) {
            while (stmt_start < ws && isspace((unsigned char)text[stmt_start]))
                stmt_start++;
            size_t k = skip_lit(text, len, stmt_start);
            if (k == stmt_start || k > ws)
                break;
            stmt_start = k;
        }
        int line = line_of(text, ws);
        size_t semi = i;
        int depth = 0;
        while (semi < len) {
            size_t k = skip_lit(text, len, semi);
            if (k != semi) {
                semi = k;
                continue;
            }
            char d = text[semi];
            if (d == '(' || d == '[' || d == '{')
                depth++;
            else if (d == ')' || d == ']' || d == '}')
                depth--;
            else if (d == ';' && depth == 0)
                break;
            if (depth < 0)
                break;
            semi++;
        }
        if (semi >= len || text[semi] != ';')
            return fail(err, errlen, line, "cannot find the end of the __shared__ declaration");
        size_t dlen = semi - stmt_start;
        char *decl = malloc(dlen + 1);
        if (!decl)
            return fail(err, errlen, line, "out of memory");
        memcpy(decl, text + stmt_start, dlen);
        decl[dlen] = 0;
        /* comments inside the declaration would confuse the split: blank them */
        for (size_t k = 0; k < dlen;) {
            size_t m = skip_lit(decl, dlen, k);
            if (m != k && decl[k] == '/') {
                for (size_t q = k; q < m; q++)
                    if (decl[q] != '\n')
                        decl[q] = ' ';
                k = m;
            } else {
                k = m != k ? m : k + 1;
            }
        }
        int newlines = 0;
        for (size_t k = 0; k < dlen; k++)
            newlines += decl[k] == '\n';
        int is_extern = 0;
        {
            char *p = decl;
            size_t wl = 6;
            for (p = strstr(p, "extern"); p; p = strstr(p + 1, "extern"))
                if ((p == decl || !is_id((unsigned char)p[-1])) && !is_id((unsigned char)p[wl]))
                    is_extern = 1;
        }
        char align[128] = "";
        strip_word(decl, "__shared__");
        strip_word(decl, "extern");
        strip_word(decl, "static");
        strip_call(decl, "__align__", align, sizeof align);
        strip_call(decl, "alignas", align, sizeof align);
        strip_call(decl, "__attribute__", NULL, 0);
        for (char *p = decl; *p; p++)
            if (*p == '\n' || *p == '\r' || *p == '\t')
                *p = ' ';
        if (strchr(decl, '=')) {
            free(decl);
            return fail(err, errlen, line, "__shared__ variables cannot have an initializer");
        }
        /* split declarators at top-level commas (template angle brackets
         * count as nesting outside [] and ()) */
        const char *macro = is_extern ? "TT_SIM_SHARED_EXTERN"
                          : in_fn_depth > 0 ? "TT_SIM_SHARED" : "TT_SIM_SHARED_GLOBAL";
        const char *type_s = NULL, *type_e = NULL;
        char *p = decl, *start = decl;
        int dp = 0, ang = 0, ok = 1;
        sb_put(b, text + copied, stmt_start - copied);
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
                if (split_decl(start, p, &ts, &te, &ns, &ne, &ds, &de) != 0) {
                    ok = 0;
                    break;
                }
                if (!type_s) {
                    type_s = ts;
                    type_e = te;
                } else if (te > ts) {
                    ok = 0; /* e.g. `a, *b` */
                    break;
                }
                if (type_e <= type_s) {
                    ok = 0;
                    break;
                }
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
                    break;
                sb_puts(b, " ");
                start = p + 1;
            }
        }
        free(decl);
        if (!ok)
            return fail(err, errlen, line, "cannot parse the __shared__ declaration");
        for (int k = 0; k < newlines; k++)
            sb_puts(b, "\n");
        copied = semi + 1;
        i = semi + 1;
        stmt_start = i;
    }
    sb_put(b, text + copied, len - copied);
    return 0;
}

int tt_xf_prepare_source(const char *text, size_t len, char **out, char *err, size_t errlen)
{
    sbuf own = {0}, shared = {0}, chained = {0};
    if (tt_xf_prep_own(text, len, &own) != 0) {
        free(own.p);
        return fail(err, errlen, 0, "out of memory");
    }
    int rc = prepare_shared(own.p ? own.p : "", own.n, &shared, err, errlen);
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
