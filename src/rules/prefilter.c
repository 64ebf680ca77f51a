#define _GNU_SOURCE /* memmem */
#include "rules/prefilter.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

/* A group: the text must contain one of its literals. A pattern: all of its groups. */
typedef struct group {
  char **lits;
  size_t n;
  bool caseless; /* the literals are lower case and searched in the lowered text */
} group;

typedef struct pattern {
  group *groups;
  size_t n, cap;
  uint32_t start, end; /* the pattern's bytes in the query text */
} pattern;

struct tt_prefilter {
  pattern *patterns;
  size_t n, cap;
};

/* PCRE2's default tables fold ASCII letters only; so does this. */
static char ascii_lower(char c) { return c >= 'A' && c <= 'Z' ? (char)(c + 32) : c; }

static void group_free(group *g) {
  for (size_t i = 0; i < g->n; i++) free(g->lits[i]);
  free(g->lits);
}

static void pattern_free(pattern *p) {
  for (size_t i = 0; i < p->n; i++) group_free(&p->groups[i]);
  free(p->groups);
}

void tt_prefilter_free(tt_prefilter *p) {
  if (!p) return;
  for (size_t i = 0; i < p->n; i++) pattern_free(&p->patterns[i]);
  free(p->patterns);
  free(p);
}

size_t tt_prefilter_n_groups(const tt_prefilter *p) {
  size_t n = 0;
  for (size_t i = 0; p && i < p->n; i++) n += p->patterns[i].n;
  return n;
}

/* --- reading a query ------------------------------------------------------------------
 *
 * Enough of the tree-sitter query syntax to know, per top-level pattern, which captures
 * every match has and which predicates it carries. The text already compiles (or will be
 * rejected when compiled): on anything unexpected the reader gives up, and a rule whose
 * query it gave up on requires nothing. */

typedef struct pred {
  char *name;     /* without the `#` */
  char **args;    /* "@capture" or the string's unescaped text */
  bool *is_cap;
  size_t n, cap;
} pred;

typedef struct reader {
  const char *s;
  size_t i, n;
  bool failed;
  /* The pattern being read. */
  char **certain; /* names of captures every match has */
  size_t n_certain, certain_cap;
  pred *preds;
  size_t n_preds, preds_cap;
} reader;

static void skip_space(reader *r) {
  while (r->i < r->n) {
    char c = r->s[r->i];
    if (c == ';') {
      while (r->i < r->n && r->s[r->i] != '\n') r->i++;
    } else if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      r->i++;
    } else {
      break;
    }
  }
}

static bool name_char(char c) {
  return c == '_' || c == '-' || c == '.' || c == '?' || c == '!' || ((c | 32) >= 'a' && (c | 32) <= 'z') ||
         (c >= '0' && c <= '9');
}

static char *read_name(reader *r) {
  size_t j = r->i;
  while (j < r->n && name_char(r->s[j])) j++;
  char *name = tt_xstrndup(r->s + r->i, j - r->i);
  r->i = j;
  return name;
}

/* A string at r->i (the opening quote), unescaped as tree-sitter does (\n \t \r \0 and
 * \<char> for any other char). */
static char *read_string(reader *r) {
  tt_buf b = {0};
  tt_buf_puts(&b, "");
  for (r->i++; r->i < r->n && r->s[r->i] != '"'; r->i++) {
    char c = r->s[r->i];
    if (c == '\\' && r->i + 1 < r->n) {
      c = r->s[++r->i];
      c = c == 'n' ? '\n' : c == 't' ? '\t' : c == 'r' ? '\r' : c == '0' ? '\0' : c;
    }
    tt_buf_putc(&b, c);
  }
  if (r->i >= r->n) r->failed = true;
  else r->i++;
  return tt_buf_steal(&b);
}

static void read_item(reader *r, bool certain);

/* `(#name? args...)`, r->i after the `#`. */
static void read_predicate(reader *r) {
  pred p = {read_name(r), NULL, NULL, 0, 0};
  size_t cap2 = 0, n2 = 0;
  for (;;) {
    skip_space(r);
    if (r->i >= r->n) {
      r->failed = true;
      break;
    }
    char c = r->s[r->i];
    if (c == ')') {
      r->i++;
      break;
    }
    char *arg;
    bool cap;
    if (c == '@') {
      r->i++;
      arg = read_name(r), cap = true;
    } else if (c == '"') {
      arg = read_string(r), cap = false;
    } else if (name_char(c)) {
      arg = read_name(r), cap = false;
    } else {
      r->failed = true;
      break;
    }
    TT_PUSH(p.args, p.n, p.cap, arg);
    TT_PUSH(p.is_cap, n2, cap2, cap);
  }
  TT_PUSH(r->preds, r->n_preds, r->preds_cap, p);
}

