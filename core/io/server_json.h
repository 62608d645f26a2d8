#pragma once
// A server and its price as they appear in layout files and in the server types file
// (docs/architecture.md 7.8); shared by the two readers so both accept the same fields.
// Price: {"per_hour": USD} or {"purchase": USD, "amortization_years": Y, "power_per_hour": USD},
// each with an optional "source" and "approximate".
#include <nlohmann/json.hpp>

#include "core/io/json_doc.h"
#include "core/model/cluster.h"

namespace cl {

nlohmann::ordered_json priceJson(const ServerPrice& price);
ServerPrice parsePriceJson(const io::JsonDoc& doc, const nlohmann::json& v, const io::JsonPath& at);
// A server object without "name" and "rack" (the fields a layout's server group states).
Server parseServerFieldsJson(const io::JsonDoc& doc, const nlohmann::json& v, const io::JsonPath& at);

}  // namespace cl
