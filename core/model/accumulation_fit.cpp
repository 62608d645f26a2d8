#include "core/model/accumulation_fit.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <stdexcept>

namespace cl {

namespace {

constexpr double kMiB = 1024.0 * 1024.0;

// Pollux measured on AWS g4dn.12xlarge nodes with 4 NVIDIA T4 GPUs of 16 GB each (Qiao et al.,
// "Pollux", OSDI 2021, section 5.1); m1 is chosen so that the largest local batch it measured
// exactly fills such a GPU (an upper bound on the per-sample memory, never an underestimate).
constexpr double kT4MemoryMb = 16.0 * 1024.0;
// Memory a CUDA context and the framework's allocator take before any tensor (about 500 MB
// with PyTorch on Turing GPUs; an assumption, not a measurement).
constexpr double kCudaContextMb = 500.0;

struct ModelFacts {
    const char* name;
    double parameters;           // trainable parameters
    int optimizer_copies;        // optimizer state per parameter: 1 for SGD with momentum, 2 for Adam(W)
    int max_measured_local_bsz;  // the largest local_bsz in Pollux's placements.csv of the model
    int default_batch;           // Pollux's initial batch size (Table 1 of the Pollux paper)
    int epochs;                  // Pollux's max_epochs (its simulator's applications)
    double dataset_size;         // training samples of one epoch
    // Our estimate of the activation memory one training sample keeps, MB, for models whose
    // largest measured batch was evidently not memory-bound (0 = none: the fill rule stands).
    double activation_mb_estimate = 0.0;
};

// Optimizers and initial batch sizes: Pollux paper Table 1 (ResNet-50/ImageNet SGD 200 images,
// YOLOv3/PASCAL-VOC SGD 8, DeepSpeech2/CMU-ARCTIC SGD 20, BERT/SQuAD AdamW 12,
// ResNet18/CIFAR-10 SGD 128, NeuMF/MovieLens Adam 256). Pollux's evaluation workloads
// (docs/architecture.md section 10) state only the batch sizes of their jobs at the GPU count they
// were submitted with (e.g. cifar10 2048 on 6-16 GPUs), not a one-GPU batch.
const ModelFacts kFacts[] = {
    // BERT-base: 110M parameters (Devlin et al., NAACL 2019, section 3). SQuAD v1.1 train:
    // 87,599 questions (Rajpurkar et al., EMNLP 2016). 2 epochs.
    {"bert", 110.0e6, 2, 12, 12, 2, 87599},
    // ResNet-18 for CIFAR-10 (32x32 input, 10 classes): 11.2M parameters. CIFAR-10 train:
    // 50,000 images (Krizhevsky 2009). 100 epochs.
    {"cifar10", 11.2e6, 1, 1024, 128, 100, 50000},
    // DeepSpeech2 as Pollux trains it: assumed the deepspeech.pytorch default network (2 conv
    // layers, 5 bidirectional LSTM layers of 1024 units on 161 spectrogram bins), about 86M
    // parameters (our count; its pretrained checkpoints are about 330 MB in fp32).
    // CMU ARCTIC: assumed 7 speakers x 1,132 prompts = 7,924 utterances (festvox CMU ARCTIC
    // release notes); Pollux does not state its split. 80 epochs.
    {"deepspeech2", 86.0e6, 1, 80, 20, 80, 7924},
    // ResNet-50: 25.6M parameters (He et al., CVPR 2016, Table 1 / torchvision). ImageNet-1k
    // train: 1,281,167 images (Russakovsky et al., IJCV 2015). 90 epochs.
    {"imagenet", 25.6e6, 1, 200, 200, 90, 1281167},
    // NeuMF: assumed the MLPerf NCF reference configuration (64 GMF factors, MLP 256-256-128-64,
    // i.e. 128-wide MLP embeddings) on MovieLens-20M's 138,493 users and 26,744 movies:
    // (138,493 + 26,744) x (64 + 128) = 31.7M embedding weights + 0.1M MLP = 31.8M (our count).
    // MovieLens-20M: 20,000,263 ratings (Harper and Konstan, TiiS 2015). 10 epochs.
    // Per sample it keeps two embedding rows (64 + 128 floats) and MLP activations of
    // 256 + 256 + 128 + 64 floats with their gradients: about 2 x 900 x 4 bytes, rounded up
    // to 0.01 MB (our estimate). Pollux's 32,768-sample batches were a configuration choice,
    // not a memory limit: the fill rule would give 0.47 MB and make NeuMF accumulate alone.
    {"ncf", 31.8e6, 2, 32768, 256, 10, 20000263, 0.01},
    // YOLOv3: 61.9M parameters (Redmon and Farhadi, arXiv:1804.02767, Darknet-53 detector).
    // PASCAL VOC 2007+2012 trainval: 16,551 images. 50 epochs.
    {"yolov3", 61.9e6, 1, 16, 8, 50, 16551},
};

PolluxModelConstants constantsOf(const ModelFacts& f) {
    PolluxModelConstants c;
    c.name = f.name;
    c.gradient_mb = f.parameters * 4.0 / kMiB;  // fp32 gradients
    // Weights + gradients + optimizer state, fp32, plus the CUDA context.
    c.memory_base_mb = f.parameters * 4.0 * (2 + f.optimizer_copies) / kMiB + kCudaContextMb;
    c.memory_per_sample_mb = (kT4MemoryMb - c.memory_base_mb) / f.max_measured_local_bsz;
    if (f.activation_mb_estimate > 0)
        c.memory_per_sample_mb = std::min(c.memory_per_sample_mb, f.activation_mb_estimate);
    c.default_batch = f.default_batch;
    c.train_samples = static_cast<double>(f.epochs) * f.dataset_size;
    return c;
}

double mean(const std::vector<double>& v) {
    double s = 0;
    for (double x : v) s += x;
    return v.empty() ? 0.0 : s / static_cast<double>(v.size());
}

double overlapped(double comp, double comm, double delta) {
    if (comm <= 0) return comp;
    if (comp <= 0) return comm;
    // Scaled by the larger term so that a large delta cannot overflow.
    const double top = std::max(comp, comm);
    return top * std::pow(std::pow(comp / top, delta) + std::pow(comm / top, delta), 1.0 / delta);
}

double overlapLoss(const std::vector<OverlapSample>& samples, double delta) {
    double loss = 0;
    for (const auto& s : samples) {
        const double rel = overlapped(s.compute, s.comm, delta) / s.measured - 1.0;
        loss += rel * rel;
    }
    return loss;
}

}  // namespace

LinearFit fitLinear(const std::vector<double>& x, const std::vector<double>& y, bool non_negative) {
    if (x.size() != y.size()) throw std::invalid_argument("fitLinear: x and y differ in length");
    LinearFit fit;
    fit.samples = static_cast<int>(x.size());
    if (x.empty()) return fit;
    const double mx = mean(x), my = mean(y);
    double sxx = 0, sxy = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
        sxx += (x[i] - mx) * (x[i] - mx);
        sxy += (x[i] - mx) * (y[i] - my);
    }
    const std::set<double> distinct(x.begin(), x.end());
    if (distinct.size() < 2 || !(sxx > 0)) {
        fit.constant = true;
        fit.alpha = my;
    } else {
        fit.beta = sxy / sxx;
        fit.alpha = my - fit.beta * mx;
    }
    if (!non_negative) return fit;
    // Times cannot have negative parts: pin a negative coefficient to 0 and refit the other
    // alone (the least-squares optimum on that boundary).
    if (fit.beta < 0) {
        fit.clamped = true;
        fit.beta = 0;
        fit.alpha = my;
    }
    if (fit.alpha < 0) {
        fit.clamped = true;
        double xx = 0, xy = 0;
        for (std::size_t i = 0; i < x.size(); ++i) {
            xx += x[i] * x[i];
            xy += x[i] * y[i];
        }
        fit.alpha = 0;
        fit.beta = xx > 0 ? std::max(0.0, xy / xx) : 0.0;
    }
    return fit;
}

