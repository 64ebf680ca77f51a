#include "util/yaml.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "util/fs.h"
#include "util/util.h"

/* Collects the first error message libfyaml reports instead of printing it. */
typedef struct {
  char *first;
} diag_sink;

static void diag_output(struct fy_diag *diag, void *user, const char *buf, size_t len) {
  diag_sink *s = user;
  if (!s->first) s->first = tt_xstrndup(buf, len);
}

/* Line and column (1-based, bytes) of byte `off` of `text`. */
static void text_pos(const char *text, size_t off, int *line, int *col) {
  *line = 1;
  *col = 1;
  for (size_t i = 0; i < off; i++) {
    if (text[i] == '\n') ++*line, *col = 1;
    else ++*col;
  }
}

/* What a YAML file must be before the parser sees it: text. libfyaml stops at a NUL
 * (so the rest of the file would be ignored) and takes some binary bytes as content. */
static char *check_text(const char *path, const char *text, size_t len) {
  for (size_t i = 0; i < len;) {
    unsigned char c = (unsigned char)text[i];
    if ((c >= 0x20 && c < 0x7f) || c == '\n') { /* the common case, first */
      i++;
      continue;
    }
    size_t k = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 && c >= 0xC2 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 && c <= 0xF4 ? 4 : 0;
    for (size_t j = 1; k && j < k; j++)
      if (i + j >= len || ((unsigned char)text[i + j] & 0xC0) != 0x80) k = 0;
    bool control = k == 1 && (c < 0x20 || c == 0x7f) && c != '\t' && c != '\n' && c != '\r';
    if (!k || control) {
      int line, col;
      text_pos(text, i, &line, &col);
      return c == 0 ? tt_xasprintf("%s:%d:%d: a NUL byte: not a YAML text file", path, line, col)
                    : tt_xasprintf("%s:%d:%d: byte 0x%02x is not UTF-8 text: not a YAML text file (binary?)", path,
                                   line, col, c);
    }
    i += k;
  }
  return NULL;
}

/* Duplicate keys, found with a hash set per mapping. libfyaml's own check compares each
 * new key with every earlier one (O(n^2) per mapping: 1,600-entry rename tables took
 * most of the start-up), so it is switched off (FYPCF_ALLOW_DUPLICATE_KEYS) and done
 * here in O(n). Scalar keys compare by text; the rare complex keys pairwise. */
static uint64_t hash_bytes(const char *s, size_t n) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
  return h;
}

static struct fy_node *duplicate_in_mapping(struct fy_node *map) {
  size_t n = (size_t)fy_node_mapping_item_count(map), size = 16;
  while (size < 2 * n) size *= 2;
  struct fy_node **slot = tt_xcalloc(size, sizeof *slot);
  struct fy_node **complex = NULL;
  size_t n_complex = 0, cap = 0;
  struct fy_node *dup = NULL;
  void *it = NULL;
  struct fy_node_pair *p;
  while (!dup && (p = fy_node_mapping_iterate(map, &it))) {
    struct fy_node *k = fy_node_pair_key(p);
    size_t len = 0;
    const char *s = k && fy_node_is_scalar(k) ? fy_node_get_scalar(k, &len) : NULL;
    if (!s) {
      for (size_t i = 0; i < n_complex && !dup; i++)
        if (fy_node_compare(complex[i], k)) dup = k;
      TT_PUSH(complex, n_complex, cap, k);
      continue;
    }
    for (size_t h = hash_bytes(s, len) & (size - 1);; h = (h + 1) & (size - 1)) {
      if (!slot[h]) {
        slot[h] = k;
        break;
      }
      size_t olen;
      const char *o = fy_node_get_scalar(slot[h], &olen);
      if (olen == len && memcmp(o, s, len) == 0) {
        dup = k;
        break;
      }
    }
  }
  free(slot);
  free(complex);
  return dup;
}

static struct fy_node *find_duplicate_key(struct fy_node *n) {
  if (!n) return NULL;
  void *it = NULL;
  if (fy_node_is_sequence(n)) {
    struct fy_node *c;
    while ((c = fy_node_sequence_iterate(n, &it)))
      if ((c = find_duplicate_key(c))) return c;
  } else if (fy_node_is_mapping(n)) {
    struct fy_node *dup = duplicate_in_mapping(n);
    if (dup) return dup;
    struct fy_node_pair *p;
    while ((p = fy_node_mapping_iterate(n, &it))) {
      if ((dup = find_duplicate_key(fy_node_pair_key(p))) || (dup = find_duplicate_key(fy_node_pair_value(p))))
        return dup;
    }
  }
  return NULL;
}

static struct fy_diag *make_diag(diag_sink *sink) {
  struct fy_diag_cfg dcfg;
  fy_diag_cfg_default(&dcfg);
  dcfg.fp = NULL;
  dcfg.output_fn = diag_output;
  dcfg.user = sink;
  dcfg.colorize = false;
  dcfg.show_source = false;
  dcfg.show_position = false;
  dcfg.show_type = false;
  dcfg.show_module = false;
  struct fy_diag *diag = fy_diag_create(&dcfg);
  fy_diag_set_collect_errors(diag, true);
  return diag;
}

