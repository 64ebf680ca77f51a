#include "rules/predicate.h"

#include <stdlib.h>
#include <string.h>

#include "rules/spanset.h"
#include "util/regex.h"
#include "util/util.h"

typedef enum {
  P_EQ,
  P_MATCH,
  P_ANY_OF,
  P_INT_EQ,
  P_INSIDE,
  P_IN_FUNCTION_MATCH,
  P_INSIDE_MATCH,      /* an ancestor of a node type whose text matches a regex */
  P_NOT_GUARDED,
  P_FILE_MATCH,
  P_FACT,
  P_REDEFINED,
  P_LIVE_FOR_TARGET,   /* semantic: the capture is in a branch the target compiles */
  P_REDEFINED_FOR_TARGET, /* semantic: a header makes the name a macro for HIP */
  P_SEMA_TYPE_MATCH,   /* semantic: the expression's type (spelled or canonical) matches */
} pred_kind;

struct tt_pred {
  pred_kind kind;
  bool negate;
  uint32_t capture;       /* the first argument, always a capture */
  int64_t other_capture;  /* P_EQ against a capture; -1 otherwise */
  char **strings;         /* string arguments */
  size_t n_strings;
  uint64_t *ints;         /* P_INT_EQ values */
  pcre2_code *re;         /* P_MATCH, P_IN_FUNCTION_MATCH, P_FILE_NOT_MATCH */
};

static const struct {
  const char *name;
  pred_kind kind;
  bool negate;
} pred_names[] = {
    {"eq?", P_EQ, false},
    {"not-eq?", P_EQ, true},
    {"match?", P_MATCH, false},
    {"not-match?", P_MATCH, true},
    {"any-of?", P_ANY_OF, false},
    {"not-any-of?", P_ANY_OF, true},
    {"tt-int-eq?", P_INT_EQ, false},
    {"tt-not-int-eq?", P_INT_EQ, true},
    {"tt-inside?", P_INSIDE, false},
    {"tt-not-inside?", P_INSIDE, true},
    {"tt-inside-match?", P_INSIDE_MATCH, false},
    {"tt-not-inside-match?", P_INSIDE_MATCH, true},
    {"tt-in-function-match?", P_IN_FUNCTION_MATCH, false},
    {"tt-not-in-function-match?", P_IN_FUNCTION_MATCH, true},
    {"tt-not-guarded?", P_NOT_GUARDED, false},
    {"tt-file-not-match?", P_FILE_MATCH, true},
    {"tt-file-match?", P_FILE_MATCH, false},
    {"tt-fact?", P_FACT, false},
    {"tt-not-fact?", P_FACT, true},
    {"tt-redefined?", P_REDEFINED, false},
    {"tt-not-redefined?", P_REDEFINED, true},
    {"tt-live-for-target?", P_LIVE_FOR_TARGET, false},
    {"tt-not-live-for-target?", P_LIVE_FOR_TARGET, true},
    {"tt-redefined-for-target?", P_REDEFINED_FOR_TARGET, false},
    {"tt-not-redefined-for-target?", P_REDEFINED_FOR_TARGET, true},
    {"tt-sema-type-match?", P_SEMA_TYPE_MATCH, false},
    {"tt-sema-type-not-match?", P_SEMA_TYPE_MATCH, true},
};

bool tt_parse_int_literal(const char *s, size_t n, uint64_t *v) {
  /* Strip integer suffixes (u, l, ll, z in any case and order). */
  while (n > 0 && strchr("uUlLzZ", s[n - 1])) n--;
  if (n == 0) return false;
  unsigned base = 10;
  size_t i = 0;
  if (n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) base = 16, i = 2;
  else if (n > 2 && s[0] == '0' && (s[1] == 'b' || s[1] == 'B')) base = 2, i = 2;
  else if (n > 1 && s[0] == '0') base = 8, i = 1;
  uint64_t acc = 0;
  bool any = false;
  for (; i < n; i++) {
    char c = s[i];
    if (c == '\'') continue;
    unsigned d;
    if (c >= '0' && c <= '9') d = (unsigned)(c - '0');
    else if (c >= 'a' && c <= 'f') d = (unsigned)(c - 'a' + 10);
    else if (c >= 'A' && c <= 'F') d = (unsigned)(c - 'A' + 10);
    else return false;
    if (d >= base) return false;
    if (acc > (UINT64_MAX - d) / base) return false; /* wider than 64 bits: not a match */
    acc = acc * base + d;
    any = true;
  }
  if (!any && base != 8) return false;
  *v = acc;
  return true;
}

