#include "core/topology_placement/distributed_models.h"

#include <stdexcept>

namespace cl {

const std::vector<DistributedModelType>& distributedModelTypes() {
    // Gradient sizes are the models' fp32 parameter counts x 4 bytes, from the papers that
    // introduced them (ResNet-50 25.6 M, VGG-16 138 M, Inception-BN 11.3 M, ResNeXt-110 on
    // CIFAR-10 ~1.7 M, a DSSM with a 10 M-parameter text8 embedding, a 60 M-parameter WMT
    // Seq2Seq, an 8 M-parameter CTC sentence classifier, the 20 M-parameter "medium" PTB LSTM).
    // Step times, CPU and PCIe figures are ours, chosen to keep the multi-agent placement
    // paper's qualitative facts (Sec. II-C): VGG-16 is the communication-heavy one, CTC the
    // CPU-heavy one, ResNet-50 relies on the CPU for image decoding. Workers ask for 1.5-5
    // cores: the paper's default server has 4 cores per GPU (2 sockets x 8 cores for 4 GPUs),
    // and its Fig. 1(a) jobs ask for 6 cores per GPU on a 16-core, 2-GPU server, oversubscribed
    // by design.
    static const std::vector<DistributedModelType> types = {
        {"resnet50", "image classification (ImageNet)", 0.25, 4.0, 12.0, 102.0, 2.0},
        {"vgg16", "image classification (ImageNet)", 0.35, 2.5, 10.0, 553.0, 2.0},
        {"inception-bn", "image classification (Caltech)", 0.20, 3.0, 10.0, 45.0, 1.0},
        {"resnext110", "image classification (CIFAR-10)", 0.15, 2.0, 4.0, 7.0, 1.0},
        {"dssm", "word representation (text8)", 0.05, 2.0, 2.0, 40.0, 1.0},
        {"seq2seq", "machine translation (WMT17)", 0.40, 2.0, 3.0, 240.0, 1.0},
        {"ctc", "sentence classification (mr)", 0.10, 5.0, 2.0, 32.0, 1.0},
        {"wlm", "language modeling (PTB)", 0.10, 1.5, 2.0, 80.0, 1.0},
    };
    return types;
}

const DistributedModelType& distributedModelType(const std::string& name) {
    std::string valid;
    for (const auto& t : distributedModelTypes()) {
        if (t.name == name) return t;
        valid += (valid.empty() ? "" : ", ") + t.name;
    }
    throw std::invalid_argument("unknown model type '" + name + "' (valid: " + valid + ")");
}

}  // namespace cl