double fitOverlapDelta(const std::vector<OverlapSample>& samples, double max_delta) {
    if (samples.empty() || !(max_delta > 1.0)) return 1.0;
    constexpr double kStep = 0.01;
    const int steps = static_cast<int>(std::round((max_delta - 1.0) / kStep));
    double best = 1.0, best_loss = overlapLoss(samples, 1.0);
    for (int i = 1; i <= steps; ++i) {
        const double d = 1.0 + i * kStep;
        const double loss = overlapLoss(samples, d);
        if (loss < best_loss) {
            best_loss = loss;
            best = d;
        }
    }
    // Golden section inside the grid cells either side of the best grid point.
    double lo = std::max(1.0, best - kStep), hi = std::min(max_delta, best + kStep);
    const double g = (std::sqrt(5.0) - 1.0) / 2.0;
    double a = hi - g * (hi - lo), b = lo + g * (hi - lo);
    double fa = overlapLoss(samples, a), fb = overlapLoss(samples, b);
    for (int i = 0; i < 60; ++i) {
        if (fa <= fb) {
            hi = b;
            b = a;
            fb = fa;
            a = hi - g * (hi - lo);
            fa = overlapLoss(samples, a);
        } else {
            lo = a;
            a = b;
            fa = fb;
            b = lo + g * (hi - lo);
            fb = overlapLoss(samples, b);
        }
    }
    const double refined = (lo + hi) / 2.0;
    return overlapLoss(samples, refined) < best_loss ? refined : best;
}

