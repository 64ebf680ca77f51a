#define _GNU_SOURCE /* memmem, qsort_r */
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

static int cmp_link(const void *a, const void *b, void *items) {
  const tt_suppress_link *x = a, *y = b;
  const tt_suppression *it = items;
  if (x->line != y->line) return x->line < y->line ? -1 : 1;
  int c = strcmp(it[x->item].id, it[y->item].id);
  return c ? c : (x->item < y->item) - (x->item > y->item);
}

/* Pairs every suppression with each line it covers. Comments do not overlap, so there
 * are at most (lines + ids) pairs: linear in the file, sorted in n log n. */
static void index_lines(tt_suppressions *s, uint32_t n_lines) {
  s->n_lines = n_lines + 2;
  size_t cap = 0;
  for (size_t i = 0; i < s->n; i++) {
    const tt_suppression *e = &s->items[i];
    for (uint32_t l = e->first; l <= e->last && l < s->n_lines; l++)
      TT_PUSH(s->links, s->n_links, cap, ((tt_suppress_link){(int32_t)i, l}));
  }
  if (s->n_links > 1) qsort_r(s->links, s->n_links, sizeof *s->links, cmp_link, s->items);
  s->line_start = tt_xcalloc(s->n_lines + 1, sizeof *s->line_start);
  size_t k = 0;
  for (uint32_t l = 0; l <= s->n_lines; l++) {
    while (k < s->n_links && s->links[k].line < l) k++;
    s->line_start[l] = (uint32_t)k;
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
  if (!s->line_start || line >= s->n_lines) return NULL;
  size_t lo = s->line_start[line], hi = s->line_start[line + 1];
  while (lo < hi) { /* the first pair of the line whose id is >= rule_id */
    size_t mid = lo + (hi - lo) / 2;
    if (strcmp(s->items[s->links[mid].item].id, rule_id) < 0) lo = mid + 1;
    else hi = mid;
  }
  if (lo < s->line_start[line + 1] && strcmp(s->items[s->links[lo].item].id, rule_id) == 0)
    return &s->items[s->links[lo].item];
  return NULL;
}

void tt_suppressions_free(tt_suppressions *s) {
  for (size_t i = 0; i < s->n; i++) free(s->items[i].id);
  free(s->items);
  free(s->bad);
  free(s->line_start);
  free(s->links);
  memset(s, 0, sizeof *s);
}

void tt_suppress_issues_free(tt_suppress_issues *is) {
  for (size_t i = 0; i < is->n; i++) free(is->items[i].message);
  free(is->items);
  memset(is, 0, sizeof *is);
}
