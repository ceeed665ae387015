// Debian's toml++ is a compiled library built with exceptions, so parse errors
// arrive as toml::parse_error and are turned into a message with a line and column.
#include "rig_toml.h"

#include <toml++/toml.h>

#include <cstring>
#include <deque>
#include <sstream>
#include <string>
#include <vector>

struct rig_toml_document {
    std::deque<std::string> strings;   // deque: c_str() pointers stay valid as it grows
    std::vector<rig_toml_entry> entries;
};

namespace {

const char *keep(rig_toml_document &doc, std::string text) {
    doc.strings.push_back(std::move(text));
    return doc.strings.back().c_str();
}

void walk(rig_toml_document &doc, const toml::node &node, const std::string &path,
          const std::string &key, int32_t parent);

void add(rig_toml_document &doc, const toml::node &node, const std::string &path,
         const std::string &key, int32_t parent) {
    rig_toml_entry entry{};
    entry.path = keep(doc, path);
    entry.key = keep(doc, key);
    entry.parent = parent;
    entry.line = node.source().begin.line;
    entry.column = node.source().begin.column;
    entry.string = "";
    switch (node.type()) {
    case toml::node_type::table: entry.kind = RIG_TOML_TABLE; break;
    case toml::node_type::array: entry.kind = RIG_TOML_ARRAY; break;
    case toml::node_type::string:
        entry.kind = RIG_TOML_STRING;
        entry.string = keep(doc, std::string(*node.value<std::string_view>()));
        break;
    case toml::node_type::integer:
        entry.kind = RIG_TOML_INTEGER;
        entry.integer = *node.value<int64_t>();
        break;
    case toml::node_type::floating_point:
        entry.kind = RIG_TOML_FLOAT;
        entry.floating = *node.value<double>();
        break;
    case toml::node_type::boolean:
        entry.kind = RIG_TOML_BOOLEAN;
        entry.boolean = *node.value<bool>();
        break;
    default: {
        entry.kind = RIG_TOML_DATETIME;
        std::ostringstream text;
        node.visit([&](auto &&value) { text << value; });
        entry.string = keep(doc, text.str());
        break;
    }
    }
    doc.entries.push_back(entry);
    walk(doc, node, path, key, static_cast<int32_t>(doc.entries.size() - 1));
}

void walk(rig_toml_document &doc, const toml::node &node, const std::string &path,
          const std::string &, int32_t self) {
    if (auto table = node.as_table()) {
        for (auto &&[name, child] : *table) {
            std::string key(name.str());
            add(doc, child, path.empty() ? key : path + "." + key, key, self);
        }
    } else if (auto array = node.as_array()) {
        for (size_t i = 0; i < array->size(); ++i) {
            add(doc, (*array)[i], path + "[" + std::to_string(i) + "]", "", self);
        }
    }
}

} // namespace

extern "C" rig_toml_document *rig_toml_parse(const char *text, size_t length,
                                             const char *source_name, char *error,
                                             size_t error_size, uint32_t *error_line,
                                             uint32_t *error_column) {
    try {
        toml::table root = toml::parse(std::string_view(text, length),
                                       std::string_view(source_name ? source_name : ""));
        auto *doc = new rig_toml_document();
        walk(*doc, root, "", "", -1);
        return doc;
    } catch (const toml::parse_error &failure) {
        if (error && error_size > 0) {
            std::strncpy(error, std::string(failure.description()).c_str(), error_size - 1);
            error[error_size - 1] = '\0';
        }
        if (error_line) *error_line = failure.source().begin.line;
        if (error_column) *error_column = failure.source().begin.column;
        return nullptr;
    } catch (const std::exception &failure) {
        if (error && error_size > 0) {
            std::strncpy(error, failure.what(), error_size - 1);
            error[error_size - 1] = '\0';
        }
        if (error_line) *error_line = 0;
        if (error_column) *error_column = 0;
        return nullptr;
    }
}

extern "C" size_t rig_toml_count(const rig_toml_document *document) {
    return document ? document->entries.size() : 0;
}

extern "C" const rig_toml_entry *rig_toml_entry_at(const rig_toml_document *document,
                                                   size_t index) {
    if (!document || index >= document->entries.size()) return nullptr;
    return &document->entries[index];
}

extern "C" void rig_toml_free(rig_toml_document *document) { delete document; }
