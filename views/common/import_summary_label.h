#pragma once
// The summary block of the import dialogs (trace, Slurm, profiler traces): what the file held
// or why it cannot be imported, in rich text the user can select and copy.
class QLabel;
class QWidget;

namespace cl::views {

// An empty word-wrapped label named "summary", its text selectable by mouse.
QLabel* importSummaryLabel(QWidget* parent);

}  // namespace cl::views
