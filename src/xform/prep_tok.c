/* prep_tok.c — the token view of tt_xf_prepare_source()'s token-based
 * rewrites, and the bracket tests they share (see prep_tok.h).
 *
 * Why tokens: the rewrites must never see code inside a comment, a literal or
 * a preprocessor line, and must keep every byte they do not rewrite; a token
 * is a byte range of the text, so copying around the rewritten ones keeps
 * everything else (and every line) as it was.
 *
 * Where they come from: the leaves of the project's tree-sitter parse of the
 * text (the CUDA grammar of src/parser), in document order.  The passes see
 * them as a lexer would cut them, so four things are normalised, each
 * stated where it is done: a directive is one token from its `#` to the end
 * of its line (continuations included); a literal is one token; punctuators
 * the grammar cut for its own parse (`>` `>` closing two template lists,
 * `:` `:` in asm, `<<<`) are cut again by maximal munch; and the text of an
 * ERROR leaf (what the parser could not read, e.g. after an unknown macro),
 * or bytes no leaf covers, are cut by the scanning rules below, with
 * anything no rule knows as T_OTHER so that callers leave it.
 */
#include "prep_tok.h"

#include <tree_sitter/api.h>

#include "parser/lang.h"

/* ---------------------------------------------------------------- scanning rules */

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

/* ---------------------------------------------------------------- tokens from the parse */

/* Appends token [s, e) of kind k. */
static int push_tok(toks *ts, size_t *cap, size_t s, size_t e, int kind)
{
    if (ts->n == *cap) {
        size_t c = *cap ? *cap * 2 : 1024;
        tok *v = realloc(ts->v, c * sizeof *v);
        if (!v)
            return -1;
        ts->v = v;
        *cap = c;
    }
    ts->v[ts->n++] = (tok){s, e, kind};
    return 0;
}

typedef struct leaf_walk {
    toks *ts;
    size_t n, cap, pos; /* pos: end of the text tokenized so far */
    int line_start;     /* only blanks and comments so far on this line */
    int oom;
} leaf_walk;

/* Text the parse has no token for (stray characters tree-sitter skipped): one
 * T_OTHER per byte, so that callers leave it. */
static void emit_gap(leaf_walk *w, size_t to)
{
    const char *t = w->ts->t;
    for (size_t i = w->pos; i < to && !w->oom; i++) {
        if (isspace((unsigned char)t[i])) {
            w->line_start |= t[i] == '\n';
            continue;
        }
        w->oom |= push_tok(w->ts, &w->cap, i, i + 1, T_OTHER);
        w->line_start = 0;
    }
    if (to > w->pos)
        w->pos = to;
}

static void emit(leaf_walk *w, size_t s, size_t e, int kind)
{
    w->oom |= push_tok(w->ts, &w->cap, s, e, kind);
    w->line_start &= kind == T_COMMENT;
    w->pos = e;
}

static int is_string_node(const char *type)
{
    return !strcmp(type, "string_literal") || !strcmp(type, "char_literal") ||
           !strcmp(type, "raw_string_literal") || !strcmp(type, "system_lib_string");
}

/* Text of [s, e) the parse has no tokens for (an ERROR leaf, or what is left
 * of a leaf after a literal or directive that the lexer's rules end later than
 * the parse): cut where a compiler would. */
static void lex_span(leaf_walk *w, size_t s, size_t e)
{
    const char *t = w->ts->t;
    for (size_t i = s; i < e && !w->oom;) {
        if (isspace((unsigned char)t[i])) {
            w->line_start |= t[i] == '\n';
            i++;
            continue;
        }
        tok k;
        i = scan_token(t, e, i, w->line_start, &k);
        emit(w, k.s, k.e, k.kind);
    }
    if (e > w->pos)
        w->pos = e;
}

