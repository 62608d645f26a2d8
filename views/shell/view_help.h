#pragma once
// What's This? for each view of the main window (Help › What's This?, Shift+F1, then a click on
// the view): what it shows, where its figures come from and what to do with it, in a few lines.
#include <QString>

namespace cl::views {

// The text for the view named as --view names it ("results", "cluster", ...); empty for an
// unknown name.
QString whatsThisForView(const QString& viewName);

}  // namespace cl::views