static char *diag_error(const char *path, struct fy_diag *diag, const diag_sink *sink) {
  void *it = NULL;
  struct fy_diag_error *e = fy_diag_errors_iterate(diag, &it);
  if (e) return tt_xasprintf("%s:%d:%d: invalid YAML: %s", path, e->line + 1, e->column + 1, e->msg);
  return tt_xasprintf("%s: invalid YAML%s%s", path, sink->first ? ": " : "", sink->first ? sink->first : "");
}

struct fy_document *tt_yaml_load_text(const char *path, const char *text, size_t len, char **err) {
  if ((*err = check_text(path, text, len))) return NULL;
  diag_sink sink = {0};
  struct fy_diag *diag = make_diag(&sink);
  struct fy_parse_cfg cfg = {.flags = FYPCF_QUIET | FYPCF_COLLECT_DIAG | FYPCF_DEFAULT_VERSION_1_2 | FYPCF_ALLOW_DUPLICATE_KEYS,
                             .diag = diag};
  struct fy_parser *fyp = fy_parser_create(&cfg);
  struct fy_document *doc = NULL;
  /* The parser owns a copy: documents keep their input alive, whatever the caller
   * does with `text` afterwards. */
  char *copy = tt_xstrndup(text, len);
  if (fyp && fy_parser_set_malloc_string(fyp, copy, len) == 0) {
    doc = fy_parse_load_document(fyp);
    bool bad = fy_diag_got_error(diag);
    if (!doc && !bad) {
      doc = fy_document_create(NULL); /* an empty or comment-only file */
    } else if (!doc || bad) {
      *err = diag_error(path, diag, &sink);
      if (doc) fy_parse_document_destroy(fyp, doc);
      doc = NULL;
    } else {
      /* One document per file: a second one (after `---`) would be ignored silently. */
      struct fy_document *second = fy_parse_load_document(fyp);
      if (second || fy_diag_got_error(diag)) {
        int line = 0, col = 0;
        struct fy_node *r = second ? fy_document_root(second) : NULL;
        if (r) tt_yaml_pos(r, &line, &col);
        *err = !second ? diag_error(path, diag, &sink)
               : line ? tt_xasprintf("%s:%d:%d: a second YAML document: the file must hold one", path, line, col)
                      : tt_xasprintf("%s: a second YAML document: the file must hold one", path);
        if (second) fy_parse_document_destroy(fyp, second);
        fy_parse_document_destroy(fyp, doc);
        doc = NULL;
      }
    }
  } else {
    free(copy);
    *err = tt_xasprintf("%s: cannot set up the YAML parser", path);
  }
  struct fy_node *dup = doc ? find_duplicate_key(fy_document_root(doc)) : NULL;
  if (dup) {
    int line, column;
    tt_yaml_pos(dup, &line, &column);
    *err = tt_xasprintf("%s:%d:%d: invalid YAML: duplicate key", path, line, column);
    fy_parse_document_destroy(fyp, doc);
    doc = NULL;
  }
  if (fyp) fy_parser_destroy(fyp);
  free(sink.first);
  fy_diag_destroy(diag);
  return doc;
}

struct fy_document *tt_yaml_load(const char *path, const char *text, char **err) {
  if (text) return tt_yaml_load_text(path, text, strlen(text), err);
  char *buf;
  size_t len;
  if (tt_fs_read(path, &buf, &len, err) < 0) return NULL;
  struct fy_document *doc = tt_yaml_load_text(path, buf, len, err);
  free(buf);
  return doc;
}

/* Index of `key` (`klen` bytes) in keys[0..n), or -1. */
static int key_index(const char *const *keys, size_t n, const char *key, size_t klen) {
  for (size_t i = 0; i < n; i++)
    if (strlen(keys[i]) == klen && memcmp(keys[i], key, klen) == 0) return (int)i;
  return -1;
}

/* The plain scalar text of event `e`, or NULL (a collection, alias, tag or anchor). */
static const char *plain_scalar(struct fy_event *e, size_t *len) {
  if (e->type != FYET_SCALAR || e->scalar.tag || e->scalar.anchor || !e->scalar.value) return NULL;
  return fy_token_get_text(e->scalar.value, len);
}

