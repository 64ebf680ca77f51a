/* prep_stmt.c — reading statements and simple declarations from
 * tokens (see prep_stmt.h).  Deliberately small: what it cannot
 * read it says so (TOK_NONE, -1), and the region form is then not written. */
#include "prep_stmt.h"

#define NO TOK_NONE
#define code_at tt_xf_stmt_code_at

static const char *const type_words[] = {
    "const",   "unsigned", "signed",   "short",    "long",          "int",       "char",
    "float",   "double",   "bool",     "size_t",   "ptrdiff_t",     "int8_t",    "int16_t",
    "int32_t", "int64_t",  "uint8_t",  "uint16_t", "uint32_t",      "uint64_t",  "__half",
    "half",    "__half2",  "half2",    "__nv_bfloat16", "__hip_bfloat16", "uint", NULL};

int tt_xf_stmt_type_word(const toks *ts, size_t i)
{
    if (ts->v[i].kind != T_ID)
        return 0;
    if (in_list(ts, i, type_words))
        return 1;
    /* vector types: [u]char|short|int|long|longlong|float|double, then 1..4 */
    static const char *const vec[] = {"char",  "uchar", "short",    "ushort",    "int",   "uint",
                                      "long",  "ulong", "longlong", "ulonglong", "float", "double",
                                      NULL};
    size_t l = tlen(ts, i);
    const char *s = tok_str(ts, i);
    if (l < 2 || s[l - 1] < '1' || s[l - 1] > '4')
        return 0;
    for (const char *const *v = vec; *v; v++)
        if (strlen(*v) == l - 1 && memcmp(*v, s, l - 1) == 0)
            return 1;
    return 0;
}

size_t tt_xf_stmt_end(const toks *ts, const size_t *pair, size_t i, size_t e)
{
    i = code_at(ts, i);
    if (i >= e)
        return NO;
    if (is(ts, i, "{"))
        return pair[i] != NO && pair[i] < e ? pair[i] + 1 : NO;
    if (is(ts, i, "if") || is(ts, i, "for") || is(ts, i, "while") || is(ts, i, "switch")) {
        size_t p = code_at(ts, i + 1);
        if (!is(ts, p, "(") || pair[p] == NO || pair[p] >= e)
            return NO;
        size_t end = tt_xf_stmt_end(ts, pair, pair[p] + 1, e);
        if (end != NO && is(ts, i, "if")) {
            size_t el = code_at(ts, end);
            if (el < e && is(ts, el, "else"))
                return tt_xf_stmt_end(ts, pair, el + 1, e);
        }
        return end;
    }
    if (is(ts, i, "do")) {
        size_t end = tt_xf_stmt_end(ts, pair, i + 1, e);
        size_t w = end == NO ? NO : code_at(ts, end);
        if (w == NO || !is(ts, w, "while"))
            return NO;
        size_t p = code_at(ts, w + 1);
        if (!is(ts, p, "(") || pair[p] == NO)
            return NO;
        size_t semi = code_at(ts, pair[p] + 1);
        return semi < e && is(ts, semi, ";") ? semi + 1 : NO;
    }
    for (size_t j = i; j < e; j++) {
        if (pair[j] != NO && pair[j] > j) {
            j = pair[j];
            continue;
        }
        if (is(ts, j, ";"))
            return j + 1;
        if (pair[j] != NO) /* a closing bracket of an outer pair */
            return NO;
    }
    return NO;
}

/* Whether a declarator starts at i: `*`/`&`/const..., a name, then = , ; [ ( {. */
static int declarator_at(const toks *ts, size_t i, size_t e)
{
    while (i < e && (is(ts, i, "*") || is(ts, i, "&") || is(ts, i, "const") ||
                     is(ts, i, "__restrict__") || ts->v[i].kind == T_COMMENT))
        i++;
    if (i >= e || ts->v[i].kind != T_ID)
        return 0;
    i = code_at(ts, i + 1);
    return is(ts, i, "=") || is(ts, i, ",") || is(ts, i, ";") || is(ts, i, "[") || is(ts, i, "(") ||
           is(ts, i, "{");
}

int tt_xf_stmt_decls(const toks *ts, const size_t *pair, size_t j, size_t e, tt_xf_decl *d,
                      int max)
{
    int n = 0;
    for (;;) {
        if (n == max)
            return -1;
        tt_xf_decl *x = &d[n++];
        x->ds = j = code_at(ts, j);
        x->simple = 1;
        x->init = NO;
        while (j < e && (is(ts, j, "*") || is(ts, j, "const") || is(ts, j, "__restrict__") ||
                         is(ts, j, "&") || ts->v[j].kind == T_COMMENT)) {
            if (is(ts, j, "&"))
                x->simple = 0;
            j++;
        }
        if (j >= e || ts->v[j].kind != T_ID || tt_xf_stmt_type_word(ts, j))
            return -1;
        x->name = j++;
        for (j = code_at(ts, j); j < e && (is(ts, j, "[") || is(ts, j, "(") || is(ts, j, "{"));
             j = code_at(ts, j)) {
            if (pair[j] == NO || pair[j] >= e)
                return -1;
            x->simple = 0;
            j = pair[j] + 1;
        }
        if (j < e && is(ts, j, "=")) {
            x->init = j = code_at(ts, j + 1);
            if (j >= e)
                return -1;
            if (is(ts, j, "{"))
                x->simple = 0;
            for (; j < e; j++) {
                if (pair[j] != NO && pair[j] > j) {
                    j = pair[j];
                    continue;
                }
                if (is(ts, j, ";") || (is(ts, j, ",") && declarator_at(ts, j + 1, e)))
                    break;
            }
        }
        if (j >= e)
            return -1;
        x->end = j;
        if (is(ts, j, ";"))
            return n;
        if (!is(ts, j, ","))
            return -1;
        j++;
    }
}
