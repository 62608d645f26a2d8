#include "core/model/gpu_type_table.h"

#include <algorithm>
#include <cctype>

namespace cl {

const std::vector<GpuTypeEntry>& gpuTypeTable() {
    // Memory per GPU from each vendor's data sheet; where a model comes in several sizes the
    // name's "NNgb" part picks the size, and the table holds the size a bare name most often
    // means (the one the data/ cluster presets assume for V100).
    static const std::vector<GpuTypeEntry> table = {
        {{"k80"}, "K80", 12, "NVIDIA Tesla K80 data sheet: 24 GB GDDR5 per board of two GPUs"},
        {{"p100"}, "P100", 16, "NVIDIA Tesla P100 data sheet: 16 GB HBM2 (a 12 GB PCIe model exists)"},
        {{"v100", "v100s"}, "V100", 32, "NVIDIA V100 data sheet: 32 GB or 16 GB HBM2; V100S 32 GB"},
        {{"t4"}, "T4", 16, "NVIDIA T4 data sheet: 16 GB GDDR6"},
        {{"a100"}, "A100", 40, "NVIDIA A100 data sheet: 40 GB HBM2 or 80 GB HBM2e"},
        {{"a10", "a10g"}, "A10", 24, "NVIDIA A10 data sheet: 24 GB GDDR6 (AWS A10G: 24 GB)"},
        {{"a30"}, "A30", 24, "NVIDIA A30 data sheet: 24 GB HBM2"},
        {{"a40"}, "A40", 48, "NVIDIA A40 data sheet: 48 GB GDDR6"},
        {{"l4"}, "L4", 24, "NVIDIA L4 data sheet: 24 GB GDDR6"},
        {{"l40"}, "L40", 48, "NVIDIA L40 data sheet: 48 GB GDDR6"},
        {{"l40s"}, "L40S", 48, "NVIDIA L40S data sheet: 48 GB GDDR6"},
        {{"h100"}, "H100", 80, "NVIDIA H100 data sheet: 80 GB (SXM and PCIe)"},
        {{"h100nvl"}, "H100", 94, "NVIDIA H100 data sheet: H100 NVL 94 GB"},
        {{"h200"}, "H200", 141, "NVIDIA H200 data sheet: 141 GB HBM3e"},
        {{"gtx1080ti", "1080ti"}, "GTX1080Ti", 11, "NVIDIA GeForce GTX 1080 Ti specifications: 11 GB GDDR5X"},
        {{"rtx2080ti", "2080ti"}, "RTX2080Ti", 11, "NVIDIA GeForce RTX 2080 Ti specifications: 11 GB GDDR6"},
        {{"rtx3090", "3090"}, "RTX3090", 24, "NVIDIA GeForce RTX 3090 specifications: 24 GB GDDR6X"},
        {{"rtx4090", "4090"}, "RTX4090", 24, "NVIDIA GeForce RTX 4090 specifications: 24 GB GDDR6X"},
        {{"rtxa4000", "a4000"}, "RTXA4000", 16, "NVIDIA RTX A4000 data sheet: 16 GB GDDR6"},
        {{"rtxa5000", "a5000"}, "RTXA5000", 24, "NVIDIA RTX A5000 data sheet: 24 GB GDDR6"},
        {{"rtxa6000", "a6000"}, "RTXA6000", 48, "NVIDIA RTX A6000 data sheet: 48 GB GDDR6"},
        {{"rtx6000"}, "RTX6000", 24, "NVIDIA Quadro RTX 6000 data sheet: 24 GB GDDR6"},
        {{"rtx6000ada", "6000ada"},
         "RTX6000Ada",
         48,
         "NVIDIA RTX 6000 Ada Generation data sheet: 48 GB GDDR6"},
        {{"mi100"}, "MI100", 32, "AMD Instinct MI100 data sheet: 32 GB HBM2"},
        {{"mi210"}, "MI210", 64, "AMD Instinct MI210 data sheet: 64 GB HBM2e"},
        {{"mi250", "mi250x"}, "MI250X", 128, "AMD Instinct MI250X data sheet: 128 GB HBM2e (MI250: 128 GB)"},
        {{"mi300x"}, "MI300X", 192, "AMD Instinct MI300X data sheet: 192 GB HBM3"},
    };
    return table;
}

namespace {

bool isVendorWord(const std::string& part) {
    return part == "nvidia" || part == "tesla" || part == "geforce" || part == "quadro" || part == "amd" ||
           part == "instinct";
}

bool allDigits(std::string_view s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// "80gb" or "80g" -> 80.
std::optional<double> memoryPart(std::string_view part) {
    std::string_view digits = part;
    if (digits.size() > 2 && digits.substr(digits.size() - 2) == "gb")
        digits.remove_suffix(2);
    else if (digits.size() > 1 && digits.back() == 'g')
        digits.remove_suffix(1);
    else
        return std::nullopt;
    if (!allDigits(digits) || digits.size() > 4) return std::nullopt;
    return static_cast<double>(std::stoi(std::string(digits)));
}

// A MIG slice ("1g.10gb", "3g.20gb") is part of a GPU, not a GPU of the named model.
bool namesMigSlice(const std::string& lower) {
    for (std::size_t at = lower.find("g."); at != std::string::npos; at = lower.find("g.", at + 1))
        if (at > 0 && std::isdigit(static_cast<unsigned char>(lower[at - 1])) && at + 2 < lower.size() &&
            std::isdigit(static_cast<unsigned char>(lower[at + 2])))
            return true;
    return false;
}

}  // namespace

std::optional<GpuTypeMatch> matchGpuType(std::string_view vendor_name) {
    std::string lower(vendor_name);
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (namesMigSlice(lower)) return std::nullopt;
    std::vector<std::string> parts;
    std::string part;
    for (char c : lower + "_") {
        if (c == '_' || c == '-' || c == ' ' || c == '.') {
            if (!part.empty() && !isVendorWord(part)) parts.push_back(part);
            part.clear();
        } else {
            part += c;
        }
    }
    const GpuTypeEntry* best = nullptr;
    std::string joined;
    for (const std::string& p : parts) {
        joined += p;
        for (const GpuTypeEntry& e : gpuTypeTable())
            if (std::find(e.keys.begin(), e.keys.end(), joined) != e.keys.end()) best = &e;
    }
    if (!best) return std::nullopt;
    GpuTypeMatch match{best->name, best->memory_gb};
    for (const std::string& p : parts)
        if (const auto gb = memoryPart(p)) match.memory_gb = *gb;
    return match;
}

}  // namespace cl
