#pragma once
// Model mixes (relative weights per model name) and task splits (weights per task such as
// image / language / rl, expanded to models through a task catalog).
//
// Spec grammar, shared by mixes and splits: comma-separated "name[:weight]" entries, e.g.
// "resnet18:2,bert:1" or "image:20,language:70,rl:10"; a missing weight means 1; weights
// are finite and >= 0 with a positive total; names are unique. Entry order is kept: it is
// the order in which a uniform draw walks the cumulative weights (ModelMix::pick).
#include <string>
#include <utility>
#include <vector>

namespace cl {

struct ModelMix {
    std::vector<std::pair<std::string, double>> entries;  // model -> weight, in the given order

    bool empty() const { return entries.empty(); }
    double totalWeight() const;
    std::vector<std::string> names() const;
    std::string toString() const;  // "resnet18:2,bert:1"
    // The model drawn for u in [0, 1): the first entry whose cumulative weight exceeds
    // u * total. Zero-weight entries are never drawn.
    const std::string& pick(double u) const;

    static ModelMix uniform(const std::vector<std::string>& models);  // weight 1 each
};

struct TaskSplit {
    std::vector<std::pair<std::string, double>> entries;  // task -> weight, in the given order

    bool empty() const { return entries.empty(); }
    double totalWeight() const;
    std::string toString() const;
};

// Both throw std::invalid_argument with a message naming the offending entry.
ModelMix parseModelMix(const std::string& spec);
TaskSplit parseTaskSplit(const std::string& spec);

// Which models stand for which task.
struct TaskCatalog {
    std::string name;
    std::vector<std::pair<std::string, std::vector<std::string>>> tasks;  // task -> models

    const std::vector<std::string>* modelsOf(const std::string& task) const;  // null if unknown
    std::string taskOf(const std::string& model) const;                       // "" if unlisted
    std::vector<std::string> taskNames() const;
    std::vector<std::string> allModels() const;  // task order, then model order
};

// The eight built-in Muri models (data/profiles/muri.json):
//   image    = vgg16, vgg19, resnet18, shufflenet_v2_x1_0
//   language = bert, gpt2
//   rl       = a2c, dqn        (reinforcement learning; Muri has no speech model)
const TaskCatalog& muriTaskCatalog();
// Synergy's models (docs/architecture.md section 8.4; Synergy's split is (image, language, speech)):
//   image    = resnet18, resnet50, mobilenet, alexnet, shufflenet
//   language = gnmt, transformer, lstm
//   speech   = m5, deepspeech
const TaskCatalog& synergyTaskCatalog();
// "muri" or "synergy"; throws std::invalid_argument listing the valid names.
const TaskCatalog& taskCatalog(const std::string& name);
std::vector<std::string> taskCatalogNames();

// Each task's weight shared equally by its models, in catalog model order, tasks in split
// order; e.g. muri image:20,language:70,rl:10 -> vgg16 5, vgg19 5, resnet18 5,
// shufflenet_v2_x1_0 5, bert 35, gpt2 35, a2c 5, dqn 5. Unknown tasks throw
// std::invalid_argument listing the catalog's tasks.
ModelMix mixFromTaskSplit(const TaskSplit& split, const TaskCatalog& catalog = muriTaskCatalog());

}  // namespace cl
