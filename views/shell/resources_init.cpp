#include "views/shell/resources_init.h"

#include <mutex>

#include <QtGlobal>

// Q_INIT_RESOURCE must be used outside any namespace.
static void initClusterLoomResources() {
    Q_INIT_RESOURCE(resources);
}

namespace cl::views {

void initResources() {
    static std::once_flag once;
    std::call_once(once, initClusterLoomResources);
}

}  // namespace cl::views
