// A C view of a parsed TOML document, so Swift never touches C++.
// The document is flattened in source order: every table, array and value becomes
// one entry with its dotted path and the line and column where it was written.
#ifndef RIG_TOML_H
#define RIG_TOML_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    RIG_TOML_TABLE = 0,
    RIG_TOML_ARRAY,
    RIG_TOML_STRING,
    RIG_TOML_INTEGER,
    RIG_TOML_FLOAT,
    RIG_TOML_BOOLEAN,
    RIG_TOML_DATETIME,
} rig_toml_kind;

typedef struct {
    const char *path;        // dotted; array elements end in "[index]"
    const char *key;         // the last component, or "" for array elements
    rig_toml_kind kind;
    const char *string;      // strings; the source text for date-times
    int64_t integer;
    double floating;
    bool boolean;
    uint32_t line;
    uint32_t column;
    int32_t parent;          // index of the containing table or array, -1 at the root
} rig_toml_entry;

typedef struct rig_toml_document rig_toml_document;

// Parses UTF-8 text. On failure returns NULL and fills the message, line and column.
rig_toml_document *rig_toml_parse(const char *text, size_t length, const char *source_name,
                                  char *error, size_t error_size,
                                  uint32_t *error_line, uint32_t *error_column);
size_t rig_toml_count(const rig_toml_document *document);
const rig_toml_entry *rig_toml_entry_at(const rig_toml_document *document, size_t index);
void rig_toml_free(rig_toml_document *document);

#ifdef __cplusplus
}
#endif

#endif
