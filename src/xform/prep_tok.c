/* prep_tok.c — the tokenizer of tt_xf_prepare_source()'s
 * token-based rewrites, and the bracket tests they share (see
 * prep_tok.h).
 *
 * Why tokens: both rewrites must never see code inside a comment, a
 * literal or a preprocessor line, and must keep every byte they do not
 * rewrite; a token is a byte range of the text, so copying around the
 * rewritten ones keeps everything else (and every line) as it was.  Not a
 * full C++ lexer: it only has to cut the text where a compiler would, and
 * to mark what it does not understand (T_OTHER) so that callers leave it.
 */
#include "prep_tok.h"

/* ---------------------------------------------------------------- lexing */

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

int tt_xf_tok_split(toks *ts, size_t n)
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

/* ---------------------------------------------------------------- brackets */

size_t tt_xf_tok_match_close(const toks *ts, size_t open)
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
                return TOK_NONE;
            want[depth++] = closes[o - opens];
        } else if (strchr(closes, c)) {
            if (depth == 0 || want[--depth] != c)
                return TOK_NONE;
            if (depth == 0)
                return i;
        }
    }
    return TOK_NONE;
}

/* The open brackets not yet closed form a stack linked through pair[]
 * itself (pair[open] = the open one below it), so no other memory is
 * needed.  A closing bracket of the wrong kind pairs with nothing and pops
 * nothing; brackets still open at the end pair with nothing. */
void tt_xf_tok_pairs(const toks *ts, size_t *pair)
{
    static const char opens[] = "([{", closes[] = ")]}";
    size_t top = TOK_NONE;
    for (size_t i = 0; i < ts->n; i++) {
        pair[i] = TOK_NONE;
        if (ts->v[i].kind != T_PUNCT || tlen(ts, i) != 1)
            continue;
        const char c = ts->t[ts->v[i].s], *o = strchr(opens, c), *k = strchr(closes, c);
        if (c && o) {
            pair[i] = top;
            top = i;
        } else if (c && k && top != TOK_NONE && ts->t[ts->v[top].s] == opens[k - closes]) {
            size_t below = pair[top];
            pair[top] = i;
            pair[i] = top;
            top = below;
        }
    }
    while (top != TOK_NONE) {
        size_t below = pair[top];
        pair[top] = TOK_NONE;
        top = below;
    }
}

int tt_xf_tok_count_top_level(const toks *ts, size_t a, size_t b, const char *sep)
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
