/* source.h — a source file as bytes with a line index.
 *
 * Text is kept exactly as read (BOM, CRLF, tabs and invalid UTF-8 included) so that byte
 * offsets in findings and edits are offsets into the user's file. Lines are split on
 * '\n'; a '\r' before it belongs to the line's bytes but not to its displayed text.
 * Lines and columns are 1-based; columns count bytes. */
#ifndef TT_SOURCE_H
#define TT_SOURCE_H

#include <stddef.h>
#include <stdint.h>

#include "parser/lang.h"

typedef struct tt_pos {
  uint32_t line;   /* 1-based */
  uint32_t column; /* 1-based, in bytes */
} tt_pos;

typedef struct tt_source {
  char *path;            /* as given by the user; "<stdin>" for "-" */
  char *text;            /* NUL-terminated; len bytes, may contain NULs */
  uint32_t len;
  tt_lang lang;
  uint32_t *line_starts; /* byte offset of each line's first byte */
  uint32_t n_lines;
  uint32_t bom;          /* 3 when the text starts with a UTF-8 byte-order mark, else 0 */
} tt_source;

/* Largest file tiletrans reads: tree-sitter addresses bytes with 32 bits. */
#define TT_SOURCE_MAX_BYTES 0xFFFFFFF0u

/* Makes a source from `text` (len bytes), taking ownership of `text`, which must be
 * malloc'd with at least one byte past len for the NUL. Returns NULL when len exceeds
 * TT_SOURCE_MAX_BYTES. Free with tt_source_free. */
tt_source *tt_source_new(const char *path, char *text, size_t len, tt_lang lang);
void tt_source_free(tt_source *src);

tt_pos tt_source_pos(const tt_source *src, uint32_t byte);
/* The displayed text of line `line` (no '\r\n'); *n receives its length. */
const char *tt_source_line(const tt_source *src, uint32_t line, uint32_t *n);
/* The byte offset where line `line` starts (len when past the end). */
uint32_t tt_source_line_start(const tt_source *src, uint32_t line);

/* True for generated data files: at least TT_SOURCE_DATA_MIN_BYTES, of which nine tenths
 * are lines holding only numeric literals and commas (the byte arrays of `*.cubin.cpp`,
 * embedded fatbins, lookup tables). They carry no code to port, and parsing and matching
 * megabytes of literals would cost seconds per file. One pass over the lines. */
#define TT_SOURCE_DATA_MIN_BYTES (256u * 1024u)
bool tt_source_is_data(const tt_source *src);

#endif