/* The quantifiers and captures after an item: captures are certain when the item is
 * and no `?` or `*` makes it optional. */
static void read_suffix(reader *r, bool certain) {
  for (;;) {
    skip_space(r);
    if (r->i >= r->n) return;
    char c = r->s[r->i];
    if (c == '?' || c == '*') {
      certain = false;
      r->i++;
    } else if (c == '+') {
      r->i++;
    } else if (c == '@') {
      r->i++;
      char *name = read_name(r);
      if (certain) TT_PUSH(r->certain, r->n_certain, r->certain_cap, name);
      else free(name);
    } else {
      return;
    }
  }
}

/* The children of a node, group or alternation, up to `close`. The items of an
 * alternation are not certain. A child's own quantifier is known only after it, so
 * its captures are collected into a scratch reader first... which the suffix handles:
 * a child's captures follow the child, inner captures are inside it. An inner capture
 * of an optional child is not certain either: the child's certainty is decided before
 * it is read by looking ahead at its quantifier. */
static bool quantified_optional(const reader *r, size_t after);

static void read_children(reader *r, char close, bool certain) {
  for (;;) {
    skip_space(r);
    if (r->failed || r->i >= r->n) {
      r->failed = true;
      return;
    }
    char c = r->s[r->i];
    if (c == close) {
      r->i++;
      return;
    }
    if (c == '.' ) { /* anchor */
      r->i++;
      continue;
    }
    if (c == '!') { /* negated field */
      r->i++;
      free(read_name(r));
      continue;
    }
    if (name_char(c)) { /* a field name (`name:`), or a node type after `(` */
      size_t j = r->i;
      while (j < r->n && name_char(r->s[j])) j++;
      if (j < r->n && r->s[j] == ':') {
        r->i = j + 1;
        continue;
      }
    }
    read_item(r, certain && close != ']');
  }
}

/* Whether the item starting at `at` is followed by `?` or `*` (before its captures).
 * Scans to the item's end by bracket depth, skipping strings and comments. */
static bool quantified_optional(const reader *r, size_t at) {
  size_t i = at;
  int depth = 0;
  do {
    if (i >= r->n) return true;
    char c = r->s[i];
    if (c == '"') {
      for (i++; i < r->n && r->s[i] != '"'; i++)
        if (r->s[i] == '\\') i++;
    } else if (c == ';') {
      while (i < r->n && r->s[i] != '\n') i++;
    } else if (c == '(' || c == '[') {
      depth++;
    } else if (c == ')' || c == ']') {
      depth--;
    } else if (depth == 0) { /* a bare item: a name or `_` */
      while (i < r->n && name_char(r->s[i])) i++;
      i--;
    }
    i++;
  } while (depth > 0);
  for (;; i++) {
    while (i < r->n && (r->s[i] == ' ' || r->s[i] == '\t' || r->s[i] == '\n' || r->s[i] == '\r')) i++;
    if (i >= r->n) return false;
    if (r->s[i] == '?' || r->s[i] == '*') return true;
    if (r->s[i] != '+') return false;
  }
}

static void read_item(reader *r, bool certain) {
  skip_space(r);
  if (r->i >= r->n) {
    r->failed = true;
    return;
  }
  certain = certain && !quantified_optional(r, r->i);
  char c = r->s[r->i];
  if (c == '(') {
    r->i++;
    skip_space(r);
    if (r->i < r->n && r->s[r->i] == '#') {
      r->i++;
      read_predicate(r);
      return; /* predicates take no suffix */
    }
    if (r->i < r->n && name_char(r->s[r->i])) free(read_name(r)); /* the node type */
    else if (r->i < r->n && r->s[r->i] == '"') free(read_string(r)); /* ("literal") */
    read_children(r, ')', certain);
  } else if (c == '[') {
    r->i++;
    read_children(r, ']', false);
  } else if (c == '"') {
    free(read_string(r));
  } else if (name_char(c)) {
    free(read_name(r)); /* `_` or a bare node type */
  } else {
    r->failed = true;
    return;
  }
  read_suffix(r, certain);
}

/* --- literals a regex requires ------------------------------------------------------ */

