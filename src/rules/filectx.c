#include "rules/filectx.h"

#include <stdlib.h>
#include <string.h>

#include "rules/spanset.h"
#include "util/util.h"

void tt_filectx_init(tt_filectx *c, const tt_tree *tree) {
  memset(c, 0, sizeof *c);
  c->tree = tree;
}

/* Per fact name, the spanset of its labelled ranges (tag: the label). */
typedef struct tt_fact_index {
  const char **names;
  tt_spanset **sets;
  size_t n_names;
  size_t n_facts; /* facts indexed */
} tt_fact_index;

static void fact_index_free(tt_fact_index *x) {
  if (!x) return;
  for (size_t i = 0; i < x->n_names; i++) tt_spanset_free(x->sets[i]);
  free(x->names);
  free(x->sets);
  free(x);
}

static tt_fact_index *fact_index_build(const tt_filectx *c) {
  tt_fact_index *x = tt_xcalloc(1, sizeof *x);
  x->n_facts = c->n_facts;
  tt_spanset_item *items = tt_xcalloc(c->n_facts + 1, sizeof *items);
  size_t cap = 0, cap2 = 0;
  bool *done = tt_xcalloc(c->n_facts + 1, sizeof *done);
  for (size_t i = 0; i < c->n_facts; i++) {
    if (done[i]) continue;
    size_t n = 0;
    for (size_t j = i; j < c->n_facts; j++) /* names are few: one pass per name */
      if (!done[j] && strcmp(c->facts[j].name, c->facts[i].name) == 0) {
        done[j] = true;
        items[n++] = (tt_spanset_item){c->facts[j].start, c->facts[j].end, NULL, c->facts[j].label};
      }
    size_t k = x->n_names;
    TT_PUSH(x->names, k, cap, c->facts[i].name);
    TT_PUSH(x->sets, x->n_names, cap2, tt_spanset_new(items, n));
  }
  free(done);
  free(items);
  return x;
}

void tt_filectx_free(tt_filectx *c) {
  fact_index_free(c->fact_index);
  tt_consts_free(c->consts);
  free(c->facts);
  free(c->caps);
  tt_strmap_free(&c->redefined);
  for (size_t i = 0; i < c->n_slots; i++) c->slots[i].free_data(c->slots[i].data);
  free(c->slots);
  tt_sema_file_free(c->sema_file);
  tt_sema_free(c->own_sema);
  memset(c, 0, sizeof *c);
}

const tt_consts *tt_filectx_consts(tt_filectx *c) {
  if (!c->consts) c->consts = tt_consts_build(c->tree);
  return c->consts;
}

void *tt_filectx_cached(tt_filectx *c, const void *key, void *(*build)(tt_filectx *c, const void *arg),
                        const void *arg, void (*free_data)(void *)) {
  for (size_t i = 0; i < c->n_slots; i++)
    if (c->slots[i].key == key) return c->slots[i].data;
  void *data = build(c, arg);
  TT_PUSH(c->slots, c->n_slots, c->slots_cap, ((tt_filectx_slot){key, data, free_data}));
  return data;
}

void tt_filectx_add_fact(tt_filectx *c, const char *name, uint32_t start, uint32_t end, const char *label) {
  TT_PUSH(c->facts, c->n_facts, c->cap, ((tt_fact){name, start, end, label}));
}

const char *tt_filectx_fact(tt_filectx *c, const char *name, uint32_t at) {
  if (c->fact_index && c->fact_index->n_facts != c->n_facts) {
    fact_index_free(c->fact_index);
    c->fact_index = NULL;
  }
  if (!c->fact_index) c->fact_index = fact_index_build(c);
  const tt_fact_index *x = c->fact_index;
  for (size_t i = 0; i < x->n_names; i++) {
    if (strcmp(x->names[i], name) != 0) continue;
    const tt_spanset_item *f = tt_spanset_innermost(x->sets[i], at, at + 1, NULL);
    return f ? f->tag : NULL;
  }
  return NULL;
}

void tt_filectx_add_cap(tt_filectx *c, uint32_t start, uint32_t end, tt_severity max) {
  TT_PUSH(c->caps, c->n_caps, c->caps_cap, ((tt_sev_cap){start, end, max}));
}

tt_severity tt_filectx_capped(const tt_filectx *c, uint32_t at, tt_severity sev) {
  for (size_t i = 0; i < c->n_caps; i++)
    if (at >= c->caps[i].start && at < c->caps[i].end && c->caps[i].max < sev) sev = c->caps[i].max;
  return sev;
}

const tt_strmap *tt_filectx_redefined(tt_filectx *c) {
  if (!c->redefined_built && c->redefined_build) c->redefined_build(c, c->redefined_arg);
  c->redefined_built = true;
  return &c->redefined;

}

tt_sema_file *tt_filectx_sema(tt_filectx *c) {
  if (!c->sema_file) {
    if (!c->sema) c->sema = c->own_sema = tt_sema_new(NULL);
    const tt_source *src = c->tree->src;
    c->sema_file = tt_sema_file_new(c->sema, src->path, src->text, src->len);
  }
  return c->sema_file;
}

void tt_filectx_unconfirmed(tt_filectx *c, const char *why) {
  if (!c->unconfirmed) c->unconfirmed = why ? why : "the semantic layer gave no answer";
}

int tt_filectx_live_for_hip(tt_filectx *c, uint32_t at) {
  tt_sema_file *f = tt_filectx_sema(c);
  tt_sema_answer a = tt_sema_live(f, TT_SEMA_HIP, at);
  if (a == TT_SEMA_UNKNOWN) tt_filectx_unconfirmed(c, tt_sema_why(f));
  return (int)a;
}
