#include "rules/finding.h"

#include <stdlib.h>
#include <string.h>

#include "util/util.h"

void tt_finding_clear(tt_finding *f) {
  free(f->message);
  free(f->fix_description);
  for (size_t i = 0; i < f->n_edits; i++) free(f->edits[i].replacement);
  free(f->edits);
  free(f->unconfirmed);
  memset(f, 0, sizeof *f);
}

void tt_findings_free(tt_findings *fs) {
  for (size_t i = 0; i < fs->n; i++) tt_finding_clear(&fs->items[i]);
  free(fs->items);
  memset(fs, 0, sizeof *fs);
}

void tt_findings_move(tt_findings *to, tt_findings *from) {
  tt_grow((void **)&to->items, &to->cap, to->n + from->n, sizeof *to->items);
  if (from->n) memcpy(to->items + to->n, from->items, from->n * sizeof *from->items);
  to->n += from->n;
  to->incomplete |= from->incomplete;
  free(from->items);
  memset(from, 0, sizeof *from);
}

static int cmp_finding(const void *a, const void *b) {
  const tt_finding *x = a, *y = b;
  if (x->start != y->start) return x->start < y->start ? -1 : 1;
  if (x->end != y->end) return x->end < y->end ? -1 : 1;
  return strcmp(x->rule->id, y->rule->id);
}

void tt_findings_sort(tt_findings *fs) {
  if (fs->n < 2) return;
  if (fs->n) qsort(fs->items, fs->n, sizeof *fs->items, cmp_finding);
  size_t w = 1;
  for (size_t r = 1; r < fs->n; r++) {
    tt_finding *prev = &fs->items[w - 1], *cur = &fs->items[r];
    if (cur->rule == prev->rule && cur->start == prev->start && cur->end == prev->end) {
      tt_finding_clear(cur);
      continue;
    }
    fs->items[w++] = *cur;
  }
  fs->n = w;
}