/* The literals one of which every match of `re` contains, or none (*n = 0) when the
 * regex is beyond this reader. Reads alternatives at the top level (and of one group
 * around the whole regex, as in `^(a|b)$`); per alternative, the longest run of plain
 * characters that no quantifier makes optional. */
/* The end of the class or group starting at s[i] ('[' or '('), past its closing bracket. */
static size_t skip_bracketed(const char *s, size_t n, size_t i) {
  if (s[i] == '[') {
    size_t j = i + 1;
    if (j < n && s[j] == '^') j++;
    if (j < n && s[j] == ']') j++;
    while (j < n && s[j] != ']') j += s[j] == '\\' ? 2 : 1;
    return j + 1;
  }
  int depth = 0;
  for (size_t j = i; j < n; j++) {
    if (s[j] == '\\') j++;
    else if (s[j] == '[') j = skip_bracketed(s, n, j) - 1;
    else if (s[j] == '(') depth++;
    else if (s[j] == ')' && --depth == 0) return j + 1;
  }
  return n + 1;
}

static bool split_alternatives(const char *s, size_t n, size_t *cuts, size_t *n_cuts, size_t max);
static bool alternatives_group(const char *s, size_t n, group *g);

static size_t min_len(const group *g) {
  size_t m = SIZE_MAX;
  for (size_t i = 0; i < g->n; i++)
    if (strlen(g->lits[i]) < m) m = strlen(g->lits[i]);
  return g->n ? m : 0;
}

/* Keeps `cand` in *best when its shortest literal is longer than best's (a longer
 * literal rules out more texts); frees the loser. */
static void keep_better(group *best, group *cand) {
  if (cand->n && min_len(cand) > min_len(best)) {
    group_free(best);
    *best = *cand;
  } else {
    group_free(cand);
  }
  memset(cand, 0, sizeof *cand);
}

static void keep_run(tt_buf *run, group *best) {
  if (run->len) {
    group g = {tt_xcalloc(1, sizeof(char *)), 1, false};
    g.lits[0] = tt_xstrndup(run->data, run->len);
    keep_better(best, &g);
  }
  run->len = 0;
}

/* The literals one of which every match of the alternative s[0..n) contains: its
 * longest run of plain characters no quantifier makes optional, or the literals of a
 * group it always has, whichever rules out more. False (an empty *g) when it has none
 * or uses an escape this reader does not know. */
static bool alternative_group(const char *s, size_t n, group *g) {
  memset(g, 0, sizeof *g);
  tt_buf run = {0};
  bool ok = true;
  for (size_t i = 0; i < n && ok;) {
    bool plain = false, is_group = false;
    char lit = 0;
    size_t j = i + 1;
    char c = s[i];
    if (c == '\\') {
      char e = i + 1 < n ? s[i + 1] : 0;
      if (e && strchr("\\.^$|?*+()[]{}/-\"'#<>=!,:;@%&~` _", e)) plain = true, lit = e;
      else if (!e || !strchr("sSdDwWbBntrfv", e)) ok = false; /* \x41, \p{..}, \1, \Q */
      j = i + 2;
    } else if (c == '[' || c == '(') {
      j = skip_bracketed(s, n, i);
      is_group = c == '(' && !(i + 1 < n && s[i + 1] == '?');
    } else if (!strchr(".^$|?*+{}", c)) {
      plain = true, lit = c;
    }
    if (j > n) {
      ok = false;
      break;
    }
    size_t atom_end = j;
    char q = j < n ? s[j] : 0;
    bool optional = q == '?' || q == '*' || q == '{';
    if (q == '{') {
      while (j < n && s[j] != '}') j++;
      j++;
    } else if (q == '?' || q == '*' || q == '+') {
      j++;
    }
    if (q && (q == '?' || q == '*' || q == '+' || q == '{') && j < n && (s[j] == '?' || s[j] == '+')) j++;
    if (plain && !optional) {
      tt_buf_putc(&run, lit);
      if (q == '+') keep_run(&run, g); /* more may follow: the run ends */
    } else {
      keep_run(&run, g);
      group inner;
      if (is_group && !optional && alternatives_group(s + i + 1, atom_end - i - 2, &inner)) keep_better(g, &inner);
    }
    i = j;
  }
  keep_run(&run, g);
  tt_buf_free(&run);
  if (!ok) {
    group_free(g);
    memset(g, 0, sizeof *g);
  }
  return g->n > 0;
}

