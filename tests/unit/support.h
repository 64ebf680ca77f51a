/* support.h — small fixtures shared by the unit tests. */
#ifndef TT_TEST_SUPPORT_H
#define TT_TEST_SUPPORT_H

#include "parser/source.h"
#include "rules/rule.h"

/* A source over a copy of `text`. */
tt_source *tts_source(const char *path, const char *text, tt_lang lang);
/* A rule loaded from YAML text (path "test-rule.yaml"); NULL with *err on error. */
tt_rule *tts_rule(const char *yaml, char **err);

#endif