const std::vector<PolluxModelConstants>& polluxModelConstants() {
    static const std::vector<PolluxModelConstants> table = [] {
        std::vector<PolluxModelConstants> v;
        for (const ModelFacts& f : kFacts) v.push_back(constantsOf(f));
        return v;
    }();
    return table;
}

const PolluxModelConstants& polluxModelConstantsOf(const std::string& model) {
    std::string names;
    for (const auto& c : polluxModelConstants()) {
        if (c.name == model) return c;
        names += (names.empty() ? "" : ", ") + c.name;
    }
    throw std::invalid_argument("no SJF-BSBF constants for model '" + model + "' (known: " + names + ")");
}

double predictedStepTime(const AccumulationProfile& p, const PolluxRow& row) {
    const double comp = computeTime(p, row.local_bsz);
    if (row.replicas <= 1) return comp;
    return overlapped(comp, allReduceTime(p, row.replicas, row.nodes), p.delta);
}

FitError fitErrorOf(const AccumulationProfile& p, const std::vector<PolluxRow>& rows) {
    FitError e;
    double sum = 0;
    for (const auto& r : rows) {
        const double rel = std::abs(predictedStepTime(p, r) / r.step_time - 1.0);
        sum += rel * rel;
        e.max_rel_error = std::max(e.max_rel_error, rel);
    }
    e.rows = static_cast<int>(rows.size());
    e.rms_rel_error = rows.empty() ? 0.0 : std::sqrt(sum / static_cast<double>(rows.size()));
    return e;
}

AccumulationFit fitAccumulationProfile(const std::vector<PolluxRow>& rows,
                                       const PolluxModelConstants& constants, const std::string& source) {
    AccumulationFit fit;
    fit.model = constants.name;
    fit.source = source;
    AccumulationProfile& p = fit.profile;
    p.gradient_mb = constants.gradient_mb;
    p.memory_base_mb = constants.memory_base_mb;
    p.memory_per_sample_mb = constants.memory_per_sample_mb;
    p.default_batch = constants.default_batch;
    p.train_samples = constants.train_samples;

    std::vector<double> bsz, step, intra_x, intra_y, inter_x, inter_y;
    for (const auto& r : rows) {
        if (r.replicas == 1) {
            bsz.push_back(r.local_bsz);
            step.push_back(r.step_time);
            continue;
        }
        const double sent_mb = constants.gradient_mb * 2.0 * (r.replicas - 1) / r.replicas;
        (r.nodes <= 1 ? intra_x : inter_x).push_back(sent_mb);
        (r.nodes <= 1 ? intra_y : inter_y).push_back(r.sync_time);
    }
    if (bsz.empty())
        throw std::invalid_argument(source +
                                    ": no single-GPU measurement (placement 1) to fit the compute time from");
    // Negative intercepts or slopes are clamped to 0 (fitLinear's non_negative): a negative
    // compute or all-reduce time at small batches or gradients has no physical meaning.
    fit.compute = fitLinear(bsz, step, true);
    fit.intra = fitLinear(intra_x, intra_y, true);
    fit.inter = fitLinear(inter_x, inter_y, true);
    fit.single_gpu_rows = static_cast<int>(bsz.size());
    fit.intra_rows = static_cast<int>(intra_x.size());
    fit.inter_rows = static_cast<int>(inter_x.size());
    p.alpha_comp = fit.compute.alpha;
    p.beta_comp = fit.compute.beta;
    p.alpha_comm_intra = fit.intra.alpha;
    p.beta_comm_intra = fit.intra.beta;
    p.alpha_comm_inter = fit.inter.alpha;
    p.beta_comm_inter = fit.inter.beta;

    std::vector<OverlapSample> overlap;
    for (const auto& r : rows) {
        if (r.replicas <= 1) continue;
        overlap.push_back({computeTime(p, r.local_bsz), allReduceTime(p, r.replicas, r.nodes), r.step_time});
    }
    fit.overlap_rows = static_cast<int>(overlap.size());
    p.delta = fitOverlapDelta(overlap);
    fit.error = fitErrorOf(p, rows);
    return fit;
}

}  // namespace cl