/* The literals of every alternative of s[0..n) (split at its top-level `|`): one of
 * them is in every match. False when an alternative has none. */
static bool alternatives_group(const char *s, size_t n, group *g) {
  enum { MAX_ALTS = 64 };
  size_t cuts[MAX_ALTS], n_cuts, cap = 0;
  memset(g, 0, sizeof *g);
  if (!split_alternatives(s, n, cuts, &n_cuts, MAX_ALTS)) return false;
  for (size_t a = 0; a <= n_cuts; a++) {
    size_t from = a ? cuts[a - 1] + 1 : 0, to = a < n_cuts ? cuts[a] : n;
    group alt;
    if (!alternative_group(s + from, to - from, &alt)) {
      group_free(g);
      memset(g, 0, sizeof *g);
      return false;
    }
    for (size_t k = 0; k < alt.n; k++) TT_PUSH(g->lits, g->n, cap, alt.lits[k]);
    free(alt.lits);
  }
  return g->n > 0;
}

/* Splits s[0..n) at top-level `|`; returns false when a bracket is unbalanced. */
static bool split_alternatives(const char *s, size_t n, size_t *cuts, size_t *n_cuts, size_t max) {
  int depth = 0;
  bool in_class = false;
  *n_cuts = 0;
  for (size_t i = 0; i < n; i++) {
    char c = s[i];
    if (c == '\\') {
      i++;
    } else if (in_class) {
      if (c == ']') in_class = false;
    } else if (c == '[') {
      in_class = true;
      if (i + 1 < n && s[i + 1] == ']') i++;
    } else if (c == '(') {
      depth++;
    } else if (c == ')') {
      if (--depth < 0) return false;
    } else if (c == '|' && depth == 0) {
      if (*n_cuts == max) return false;
      cuts[(*n_cuts)++] = i;
    }
  }
  return depth == 0 && !in_class;
}

static bool regex_group(const char *re, group *g) {
  memset(g, 0, sizeof *g);
  bool caseless = strncmp(re, "(?i)", 4) == 0;
  if (caseless) re += 4;
  if (strstr(re, "(?")) return false; /* other inline options, or options of a group */
  size_t n = strlen(re);
  const char *s = re;
  if (n && s[0] == '^') s++, n--;
  if (n && s[n - 1] == '$' && (n < 2 || s[n - 2] != '\\')) n--;
  if (!alternatives_group(s, n, g)) return false;
  g->caseless = caseless;
  for (size_t i = 0; caseless && i < g->n; i++)
    for (char *c = g->lits[i]; *c; c++) *c = ascii_lower(*c);
  return true;
}

/* --- from a pattern's predicates to its groups --------------------------------------- */

static bool is_certain(const reader *r, const char *capture) {
  for (size_t i = 0; i < r->n_certain; i++)
    if (strcmp(r->certain[i], capture) == 0) return true;
  return false;
}

/* The group a predicate requires, if it requires one. */
static bool pred_group(const reader *r, const pred *p, group *g) {
  memset(g, 0, sizeof *g);
  if (p->n < 2 || !p->is_cap[0] || !is_certain(r, p->args[0])) return false;
  for (size_t i = 1; i < p->n; i++)
    if (p->is_cap[i]) return false;
  size_t cap = 0;
  if (!strcmp(p->name, "eq?") && p->n == 2) {
    TT_PUSH(g->lits, g->n, cap, tt_xstrdup(p->args[1]));
  } else if (!strcmp(p->name, "any-of?")) {
    for (size_t i = 1; i < p->n; i++) TT_PUSH(g->lits, g->n, cap, tt_xstrdup(p->args[i]));
  } else if ((!strcmp(p->name, "match?") || !strcmp(p->name, "tt-file-match?")) && p->n == 2) {
    /* `#tt-file-match?` runs its regex over the whole file: what it requires, the file has. */
    return regex_group(p->args[1], g);
  } else {
    return false;
  }
  for (size_t i = 0; i < g->n; i++) /* an empty literal is in every text */
    if (!g->lits[i][0]) {
      group_free(g);
      memset(g, 0, sizeof *g);
      return false;
    }
  return g->n > 0;
}

static void reader_reset(reader *r) {
  for (size_t i = 0; i < r->n_certain; i++) free(r->certain[i]);
  r->n_certain = 0;
  for (size_t i = 0; i < r->n_preds; i++) {
    pred *p = &r->preds[i];
    for (size_t k = 0; k < p->n; k++) free(p->args[k]);
    free(p->args);
    free(p->is_cap);
    free(p->name);
  }
  r->n_preds = 0;
}

