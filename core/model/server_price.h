#pragma once
// What a server costs to have (docs/architecture.md 7.8): either a rental price per
// hour (a public cloud's on-demand list price) or a purchase price amortized over years plus
// the power it draws per hour, whichever the planner states. Prices are in US dollars.
#include <string>

namespace cl {

enum class PriceBasis {
    None,       // no price stated: the server counts as free, and reports say it is unpriced
    Hourly,     // per_hour
    Amortized,  // purchase / (amortization_years * hours per year) + power_per_hour
};

struct ServerPrice {
    PriceBasis basis = PriceBasis::None;
    double per_hour = 0.0;            // USD per server-hour (Hourly)
    double purchase = 0.0;            // USD (Amortized)
    double amortization_years = 0.0;  // > 0 (Amortized)
    double power_per_hour = 0.0;      // USD per hour of power and cooling (Amortized)
    std::string source;               // where the figures come from, with their date
    bool approximate = false;         // no published figure was found; an estimate

    bool stated() const { return basis != PriceBasis::None; }
    bool operator==(const ServerPrice&) const = default;
};

// 365-day years; a month is a twelfth of one (730 hours), as cloud price sheets count.
inline constexpr double kHoursPerYear = 8760.0;
inline constexpr double kHoursPerMonth = kHoursPerYear / 12.0;

// USD per hour of one server (0 when no price is stated).
double pricePerHour(const ServerPrice& price);

}  // namespace cl
