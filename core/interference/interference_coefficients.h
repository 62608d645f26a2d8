#pragma once
// The coefficients of the co-location interference model (the multi-agent placement paper,
// Sec. V-B; docs/architecture.md section 6.4): a plain value that a model profile carries
// (core/model/model_profile.h) and interference_model.h evaluates. Kept apart from the
// evaluation so that the value types of core/model reach no model code.
namespace cl {

struct InterferenceCoefficients {
    // The documented defaults (defaultInterferenceCoefficients()).
    double cpu_a = 0.115;
    double cpu_b = 2.0;
    double pcie_a = 0.4;
    bool operator==(const InterferenceCoefficients&) const = default;
};

InterferenceCoefficients defaultInterferenceCoefficients();

}  // namespace cl