static void pred_clear(tt_pred *p) {
  for (size_t i = 0; i < p->n_strings; i++) free(p->strings[i]);
  free(p->strings);
  free(p->ints);
  if (p->re) pcre2_code_free(p->re);
}

void tt_preds_free(tt_pred_list *pl) {
  for (size_t i = 0; i < pl->n; i++) pred_clear(&pl->items[i]);
  free(pl->items);
  pl->items = NULL;
  pl->n = 0;
}

static int compile_one(const TSQuery *q, const char *name, const TSQueryPredicateStep *args,
                       uint32_t n_args, tt_pred *p, char **err) {
  size_t k;
  memset(p, 0, sizeof *p);
  for (k = 0; k < sizeof pred_names / sizeof *pred_names; k++)
    if (strcmp(name, pred_names[k].name) == 0) break;
  if (k == sizeof pred_names / sizeof *pred_names) {
    *err = tt_xasprintf("unknown predicate #%s (see docs/rule-format.md)", name);
    return -1;
  }
  memset(p, 0, sizeof *p);
  p->kind = pred_names[k].kind;
  p->negate = pred_names[k].negate;
  p->other_capture = -1;
  if (n_args < 1 || args[0].type != TSQueryPredicateStepTypeCapture) {
    *err = tt_xasprintf("#%s needs a capture as its first argument", name);
    return -1;
  }
  p->capture = args[0].value_id;
  size_t cap = 0;
  for (uint32_t i = 1; i < n_args; i++) {
    if (args[i].type == TSQueryPredicateStepTypeCapture) {
      if (p->kind == P_EQ && i == 1 && n_args == 2) {
        p->other_capture = args[i].value_id;
        continue;
      }
      *err = tt_xasprintf("#%s takes strings after its capture", name);
      return -1;
    }
    uint32_t len;
    const char *s = ts_query_string_value_for_id(q, args[i].value_id, &len);
    TT_PUSH(p->strings, p->n_strings, cap, tt_xstrndup(s, len));
  }
  bool one_string = p->n_strings == 1;
  switch (p->kind) {
  case P_EQ:
    if (p->other_capture < 0 && !one_string) goto arity;
    break;
  case P_LIVE_FOR_TARGET:
    /* An optional target: "hip" (the default) or "cuda". */
    if (p->n_strings > 1 || (one_string && strcmp(p->strings[0], "hip") && strcmp(p->strings[0], "cuda"))) {
      *err = tt_xasprintf("#%s takes an optional target, \"hip\" or \"cuda\"", name);
      return -1;
    }
    break;
  case P_REDEFINED_FOR_TARGET:
    if (p->n_strings != 0) goto arity;
    break;
  case P_MATCH:
  case P_IN_FUNCTION_MATCH:
  case P_FILE_MATCH:
  case P_SEMA_TYPE_MATCH:
    if (!one_string) goto arity;
    if (!(p->re = tt_regex_compile(p->strings[0], err))) return -1;
    break;
  case P_INSIDE_MATCH:
    /* "node_type" "regex": the type, then the regex its text must match */
    if (p->n_strings != 2) goto arity;
    if (!(p->re = tt_regex_compile(p->strings[1], err))) return -1;
    break;
  case P_FACT:
    if (p->n_strings != 2) goto arity;
    break;
  case P_REDEFINED:
    if (p->n_strings != 0) goto arity;
    break;
  case P_INT_EQ:
    if (p->n_strings == 0) goto arity;
    p->ints = tt_xcalloc(p->n_strings, sizeof *p->ints);
    for (size_t i = 0; i < p->n_strings; i++)
      if (!tt_parse_int_literal(p->strings[i], strlen(p->strings[i]), &p->ints[i])) {
        *err = tt_xasprintf("#%s: \"%s\" is not an integer", name, p->strings[i]);
        return -1;
      }
    break;
  case P_ANY_OF:
  case P_INSIDE:
  case P_NOT_GUARDED:
    if (p->n_strings == 0) goto arity;
    break;
  }
  return 0;
arity:
  *err = tt_xasprintf("#%s: wrong number of arguments", name);
  return -1;
}

