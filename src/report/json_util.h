/* json_util.h — jansson helpers shared by the JSON and SARIF reports. */
#ifndef TT_JSON_UTIL_H
#define TT_JSON_UTIL_H

#include <jansson.h>
#include <stddef.h>

/* A JSON string from bytes that may not be valid UTF-8: invalid bytes become U+FFFD,
 * so reports stay valid JSON whatever the user's file holds. New reference. */
json_t *tt_json_str(const char *s, size_t n);
json_t *tt_json_cstr(const char *s);
/* Dumps `v` (stealing the reference) to `out` with a final newline. */
void tt_json_dump(FILE *out, json_t *v);

#endif
