/* items.h — the top-level items of a program and its local headers, with the names
 * each one defines and uses (internal to src/xform).
 *
 * An item is a span of one file that extraction keeps or blanks as a whole: a
 * function, a declaration, a type, a template, a macro, an include. Containers
 * (namespaces, extern "C" blocks, #if/#ifdef chains) are not items: their own tokens
 * always stay and their children are items. Names are interned to small integers. */
#ifndef TT_XF_ITEMS_H
#define TT_XF_ITEMS_H

#include <stddef.h>
#include <stdint.h>
#include <tree_sitter/api.h>

#include "parser/source.h"
#include "parser/tree.h"
#include "xform/xform.h"

typedef enum xf_item_kind {
  XF_CODE,       /* kept when in the closure */
  XF_MACRO,      /* always kept; its uses count only once something uses the macro */
  XF_ALWAYS,     /* always kept (using-directives, #pragma, #undef, #error, #line, a namespace's braces) */
  XF_DROP,       /* always blanked (#pragma once of a header, a top-level parse error) */
  XF_INC_LOCAL,  /* #include of a local header: inlined */
  XF_INC_KEEP,   /* #include <...> the build provides: kept */
  XF_INC_DROP    /* #include of something the build does not provide: blanked, noted */
} xf_item_kind;

/* In an item's uses, XF_QUALIFIED then a scope id and a name id stand for `scope::name`:
 * the name counts only when the program defines the scope (a namespace or class of
 * its own), so `cg::reduce` does not pull in a host function `reduce`. */
#define XF_QUALIFIED (-1)

typedef struct xf_item {
  xf_item_kind kind;
  int file;              /* index into xf_prog.files */
  uint32_t start, end;   /* byte span in that file */
  TSNode node;
  int target;            /* XF_INC_LOCAL: the header's file index */
  size_t defs, ndefs;    /* slice of xf_prog.names_pool */
  size_t uses, nuses;
  int kept;
} xf_item;

typedef struct xf_file {
  char *abs;             /* realpath, or the path as given */
  tt_source *src;
  tt_tree *tree;
  size_t *items;         /* indices into xf_prog.items, in document order */
  size_t nitems, cap;
  int emitted;
  int inlined;           /* a local header was inlined into it (extract.c) */
} xf_file;

typedef struct xf_intern {
  char **names;          /* id -> name */
  size_t n, cap;
  int *slots;            /* open addressing: id + 1, 0 empty */
  size_t nslots;
} xf_intern;

typedef struct xf_prog {
  const tt_xf_options *o;
  xf_file *files;
  size_t nfiles, fcap;
  xf_item *items;
  size_t nitems, icap;
  int *pool;             /* name ids: each item's defs, then its uses */
  size_t npool, pcap;
  xf_intern names;
  char **notes;
  size_t nnotes, ncap;
  char *err;             /* first hard error (malloc'd) */
  size_t nparse_errors;  /* top-level regions that failed to parse */
  int *namespaces;       /* name ids of the namespaces the program defines */
  size_t nns, nscap;
} xf_prog;

/* Reads, parses and collects the items of `path` (text given for the main file, or
 * NULL to read it) and, recursively, of the local headers it includes. Returns the
 * file index, or -1 with p->err set. */
int tt_xf_items_load(xf_prog *p, const char *path, const char *text, size_t len);

void tt_xf_items_free(xf_prog *p);

/* Whether the line [ls, le) of text (len bytes; le at its '\n' or len) is the
 * `extern "C" {` or `}` of a C header's linkage wrapper (between `#ifdef __cplusplus`
 * and `#endif`). Such lines are not parsed (a brace that opens in one conditional and
 * closes in another defeats tree-sitter) and are always emitted. */
int tt_xf_is_linkage_line(const char *text, size_t len, size_t ls, size_t le);

/* Whether the line [s, e) is a conditional directive (#if, #ifdef, #ifndef, #elif,
 * #else, #endif). Blanking keeps these, so the conditionals stay balanced when an
 * unparsed region or a dropped item holds only one end of one. */
int tt_xf_is_conditional_line(const char *s, const char *e);

int tt_xf_intern(xf_intern *in, const char *s, size_t n);
/* The id of a name, or -1 when no item mentions it. */
int tt_xf_intern_find(const xf_intern *in, const char *s, size_t n);

/* The node's text in its file (not NUL-terminated; *n its length). */
const char *tt_xf_node_text(const xf_prog *p, int file, TSNode node, size_t *n);

/* The name a declarator declares (identifier, field_identifier, type_identifier,
 * or the last part of a qualified name); a null node when none. */
TSNode tt_xf_declarator_name(TSNode d);

void tt_xf_note(xf_prog *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