/* One token of the parse, [s, e). */
static void emit_leaf(leaf_walk *w, TSNode node, size_t s, size_t e)
{
    const char *t = w->ts->t;
    if (s < w->pos) { /* inside a directive or literal already emitted */
        if (e > w->pos)
            lex_span(w, w->pos, e);
        return;
    }
    emit_gap(w, s);
    const char *type = ts_node_type(node);
    unsigned char c = (unsigned char)t[s];
    size_t b = s;
    while (b < e && isspace((unsigned char)t[b]))
        b++;
    if (b == e) { /* the grammar's newline token of a directive */
        w->pos = s;
        emit_gap(w, e);
        return;
    }
    if (!strcmp(type, "comment")) {
        emit(w, s, e, T_COMMENT);
    } else if (c == '#' && w->line_start) {
        /* a directive is a line: up to its newline, continuations included */
        emit(w, s, scan_pp_line(t, w->n, s), T_PP);
    } else if (ts_node_is_error(node)) {
        lex_span(w, s, e);
    } else if (is_string_node(type)) {
        emit(w, s, e, T_STR);
    } else if (c == '"' || c == '\'') {
        /* a quote the parse did not make a literal of (in an error region):
         * the literal as a compiler reads it */
        emit(w, s, scan_quoted(t, w->n, s), T_STR);
    } else if (isdigit(c) || (c == '.' && s + 1 < e && isdigit((unsigned char)t[s + 1]))) {
        emit(w, s, e, T_NUM);
    } else if (idc(c)) {
        emit(w, s, e, T_ID);
    } else {
        /* punctuators as the passes know them: the CUDA grammar's `<<<` and `>>>`
         * are `<<` `<` and `>>` `>` to them */
        for (size_t i = s; i < e && !w->oom;) {
            if (isdigit((unsigned char)t[i])) { /* the grammar's number_literal holds its sign */
                emit(w, i, e, T_NUM);
                break;
            }
            size_t k = scan_punct(t, e, i);
            tok *last = w->ts->n ? &w->ts->v[w->ts->n - 1] : NULL;
            if (k != i && last && last->kind == T_PUNCT && last->e == i &&
                scan_punct(t, k, last->s) != last->e) {
                /* punctuators the grammar cut otherwise than a lexer (`>` `>`
                 * closing two template lists, `:` `:` of an asm statement,
                 * `<<<` of a launch): cut again as a lexer would, so the
                 * passes see `>>`, `::` and `<<` `<` */
                size_t from = last->s;
                w->ts->n--;
                for (size_t j = from; j < k;) {
                    size_t m = scan_punct(t, k, j);
                    emit(w, j, m, T_PUNCT);
                    j = m;
                }
                i = k;
                continue;
            }
            if (k == i) { /* not a punctuator (`#endif` in mid-line): the lexer's cut */
                lex_span(w, i, e);
                break;
            }
            emit(w, i, k, T_PUNCT);
            i = k;
        }
    }
}

int tt_xf_tok_split(toks *ts, size_t n)
{
    TSParser *p = ts_parser_new();
    if (!p || !ts_parser_set_language(p, tt_lang_grammar(TT_LANG_CUDA))) {
        if (p)
            ts_parser_delete(p);
        return -1;
    }
    TSTree *tree = n <= UINT32_MAX ? ts_parser_parse_string(p, NULL, ts->t, (uint32_t)n) : NULL;
    ts_parser_delete(p);
    if (!tree)
        return -1;
    leaf_walk w = {.ts = ts, .n = n, .line_start = 1};
    TSTreeCursor c = ts_tree_cursor_new(ts_tree_root_node(tree));
    for (;;) {
        TSNode node = ts_tree_cursor_current_node(&c);
        size_t s = ts_node_start_byte(node), e = ts_node_end_byte(node);
        int descend = 0;
        if (s == e || ts_node_is_missing(node)) {
            /* a MISSING token: nothing in the text */
        } else if (is_string_node(ts_node_type(node)) || ts_node_child_count(node) == 0 ||
                   (!strcmp(ts_node_type(node), "user_defined_literal") &&
                    isdigit((unsigned char)ts->t[s]))) {
            /* a literal is one token (`0_ic` too, a number with its suffix) */
            emit_leaf(&w, node, s, e);
        } else {
            descend = ts_tree_cursor_goto_first_child(&c);
        }
        if (descend)
            continue;
        int up = 0;
        while (!ts_tree_cursor_goto_next_sibling(&c))
            if (!ts_tree_cursor_goto_parent(&c)) {
                up = 1;
                break;
            }
        if (up)
            break;
    }
    ts_tree_cursor_delete(&c);
    ts_tree_delete(tree);
    emit_gap(&w, n);
    return w.oom ? -1 : 0;
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
