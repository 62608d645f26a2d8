#include "core/model/server_price.h"

namespace cl {

double pricePerHour(const ServerPrice& price) {
    switch (price.basis) {
        case PriceBasis::None:
            return 0.0;
        case PriceBasis::Hourly:
            return price.per_hour;
        case PriceBasis::Amortized:
            return (price.amortization_years > 0 ? price.purchase / (price.amortization_years * kHoursPerYear)
                                                 : 0.0) +
                   price.power_per_hour;
    }
    return 0.0;
}

}  // namespace cl
