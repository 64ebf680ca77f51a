/* translate.h — tiletrans's HIP translations for `check`, cached by content.
 *
 * Owned by the checker. Compiling the rulebook's queries is most of a warm check's
 * CPU (tree-sitter analyses every pattern against the grammar, ~0.5 s), yet a warm
 * check translates the same text with the same rules as last time. So a translation
 * is a pure function of (rule files, the rewrite engine, file name, language, text),
 * saved in the build cache under the SHA-256 of all of them; the queries of a language
 * are compiled on the first miss only. The engine is named by the identity (device,
 * inode, size, mtime) of the executable and of each shared object it has mapped
 * (libclang, tree-sitter): rebuilding tiletrans or upgrading a library changes it,
 * and hashing their 100+ MB of code on every run would cost what the cache saves.
 *
 * One translator is made by the caller (the CLI) per run and shared by the check
 * threads: it borrows the book (loaded uncompiled, tt_rulebook_load_uncompiled), which
 * must outlive it, and it is the only writer of the book (compiling, under its lock). */
#ifndef TT_CHECK_TRANSLATE_H
#define TT_CHECK_TRANSLATE_H

#include <stddef.h>

#include "parser/lang.h"

struct tt_rulebook;

typedef struct tt_check_translator tt_check_translator;

/* `cache_dir`: where translations are kept (copied); NULL: none are kept, every call
 * translates. `env_hash`: the toolchain's sim_hash (the sim's headers, which the
 * semantic layer parses against; may be NULL). Reads every rule file of `book` for
 * the key; each call also hashes the source folder's headers and the compile database
 * found from it, which the semantic layer may read. Returns NULL when out of
 * memory. Free with tt_check_translator_free (the book stays the caller's). */
tt_check_translator *tt_check_translator_new(struct tt_rulebook *book, const char *cache_dir, const char *env_hash);
void tt_check_translator_free(tt_check_translator *tr);

/* The book, for what needs no compiled query (target defines). */
const struct tt_rulebook *tt_check_translator_book(const tt_check_translator *tr);

/* `text` (len bytes) as file `path` of language `lang`, rewritten for target "hip" as
 * tt_rewrite_text does. Returns 0 with *out (malloc'd, NUL-terminated; caller frees)
 * and *out_len, or -1 with *err (malloc'd). Thread-safe. */
int tt_check_translate(tt_check_translator *tr, const char *path, tt_lang lang, const char *text, size_t len,
                       char **out, size_t *out_len, char **err);

#endif
