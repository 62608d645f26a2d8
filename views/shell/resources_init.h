#pragma once

namespace cl::views {

// Registers the compiled-in resources (icons) of the static views library. Safe to call
// more than once; MainWindow calls it.
void initResources();

}  // namespace cl::views