tt_prefilter *tt_prefilter_new(const char *query_text) {
  reader r = {.s = query_text, .n = strlen(query_text)};
  tt_prefilter *pf = tt_xcalloc(1, sizeof *pf);
  for (;;) {
    skip_space(&r);
    if (r.i >= r.n || r.failed) break;
    pattern pat = {.start = (uint32_t)r.i};
    read_item(&r, true);
    if (r.failed) break;
    pat.end = (uint32_t)r.i;
    for (size_t i = 0; i < r.n_preds; i++) {
      group g;
      if (pred_group(&r, &r.preds[i], &g)) TT_PUSH(pat.groups, pat.n, pat.cap, g);
    }
    reader_reset(&r);
    TT_PUSH(pf->patterns, pf->n, pf->cap, pat);
  }
  bool failed = r.failed;
  reader_reset(&r);
  free(r.certain);
  free(r.preds);
  if (failed || pf->n == 0) {
    tt_prefilter_free(pf);
    return NULL;
  }
  return pf;
}

size_t tt_prefilter_n_patterns(const tt_prefilter *p) { return p ? p->n : 0; }

void tt_prefilter_pattern_span(const tt_prefilter *p, size_t i, uint32_t *start, uint32_t *end) {
  *start = p->patterns[i].start;
  *end = p->patterns[i].end;
}

/* --- asking a text -------------------------------------------------------------------- */

struct lit_answer {
  const char *lit; /* borrowed from a prefilter; NULL: empty slot */
  uint64_t hash;
  bool caseless;
  bool found;
};

static uint64_t hash_str(const char *s) {
  uint64_t h = 1469598103934665603ull;
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
  return h;
}

void tt_prefilter_text_init(tt_prefilter_text *t, const char *text, size_t len) {
  memset(t, 0, sizeof *t);
  t->text = text;
  t->len = len;
}

void tt_prefilter_text_free(tt_prefilter_text *t) {
  free(t->answers);
  free(t->lowered);
}

static void answers_grow(tt_prefilter_text *t) {
  size_t cap = t->cap ? 2 * t->cap : 64;
  struct lit_answer *a = tt_xcalloc(cap, sizeof *a);
  for (size_t i = 0; i < t->cap; i++) {
    if (!t->answers[i].lit) continue;
    size_t h = t->answers[i].hash & (cap - 1);
    while (a[h].lit) h = (h + 1) & (cap - 1);
    a[h] = t->answers[i];
  }
  free(t->answers);
  t->answers = a;
  t->cap = cap;
}

/* Whether the text (lowered when `caseless`) contains `lit`, searched once per
 * distinct literal. */
static bool contains(tt_prefilter_text *t, const char *lit, bool caseless) {
  if (2 * (t->n_answers + 1) > t->cap) answers_grow(t);
  uint64_t hash = hash_str(lit) ^ (caseless ? 0x9e3779b97f4a7c15ull : 0);
  size_t h = hash & (t->cap - 1);
  for (; t->answers[h].lit; h = (h + 1) & (t->cap - 1))
    if (t->answers[h].hash == hash && t->answers[h].caseless == caseless && strcmp(t->answers[h].lit, lit) == 0)
      return t->answers[h].found;
  if (caseless && !t->lowered) {
    t->lowered = tt_xmalloc(t->len + 1);
    for (size_t i = 0; i < t->len; i++) t->lowered[i] = ascii_lower(t->text[i]);
  }
  bool found = memmem(caseless ? t->lowered : t->text, t->len, lit, strlen(lit)) != NULL;
  t->answers[h] = (struct lit_answer){lit, hash, caseless, found};
  t->n_answers++;
  return found;
}

bool tt_prefilter_pattern_may_match(const tt_prefilter *p, size_t i, tt_prefilter_text *t) {
  const pattern *pat = &p->patterns[i];
  for (size_t g = 0; g < pat->n; g++) {
    bool one = false;
    for (size_t k = 0; k < pat->groups[g].n && !one; k++) one = contains(t, pat->groups[g].lits[k], pat->groups[g].caseless);
    if (!one) return false;
  }
  return true;
}

bool tt_prefilter_may_match(const tt_prefilter *p, tt_prefilter_text *t) {
  if (!p) return true;
  for (size_t i = 0; i < p->n; i++)
    if (tt_prefilter_pattern_may_match(p, i, t)) return true;
  return false;
}