int tt_preds_compile(const TSQuery *q, uint32_t pattern, tt_pred_list *out, char **err) {
  uint32_t n_steps;
  const TSQueryPredicateStep *steps = ts_query_predicates_for_pattern(q, pattern, &n_steps);
  size_t cap = 0;
  memset(out, 0, sizeof *out);
  for (uint32_t i = 0; i < n_steps;) {
    uint32_t j = i;
    while (j < n_steps && steps[j].type != TSQueryPredicateStepTypeDone) j++;
    if (steps[i].type != TSQueryPredicateStepTypeString) {
      *err = tt_xstrdup("a predicate must start with its name");
      tt_preds_free(out);
      return -1;
    }
    uint32_t len;
    const char *name = ts_query_string_value_for_id(q, steps[i].value_id, &len);
    tt_pred p = {0};
    if (compile_one(q, name, steps + i + 1, j - i - 1, &p, err) < 0) {
      pred_clear(&p);
      tt_preds_free(out);
      return -1;
    }
    TT_PUSH(out->items, out->n, cap, p);
    i = j + 1;
  }
  return 0;
}

/* --- evaluation ------------------------------------------------------------------- */

static const char *node_text(const tt_tree *t, TSNode n, size_t *len) {
  uint32_t s = ts_node_start_byte(n), e = ts_node_end_byte(n);
  *len = e - s;
  return t->src->text + s;
}

static bool re_matches(const pcre2_code *re, const char *s, size_t n) { return tt_regex_find(re, s, n, NULL, NULL); }

/* --- where a node is: spansets built once per file (see spanset.h) ------------------ */

typedef struct node_list {
  tt_spanset_item *items;
  size_t n, cap;
  bool (*want)(TSNode n, const void *arg);
  const void *arg;
} node_list;

static bool collect_node(TSNode n, void *vl) {
  node_list *l = vl;
  if (l->want(n, l->arg))
    TT_PUSH(l->items, l->n, l->cap, ((tt_spanset_item){ts_node_start_byte(n), ts_node_end_byte(n), n.id, NULL}));
  return true;
}

/* The spanset of every node of the file for which want(node, arg) holds. */
static tt_spanset *spanset_of_nodes(const tt_tree *t, bool (*want)(TSNode, const void *), const void *arg) {
  node_list l = {.want = want, .arg = arg};
  tt_tree_walk(ts_tree_root_node(t->ts), collect_node, &l);
  tt_spanset *s = tt_spanset_new(l.items, l.n);
  free(l.items);
  return s;
}

static void free_spanset(void *s) { tt_spanset_free(s); }

static bool type_in(TSNode n, const void *vp) {
  const tt_pred *p = vp;
  const char *t = ts_node_type(n);
  for (size_t i = 0; i < p->n_strings; i++)
    if (strcmp(t, p->strings[i]) == 0) return true;
  return false;
}

static void *build_types(tt_filectx *c, const void *p) { return spanset_of_nodes(c->tree, type_in, p); }

static bool has_ancestor(tt_filectx *ctx, const tt_pred *p, TSNode n) {
  const tt_spanset *s = tt_filectx_cached(ctx, p, build_types, p, free_spanset);
  return tt_spanset_innermost(s, ts_node_start_byte(n), ts_node_end_byte(n), n.id) != NULL;
}

/* Some ancestor of n of type p->strings[0] has text matching p->re (a Julia call inside
 * `@test_throws ...`: the code is there to fail). Walks the parents: it is asked only of
 * matches, and trees are shallow. */
