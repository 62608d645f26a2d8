#include "core/interference/interference_coefficients.h"

namespace cl {

InterferenceCoefficients defaultInterferenceCoefficients() {
    return InterferenceCoefficients{};
}

}  // namespace cl