int tt_yaml_head(const char *text, size_t len, const char *const *keys, size_t n, char **values) {
  for (size_t i = 0; i < n; i++) values[i] = NULL;
  diag_sink sink = {0}; /* errors are the full load's to report */
  struct fy_diag *diag = make_diag(&sink);
  struct fy_parse_cfg cfg = {.flags = FYPCF_QUIET | FYPCF_COLLECT_DIAG | FYPCF_DEFAULT_VERSION_1_2 | FYPCF_ALLOW_DUPLICATE_KEYS,
                             .diag = diag};
  struct fy_parser *fyp = fy_parser_create(&cfg);
  if (!fyp || fy_parser_set_string(fyp, text, len) != 0) {
    if (fyp) fy_parser_destroy(fyp);
    fy_diag_destroy(diag);
    return -1;
  }
  /* depth: 0 before the root mapping, 1 inside it, more inside its values. At depth 1
   * events alternate key, value; `want` is the key whose value comes next (-2: a key
   * comes next, -1: a value nobody wants). */
  int depth = 0, want = -2, rc = -1;
  size_t found = 0;
  struct fy_event *e;
  while (found < n && (e = fy_parser_parse(fyp))) {
    enum fy_event_type t = e->type;
    bool stop = false;
    if (t == FYET_MAPPING_START || t == FYET_SEQUENCE_START) {
      if (depth == 0 && t != FYET_MAPPING_START) stop = true;
      else if (depth == 1) want = want == -2 ? -1 : -2; /* a collection as a key, or as a value */
      depth++;
    } else if (t == FYET_MAPPING_END || t == FYET_SEQUENCE_END) {
      if (--depth <= 0) stop = true;
    } else if ((t == FYET_SCALAR || t == FYET_ALIAS) && depth == 1) {
      size_t vlen;
      const char *v = plain_scalar(e, &vlen);
      if (want == -2) {
        want = v ? key_index(keys, n, v, vlen) : -1;
      } else {
        if (want >= 0) {
          if (!v || values[want]) stop = true; /* not plain, or a duplicate key: load it all */
          else values[want] = tt_xstrndup(v, vlen), found++;
        }
        want = -2;
      }
    } else if (t == FYET_DOCUMENT_END || t == FYET_STREAM_END) {
      stop = true;
    }
    fy_parser_event_free(fyp, e);
    if (stop) break;
  }
  if (found == n) rc = 0;
  fy_parser_destroy(fyp);
  free(sink.first);
  fy_diag_destroy(diag);
  for (size_t i = 0; rc < 0 && i < n; i++) free(values[i]), values[i] = NULL;
  return rc;
}

/* Position of the key under which `n` is a value, for nodes with no token of their own
 * (an empty `[]` or `{}`). */
static void key_pos(struct fy_node *n, int *line, int *column) {
  struct fy_node *parent = fy_node_get_parent(n);
  if (!parent || !fy_node_is_mapping(parent)) return;
  void *it = NULL;
  struct fy_node_pair *p;
  while ((p = fy_node_mapping_iterate(parent, &it)))
    if (fy_node_pair_value(p) == n) {
      tt_yaml_pos(fy_node_pair_key(p), line, column);
      return;
    }
}

void tt_yaml_pos(struct fy_node *n, int *line, int *column) {
  *line = *column = 0;
  struct fy_node *start = n;
  while (n) {
    if (fy_node_is_scalar(n) || fy_node_is_alias(n)) {
      struct fy_token *t = fy_node_get_scalar_token(n);
      const struct fy_mark *m = t ? fy_token_start_mark(t) : NULL;
      if (m) {
        *line = m->line + 1;
        *column = m->column + 1;
      }
      return;
    }
    void *it = NULL;
    if (fy_node_is_mapping(n)) {
      struct fy_node_pair *p = fy_node_mapping_iterate(n, &it);
      n = p ? fy_node_pair_key(p) : NULL;
    } else {
      n = fy_node_sequence_iterate(n, &it);
    }
  }
  if (!*line && start) key_pos(start, line, column);
}

char *tt_yaml_error(const char *path, struct fy_node *n, const char *fmt, ...) {
  int line, col;
  tt_yaml_pos(n, &line, &col);
  va_list ap;
  va_start(ap, fmt);
  char *msg = tt_xvasprintf(fmt, ap);
  va_end(ap);
  char *out = line ? tt_xasprintf("%s:%d:%d: %s", path, line, col, msg)
                   : tt_xasprintf("%s: %s", path, msg);
  free(msg);
  return out;
}

char *tt_yaml_strdup(struct fy_node *n) {
  if (!n || !fy_node_is_scalar(n)) return NULL;
  size_t len;
  const char *s = fy_node_get_scalar(n, &len);
  return tt_xstrndup(s ? s : "", s ? len : 0);
}

int tt_yaml_bool(struct fy_node *n, bool *out) {
  size_t len;
  const char *s = n && fy_node_is_scalar(n) ? fy_node_get_scalar(n, &len) : NULL;
  if (!s) return -1;
  if (len == 4 && !memcmp(s, "true", 4)) *out = true;
  else if (len == 5 && !memcmp(s, "false", 5)) *out = false;
  else return -1;
  return 0;
}

const char *tt_yaml_kind(struct fy_node *n) {
  if (!n) return "nothing";
  if (fy_node_is_mapping(n)) return "mapping";
  if (fy_node_is_sequence(n)) return "sequence";
  return "scalar";
}

bool tt_yaml_is_block_scalar(struct fy_node *n) {
  enum fy_node_style s = fy_node_get_style(n);
  return s == FYNS_LITERAL || s == FYNS_FOLDED;
}