static bool has_matching_ancestor(tt_filectx *ctx, const tt_pred *p, TSNode n) {
  const char *text = ctx->tree->src->text;
  for (TSNode a = ts_node_parent(n); !ts_node_is_null(a); a = ts_node_parent(a)) {
    if (strcmp(ts_node_type(a), p->strings[0])) continue;
    uint32_t s = ts_node_start_byte(a), e = ts_node_end_byte(a);
    if (re_matches(p->re, text + s, e - s)) return true;
  }
  return false;
}

/* What the predicates ask about, found by one walk per file shared by all of them: the
 * function definitions, and the preprocessor conditionals with their conditions. */
typedef struct landmarks {
  tt_spanset *functions;
  tt_spanset_item *conds; /* per conditional: its span; tag unused */
  tt_span *cond_text;     /* per conditional: the condition's bytes */
  size_t n_conds, cap_conds, cap_text;
  tt_spanset_item *fns;
  size_t n_fns, cap_fns;
} landmarks;

static bool collect_landmark(TSNode n, void *vl) {
  landmarks *l = vl;
  const char *type = ts_node_type(n);
  tt_spanset_item it = {ts_node_start_byte(n), ts_node_end_byte(n), n.id, NULL};
  if (strcmp(type, "function_definition") == 0) {
    TT_PUSH(l->fns, l->n_fns, l->cap_fns, it);
  } else if (strncmp(type, "preproc_if", 10) == 0 || strncmp(type, "preproc_elif", 12) == 0) {
    TSNode cond = ts_node_child_by_field_name(n, "condition", 9);
    if (ts_node_is_null(cond)) cond = ts_node_child_by_field_name(n, "name", 4);
    if (!ts_node_is_null(cond)) {
      size_t k = l->n_conds;
      TT_PUSH(l->conds, l->n_conds, l->cap_conds, it);
      TT_PUSH(l->cond_text, k, l->cap_text, ((tt_span){ts_node_start_byte(cond), ts_node_end_byte(cond)}));
    }
  }
  return true;
}

static void *build_landmarks(tt_filectx *c, const void *unused) {
  landmarks *l = tt_xcalloc(1, sizeof *l);
  tt_tree_walk(ts_tree_root_node(c->tree->ts), collect_landmark, l);
  l->functions = tt_spanset_new(l->fns, l->n_fns);
  free(l->fns);
  l->fns = NULL;
  return l;
}

static void free_landmarks(void *vl) {
  landmarks *l = vl;
  tt_spanset_free(l->functions);
  free(l->conds);
  free(l->cond_text);
  free(l);
}

static const char landmarks_key = 0; /* the filectx slot of the landmarks */

static const landmarks *file_landmarks(tt_filectx *c) {
  return tt_filectx_cached(c, &landmarks_key, build_landmarks, NULL, free_landmarks);
}

/* `#tt-in-function-match?` runs its regex once per function, not once per match (a
 * function with many matches would cost O(size x matches)). */
typedef struct function_memo {
  const tt_spanset *functions; /* borrowed from the filectx */
  int8_t *result;              /* per function: -1 not run yet, 0, 1 */
} function_memo;

static void *build_function_memo(tt_filectx *c, const void *unused) {
  function_memo *m = tt_xcalloc(1, sizeof *m);
  m->functions = file_landmarks(c)->functions;
  size_t n = tt_spanset_count(m->functions);
  m->result = tt_xmalloc(n + 1);
  memset(m->result, -1, n + 1);
  return m;
}

static void free_function_memo(void *vm) {
  function_memo *m = vm;
  free(m->result);
  free(m);
}

static bool in_function_matching(tt_filectx *ctx, const tt_pred *p, TSNode n) {
  function_memo *m = tt_filectx_cached(ctx, p, build_function_memo, NULL, free_function_memo);
  const tt_spanset_item *f = tt_spanset_innermost(m->functions, ts_node_start_byte(n), ts_node_end_byte(n), n.id);
  if (!f) return false;
  int8_t *r = &m->result[tt_spanset_index(m->functions, f)];
  if (*r < 0) *r = re_matches(p->re, ctx->tree->src->text + f->start, f->end - f->start);
  return *r;
}

