/* prep_stmt.h — internal to tt_xf_prepare_source(): reading C++
 * statements and simple declarations from tokens (prep_stmt.c), for
 * the region form (prep_rg.c).  Token indices refer to a toks and
 * its bracket pairs (tt_xf_tok_pairs); nothing here allocates. */
#ifndef TT_XF_PREP_STMT_H
#define TT_XF_PREP_STMT_H

#include "prep_tok.h"

/* The first token at or after i that is not a comment (ts->n: none). */
static inline size_t tt_xf_stmt_code_at(const toks *ts, size_t i)
{
    while (i < ts->n && ts->v[i].kind == T_COMMENT)
        i++;
    return i;
}

/* Whether token i names a type a region form may keep per thread: const,
 * the arithmetic keywords and fixed-width integers, size_t, half and
 * bfloat16 types, and the vector types ([u]char|short|int|long|longlong|
 * float|double, then 1..4). */
int tt_xf_stmt_type_word(const toks *ts, size_t i);

/* The end (one past) of the statement starting at (the first code token at
 * or after) i, below e; TOK_NONE when it cannot be read. */
size_t tt_xf_stmt_end(const toks *ts, const size_t *pair, size_t i, size_t e);

/* A declarator of a declaration. */
typedef struct tt_xf_decl {
    size_t ds, name; /* first token (its `*`s), name */
    size_t init;     /* first token after `=`, or TOK_NONE */
    size_t end;      /* its `,` or `;` */
    int simple;      /* `*`s and consts, the name, `= expr` or nothing */
} tt_xf_decl;

/* Reads the declarators from j (after the type) to the `;` before e into
 * d[0, max).  Returns their number, or -1 when they cannot be read. */
int tt_xf_stmt_decls(const toks *ts, const size_t *pair, size_t j, size_t e, tt_xf_decl *d,
                      int max);

#endif
