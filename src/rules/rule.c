#include "rules/rule.h"

#include <stdlib.h>
#include <string.h>

#include "rules/analyzer.h"
#include "rules/prefilter.h"

static const char *const severity_names[] = {"note", "warning", "error"};

static const char *const category_names[TT_CAT_COUNT] = {
    "warp-size",        "mask-width",   "ballot-width", "indexing-base",
    "layout-flip",      "accumulator-shape", "broadcasting", "api-mapping",
    "sync",             "numeric",      "unsupported",
};

const char *tt_severity_name(tt_severity s) {
  return s == TT_SEV_OFF ? "off" : severity_names[s];
}

int tt_severity_parse(const char *name, bool allow_off, tt_severity *out) {
  for (int i = 0; i < 3; i++)
    if (strcmp(name, severity_names[i]) == 0) {
      *out = (tt_severity)i;
      return 0;
    }
  if (allow_off && strcmp(name, "off") == 0) {
    *out = TT_SEV_OFF;
    return 0;
  }
  return -1;
}

const char *tt_category_name(tt_category c) { return category_names[c]; }

int tt_category_parse(const char *name, tt_category *out) {
  for (int i = 0; i < TT_CAT_COUNT; i++)
    if (strcmp(name, category_names[i]) == 0) {
      *out = (tt_category)i;
      return 0;
    }
  return -1;
}

bool tt_target_valid(const char *target) {
  return !strcmp(target, "hip") || !strcmp(target, "julia") || !strcmp(target, "triton");
}

void tt_rule_free(tt_rule *r) {
  if (!r) return;
  tt_prefilter_free(r->prefilter);
  free(r->file);
  free(r->id);
  free(r->target);
  free(r->summary);
  free(r->message);
  free(r->explain);
  free(r->query_text);
  for (size_t i = 0; i < r->n_captures; i++) free(r->captures[i]);
  free(r->captures);
  free(r->range_capture);
  free(r->fact_defined);
  for (size_t i = 0; i < r->n_facts_read; i++) free(r->facts_read[i].name);
  free(r->facts_read);
  if (r->analyzer && r->analyzer_opts) r->analyzer->free_options(r->analyzer_opts);
  free(r->fix_description);
  for (size_t i = 0; i < r->n_edits; i++) {
    free(r->edits[i].capture);
    free(r->edits[i].until);
    free(r->edits[i].tmpl);
  }
  free(r->edits);
  for (size_t i = 0; i < r->n_examples; i++) {
    free(r->examples[i].code);
    free(r->examples[i].fixed);
  }
  free(r->examples);
  for (size_t i = 0; i < r->n_references; i++) free(r->references[i]);
  free(r->references);
  free(r);
}