static bool text_mentions(const char *s, size_t n, const char *word) {
  size_t w = strlen(word);
  for (size_t i = 0; i + w <= n; i++) {
    if (memcmp(s + i, word, w) != 0) continue;
    bool left = i == 0 || !(s[i - 1] == '_' || (s[i - 1] >= '0' && s[i - 1] <= '9') ||
                            ((s[i - 1] | 32) >= 'a' && (s[i - 1] | 32) <= 'z'));
    char r = i + w < n ? s[i + w] : ' ';
    bool right = !(r == '_' || (r >= '0' && r <= '9') || ((r | 32) >= 'a' && (r | 32) <= 'z'));
    if (left && right) return true;
  }
  return false;
}

/* The preprocessor conditionals (#if, #ifdef, #elif...) whose condition names one of the
 * words of a `#tt-not-guarded?`, as a spanset. */
static void *build_guards(tt_filectx *c, const void *vp) {
  const tt_pred *p = vp;
  const landmarks *l = file_landmarks(c);
  tt_spanset_item *items = tt_xcalloc(l->n_conds + 1, sizeof *items);
  size_t n = 0;
  for (size_t i = 0; i < l->n_conds; i++) {
    const char *s = c->tree->src->text + l->cond_text[i].start;
    size_t len = l->cond_text[i].end - l->cond_text[i].start;
    for (size_t k = 0; k < p->n_strings; k++)
      if (text_mentions(s, len, p->strings[k])) {
        items[n++] = l->conds[i];
        break;
      }
  }
  tt_spanset *set = tt_spanset_new(items, n);
  free(items);
  return set;
}

/* True when `n` lies in a preprocessor conditional whose condition names one of the
 * words: the code was already written per platform. */
static bool is_guarded(tt_filectx *ctx, const tt_pred *p, TSNode n) {
  const tt_spanset *s = tt_filectx_cached(ctx, p, build_guards, p, free_spanset);
  return tt_spanset_innermost(s, ts_node_start_byte(n), ts_node_end_byte(n), n.id) != NULL;
}

/* `#tt-file-match?` depends on the file only: its regex runs once per file. */
static void *build_file_match(tt_filectx *c, const void *vp) {
  const tt_pred *p = vp;
  bool *r = tt_xmalloc(sizeof *r);
  *r = re_matches(p->re, c->tree->src->text, c->tree->src->len);
  return r;
}

/* The semantic predicates: 1 or 0, or -1 when the semantic layer cannot tell (the
 * reason is recorded in ctx, and the predicate then holds whatever its polarity, so that
 * a finding is kept rather than lost, marked unconfirmed). */
static int sema_holds(const tt_pred *p, TSNode node, tt_filectx *ctx) {
  tt_sema_file *f = tt_filectx_sema(ctx);
  uint32_t s = ts_node_start_byte(node), e = ts_node_end_byte(node);
  tt_sema_answer a = TT_SEMA_UNKNOWN;
  switch (p->kind) {
  case P_LIVE_FOR_TARGET:
    a = tt_sema_live(f, p->n_strings && !strcmp(p->strings[0], "cuda") ? TT_SEMA_CUDA : TT_SEMA_HIP, s);
    break;
  case P_REDEFINED_FOR_TARGET:
    a = tt_sema_hip_redefined(f, s);
    break;
  case P_SEMA_TYPE_MATCH: {
    const char *spelled, *canonical;
    a = tt_sema_type_at(f, s, e, &spelled, &canonical);
    if (a == TT_SEMA_YES)
      a = re_matches(p->re, spelled, strlen(spelled)) || re_matches(p->re, canonical, strlen(canonical))
              ? TT_SEMA_YES
              : TT_SEMA_NO;
    break;
  }
  default:
    break;
  }
  if (a == TT_SEMA_UNKNOWN) tt_filectx_unconfirmed(ctx, tt_sema_why(f));
  return (int)a;
}

