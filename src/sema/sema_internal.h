/* sema_internal.h — shared by the two builds of the semantic layer (sema_clang.c with
 * libclang, sema_off.c without). Not part of the module's surface. */
#ifndef TT_SEMA_INTERNAL_H
#define TT_SEMA_INTERNAL_H

#include "sema/tt_sema.h"

/* The macros that the compiler of `side` predefines for a device pass
 * (NULL-terminated, static, "NAME=VALUE"). */
const char *const *tt_sema_side_defines(tt_sema_side side);

/* A NULL-terminated copy of n strings; free with tt_sema_free_strings. */
char **tt_sema_copy_strings(const char *const *v, size_t n);
void tt_sema_free_strings(char **v);

#endif
