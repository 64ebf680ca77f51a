#include "support.h"

#include <stdlib.h>
#include <string.h>

#include "rules/rule_load.h"
#include "util/util.h"

tt_source *tts_source(const char *path, const char *text, tt_lang lang) {
  return tt_source_new(path, tt_xstrdup(text), strlen(text), lang);
}

tt_rule *tts_rule(const char *yaml, char **err) {
  *err = NULL;
  return tt_rule_load_text("test-rule.yaml", yaml, err);
}