static bool holds_for_node(const tt_pred *p, TSNode node, const TSQueryMatch *m, tt_filectx *ctx) {
  const tt_tree *t = ctx->tree;
  size_t len;
  const char *s = node_text(t, node, &len);
  switch (p->kind) {
  case P_EQ:
    if (p->other_capture >= 0) {
      for (uint16_t i = 0; i < m->capture_count; i++)
        if (m->captures[i].index == (uint32_t)p->other_capture) {
          size_t olen;
          const char *o = node_text(t, m->captures[i].node, &olen);
          return olen == len && memcmp(o, s, len) == 0;
        }
      return false;
    }
    return strlen(p->strings[0]) == len && memcmp(p->strings[0], s, len) == 0;
  case P_MATCH:
    return re_matches(p->re, s, len);
  case P_ANY_OF:
    for (size_t i = 0; i < p->n_strings; i++)
      if (strlen(p->strings[i]) == len && memcmp(p->strings[i], s, len) == 0) return true;
    return false;
  case P_INT_EQ: {
    /* A literal, or a constant expression over the file's constants (`WARP / 2`). A
     * macro's value (preproc_arg) may carry spaces and a trailing comment. */
    uint64_t v;
    int64_t sv;
    while (len && (*s == ' ' || *s == '\t')) s++, len--;
    for (size_t i = 0; i + 1 < len; i++)
      if (s[i] == '/' && (s[i + 1] == '/' || s[i + 1] == '*')) len = i;
    while (len && strchr(" \t\r\n", s[len - 1])) len--;
    if (!tt_parse_int_literal(s, len, &v)) {
      if (!tt_consts_eval(tt_filectx_consts(ctx), s, len, &sv)) return false;
      v = (uint64_t)sv;
    }
    for (size_t i = 0; i < p->n_strings; i++)
      if (p->ints[i] == v) return true;
    return false;
  }
  case P_FACT: {
    const char *label = tt_filectx_fact(ctx, p->strings[0], ts_node_start_byte(node));
    return label && strcmp(label, p->strings[1]) == 0;
  }
  case P_REDEFINED:
    return tt_strmap_get(tt_filectx_redefined(ctx), s, len) != NULL;
  case P_INSIDE:
    return has_ancestor(ctx, p, node);
  case P_IN_FUNCTION_MATCH:
    return in_function_matching(ctx, p, node);
  case P_INSIDE_MATCH:
    return has_matching_ancestor(ctx, p, node);
  case P_NOT_GUARDED:
    return !is_guarded(ctx, p, node);
  case P_FILE_MATCH:
    return *(const bool *)tt_filectx_cached(ctx, p, build_file_match, p, free);
  case P_LIVE_FOR_TARGET:
  case P_REDEFINED_FOR_TARGET:
  case P_SEMA_TYPE_MATCH:
    break; /* tt_preds_hold asks sema_holds */
  }
  return false;
}

static bool is_semantic(pred_kind k) {
  return k == P_LIVE_FOR_TARGET || k == P_REDEFINED_FOR_TARGET || k == P_SEMA_TYPE_MATCH;
}

bool tt_preds_hold(const tt_pred_list *pl, const TSQueryMatch *m, tt_filectx *ctx) {
  for (size_t i = 0; i < pl->n; i++) {
    const tt_pred *p = &pl->items[i];
    bool seen = false, all = true;
    for (uint16_t c = 0; c < m->capture_count && all; c++) {
      if (m->captures[c].index != p->capture) continue;
      seen = true;
      if (is_semantic(p->kind)) {
        int r = sema_holds(p, m->captures[c].node, ctx);
        all = r < 0 || (r == 1) != p->negate;
      } else {
        all = holds_for_node(p, m->captures[c].node, m, ctx) != p->negate;
      }
    }
    /* A predicate on a capture absent from this match (an optional one) holds. */
    if (seen && !all) return false;
  }
  return true;
}
