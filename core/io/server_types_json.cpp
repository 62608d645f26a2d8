#include "core/io/server_types_json.h"

#include <set>

#include "core/io/json_doc.h"
#include "core/io/server_json.h"

namespace cl {

namespace {

std::vector<ServerType> readPresets(const io::JsonDoc& doc) {
    using io::JsonPath;
    doc.checkHeader("clusterloom-server-presets", 1);
    const JsonPath top;
    const nlohmann::json& root = doc.object(doc.root(), top);
    doc.rejectUnknownKeys(root, top, {"format", "version", "description", "presets"});
    const nlohmann::json& list = doc.array(doc.require(root, top, "presets"), top / "presets");
    std::vector<ServerType> presets;
    std::set<std::string> ids;
    for (std::size_t i = 0; i < list.size(); ++i) {
        const JsonPath at = (top / "presets")[i];
        const nlohmann::json& v = doc.object(list[i], at);
        doc.rejectUnknownKeys(v, at, {"id", "label", "source", "server"});
        ServerType p;
        p.id = doc.string(doc.require(v, at, "id"), at / "id", false);
        if (!ids.insert(p.id).second) doc.fail(at / "id", "duplicate preset id '" + p.id + "'");
        p.label = doc.string(doc.require(v, at, "label"), at / "label", false);
        if (const nlohmann::json* x = doc.member(v, at, "source")) p.source = doc.string(*x, at / "source");
        p.server = parseServerFieldsJson(doc, doc.require(v, at, "server"), at / "server");
        presets.push_back(std::move(p));
    }
    if (presets.empty()) doc.fail(top / "presets", "no presets");
    return presets;
}

}  // namespace

std::vector<ServerType> readServerTypesJson(const std::string& path) {
    return readPresets(io::JsonDoc::read(path));
}

std::vector<ServerType> parseServerTypesJson(const std::string& text, const std::string& source) {
    return readPresets(io::JsonDoc::parse(text, source));
}

}  // namespace cl
