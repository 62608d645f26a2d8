#include "core/workload/model_mix.h"

#include <charconv>
#include <cmath>
#include <set>
#include <stdexcept>

#include "core/util/number_format.h"
#include "core/util/portable_random.h"

namespace cl {

namespace {

std::string trim(const std::string& s) {
    const auto b = s.find_first_not_of(" \t");
    if (b == std::string::npos) return {};
    const auto e = s.find_last_not_of(" \t");
    return s.substr(b, e - b + 1);
}

std::string joinWeights(const std::vector<std::pair<std::string, double>>& entries) {
    std::string out;
    for (const auto& [name, w] : entries) {
        if (!out.empty()) out += ',';
        out += name + ':' + formatNumber(w);
    }
    return out;
}

double sumWeights(const std::vector<std::pair<std::string, double>>& entries) {
    double t = 0.0;
    for (const auto& e : entries) t += e.second;
    return t;
}

// what = "model mix" / "task split"
std::vector<std::pair<std::string, double>> parseWeights(const std::string& spec, const char* what) {
    const std::string example =
        std::string(" (expected e.g. ") +
        (std::string(what) == "task split" ? "\"image:20,language:70,rl:10\")" : "\"resnet18:2,bert:1\")");
    if (trim(spec).empty()) throw std::invalid_argument(std::string("empty ") + what + example);
    std::vector<std::pair<std::string, double>> entries;
    std::set<std::string> seen;
    std::size_t start = 0;
    while (start <= spec.size()) {
        auto comma = spec.find(',', start);
        if (comma == std::string::npos) comma = spec.size();
        const std::string item = trim(spec.substr(start, comma - start));
        start = comma + 1;
        if (item.empty())
            throw std::invalid_argument(std::string(what) + " '" + spec + "' has an empty entry" + example);
        std::string name = item;
        double weight = 1.0;
        if (auto colon = item.find(':'); colon != std::string::npos) {
            name = trim(item.substr(0, colon));
            const std::string w = trim(item.substr(colon + 1));
            auto res = std::from_chars(w.data(), w.data() + w.size(), weight);
            if (w.empty() || res.ec != std::errc() || res.ptr != w.data() + w.size())
                throw std::invalid_argument(std::string(what) + " entry '" + item + "': weight '" + w +
                                            "' is not a number" + example);
        }
        if (name.empty())
            throw std::invalid_argument(std::string(what) + " entry '" + item + "' has no name" + example);
        if (!std::isfinite(weight) || weight < 0.0)
            throw std::invalid_argument(std::string(what) + " entry '" + item +
                                        "': weight must be finite and >= 0");
        if (!seen.insert(name).second)
            throw std::invalid_argument(std::string(what) + " '" + spec + "' names '" + name + "' twice");
        entries.emplace_back(name, weight);
    }
    if (!(sumWeights(entries) > 0.0))
        throw std::invalid_argument(std::string(what) + " '" + spec + "' has no positive weight");
    return entries;
}

}  // namespace

double ModelMix::totalWeight() const {
    return sumWeights(entries);
}

std::vector<std::string> ModelMix::names() const {
    std::vector<std::string> out;
    for (const auto& e : entries) out.push_back(e.first);
    return out;
}

std::string ModelMix::toString() const {
    return joinWeights(entries);
}

const std::string& ModelMix::pick(double u) const {
    std::vector<double> w;
    w.reserve(entries.size());
    for (const auto& e : entries) w.push_back(e.second);
    return entries[pickWeighted(w, u)].first;
}

ModelMix ModelMix::uniform(const std::vector<std::string>& models) {
    ModelMix mix;
    for (const auto& m : models) mix.entries.emplace_back(m, 1.0);
    return mix;
}

double TaskSplit::totalWeight() const {
    return sumWeights(entries);
}
std::string TaskSplit::toString() const {
    return joinWeights(entries);
}

ModelMix parseModelMix(const std::string& spec) {
    return ModelMix{parseWeights(spec, "model mix")};
}
TaskSplit parseTaskSplit(const std::string& spec) {
    return TaskSplit{parseWeights(spec, "task split")};
}

const std::vector<std::string>* TaskCatalog::modelsOf(const std::string& task) const {
    for (const auto& [t, models] : tasks)
        if (t == task) return &models;
    return nullptr;
}

std::string TaskCatalog::taskOf(const std::string& model) const {
    for (const auto& [t, models] : tasks)
        for (const auto& m : models)
            if (m == model) return t;
    return {};
}

std::vector<std::string> TaskCatalog::taskNames() const {
    std::vector<std::string> out;
    for (const auto& t : tasks) out.push_back(t.first);
    return out;
}

std::vector<std::string> TaskCatalog::allModels() const {
    std::vector<std::string> out;
    for (const auto& t : tasks) out.insert(out.end(), t.second.begin(), t.second.end());
    return out;
}

const TaskCatalog& muriTaskCatalog() {
    static const TaskCatalog catalog{"muri",
                                     {{"image", {"vgg16", "vgg19", "resnet18", "shufflenet_v2_x1_0"}},
                                      {"language", {"bert", "gpt2"}},
                                      {"rl", {"a2c", "dqn"}}}};
    return catalog;
}

const TaskCatalog& synergyTaskCatalog() {
    static const TaskCatalog catalog{
        "synergy",
        {{"image", {"resnet18", "resnet50", "mobilenet", "alexnet", "shufflenet"}},
         {"language", {"gnmt", "transformer", "lstm"}},
         {"speech", {"m5", "deepspeech"}}}};
    return catalog;
}

std::vector<std::string> taskCatalogNames() {
    return {"muri", "synergy"};
}

const TaskCatalog& taskCatalog(const std::string& name) {
    if (name == "muri") return muriTaskCatalog();
    if (name == "synergy") return synergyTaskCatalog();
    throw std::invalid_argument("unknown task catalog '" + name + "'; valid: muri, synergy");
}

ModelMix mixFromTaskSplit(const TaskSplit& split, const TaskCatalog& catalog) {
    ModelMix mix;
    for (const auto& [task, weight] : split.entries) {
        const auto* models = catalog.modelsOf(task);
        if (!models) {
            std::string valid;
            for (const auto& t : catalog.taskNames()) valid += (valid.empty() ? "" : ", ") + t;
            throw std::invalid_argument("unknown task '" + task + "' for the " + catalog.name +
                                        " models; valid tasks: " + valid);
        }
        for (const auto& m : *models)
            mix.entries.emplace_back(m, weight / static_cast<double>(models->size()));
    }
    if (!(mix.totalWeight() > 0.0))
        throw std::invalid_argument("task split '" + split.toString() + "' has no positive weight");
    return mix;
}

}  // namespace cl
