#include "util/yaml.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

/* Collects the first error message libfyaml reports instead of printing it. */
typedef struct {
  char *first;
} diag_sink;

static void diag_output(struct fy_diag *diag, void *user, const char *buf, size_t len) {
  diag_sink *s = user;
  if (!s->first) s->first = tt_xstrndup(buf, len);
}

struct fy_document *tt_yaml_load(const char *path, const char *text, char **err) {
  diag_sink sink = {0};
  struct fy_diag_cfg dcfg;
  fy_diag_cfg_default(&dcfg);
  dcfg.fp = NULL;
  dcfg.output_fn = diag_output;
  dcfg.user = &sink;
  dcfg.colorize = false;
  dcfg.show_source = false;
  dcfg.show_position = false;
  dcfg.show_type = false;
  dcfg.show_module = false;
  struct fy_diag *diag = fy_diag_create(&dcfg);
  fy_diag_set_collect_errors(diag, true);
  struct fy_parse_cfg cfg = {.flags = FYPCF_QUIET | FYPCF_COLLECT_DIAG | FYPCF_DEFAULT_VERSION_1_2,
                             .diag = diag};
  struct fy_document *doc = text ? fy_document_build_from_string(&cfg, text, strlen(text))
                                 : fy_document_build_from_file(&cfg, path);
  struct fy_diag_error *e;
  void *it = NULL;
  if (!doc && !(e = fy_diag_errors_iterate(diag, &it))) {
    /* No document and no complaint: an empty or comment-only file. */
    doc = fy_document_create(NULL);
  } else if (!doc || fy_diag_got_error(diag)) {
    it = NULL;
    if ((e = fy_diag_errors_iterate(diag, &it)))
      *err = tt_xasprintf("%s:%d:%d: invalid YAML: %s", path, e->line + 1, e->column + 1, e->msg);
    else
      *err = tt_xasprintf("%s: invalid YAML%s%s", path, sink.first ? ": " : "",
                          sink.first ? sink.first : " (or unreadable file)");
    if (doc) fy_document_destroy(doc);
    doc = NULL;
  }
  free(sink.first);
  fy_diag_destroy(diag);
  return doc;
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
