#define _GNU_SOURCE /* memmem */
#include "rules/suppress.h"

#include <stdlib.h>
#include <string.h>

#include "util/util.h"

static const char keyword[] = "tiletrans-ignore";
#define KEYWORD_LEN (sizeof keyword - 1)

static bool is_id_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
}

static bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

/* The comment node that contains byte `at`, or a null node. */
static TSNode comment_at(const tt_tree *tree, uint32_t at) {
  TSNode n = ts_node_descendant_for_byte_range(ts_tree_root_node(tree->ts), at, at + 1);
  if (!ts_node_is_null(n) && strstr(ts_node_type(n), "comment")) return n;
  return (TSNode){0};
}

/* True when only blanks stand between the line's start and `start`, and between `end`
 * and the end of its line: the comment is alone on its line(s). */
static bool alone(const tt_source *src, uint32_t start, uint32_t end) {
  for (uint32_t i = start; i > 0 && src->text[i - 1] != '\n'; i--)
    if (!is_blank(src->text[i - 1])) return false;
  for (uint32_t i = end; i < src->len && src->text[i] != '\n'; i++)
    if (!is_blank(src->text[i])) return false;
  return true;
}

static void add_bad(tt_suppressions *s, tt_pos p) {
  TT_PUSH(s->bad, s->n_bad, s->bad_cap, ((tt_suppress_bad){p.line, p.column}));
}

/* Reads one directive whose keyword starts at byte `at` inside comment `c`. */
static void read_directive(const tt_tree *tree, TSNode c, uint32_t at, tt_suppressions *s) {
  const tt_source *src = tree->src;
  uint32_t cstart = ts_node_start_byte(c), cend = ts_node_end_byte(c);
  uint32_t j = at + (uint32_t)KEYWORD_LEN;
  static const char next_line[] = "-next-line";
  bool next_only = cend - j >= sizeof next_line - 1 && memcmp(src->text + j, next_line, sizeof next_line - 1) == 0;
  if (next_only) j += sizeof next_line - 1;
  if (j >= cend || src->text[j] != ':') {
    add_bad(s, tt_source_pos(src, at));
    return;
  }
  uint32_t first_line = tt_source_pos(src, cstart).line, last_line = tt_source_pos(src, cend ? cend - 1 : 0).line;
  uint32_t first = next_only ? last_line + 1 : first_line;
  uint32_t last = next_only || alone(src, cstart, cend) ? last_line + 1 : last_line;
  size_t before = s->n;
  /* A comma-separated list of ids; the list ends at an id not followed by a comma. */
  for (j++;;) {
    while (j < cend && is_blank(src->text[j])) j++;
    uint32_t k = j;
    while (k < cend && is_id_char(src->text[k])) k++;
    if (k == j) break;
    tt_pos p = tt_source_pos(src, j);
    TT_PUSH(s->items, s->n, s->cap,
            ((tt_suppression){tt_xstrndup(src->text + j, k - j), p.line, p.column, first, last, false}));
    while (k < cend && is_blank(src->text[k])) k++;
    if (k >= cend || src->text[k] != ',') break;
    /* After a comma the list may go on on the next line of a block comment. */
    for (j = k + 1; j < cend && (is_blank(src->text[j]) || src->text[j] == '\n' || src->text[j] == '*'); j++) {
    }
  }
  if (s->n == before) add_bad(s, tt_source_pos(src, at));
}

/* Links every suppression into the list of each line it covers. Comments do not
 * overlap, so there are at most (lines + ids) links: linear in the file. */
static void index_lines(tt_suppressions *s, uint32_t n_lines) {
  s->n_lines = n_lines + 2;
  s->by_line = tt_xmalloc(s->n_lines * sizeof *s->by_line);
  for (uint32_t i = 0; i < s->n_lines; i++) s->by_line[i] = -1;
  size_t cap = 0;
  for (size_t i = 0; i < s->n; i++) {
    const tt_suppression *e = &s->items[i];
    for (uint32_t l = e->first; l <= e->last && l < s->n_lines; l++) {
      TT_PUSH(s->links, s->n_links, cap, ((tt_suppress_link){(int32_t)i, s->by_line[l]}));
      s->by_line[l] = (int32_t)(s->n_links - 1);
    }
  }
}

void tt_suppressions_scan(const tt_tree *tree, tt_suppressions *out) {
  memset(out, 0, sizeof *out);
  const tt_source *src = tree->src;
  const char *text = src->text;
  for (uint32_t at = 0; at + KEYWORD_LEN <= src->len;) {
    const char *hit = memmem(text + at, src->len - at, keyword, KEYWORD_LEN);
    if (!hit) break;
    uint32_t off = (uint32_t)(hit - text);
    TSNode c = comment_at(tree, off);
    if (!ts_node_is_null(c)) read_directive(tree, c, off, out);
    at = off + (uint32_t)KEYWORD_LEN;
  }
  index_lines(out, src->n_lines);
}

tt_suppression *tt_suppressions_find(const tt_suppressions *s, uint32_t line, const char *rule_id) {
  if (!s->by_line || line >= s->n_lines) return NULL;
  for (int32_t k = s->by_line[line]; k >= 0; k = s->links[k].next) {
    tt_suppression *e = &s->items[s->links[k].item];
    if (strcmp(e->id, rule_id) == 0) return e;
  }
  return NULL;
}

void tt_suppressions_free(tt_suppressions *s) {
  for (size_t i = 0; i < s->n; i++) free(s->items[i].id);
  free(s->items);
  free(s->bad);
  free(s->by_line);
  free(s->links);
  memset(s, 0, sizeof *s);
}

void tt_suppress_issues_free(tt_suppress_issues *is) {
  for (size_t i = 0; i < is->n; i++) free(is->items[i].message);
  free(is->items);
  memset(is, 0, sizeof *is);
}
