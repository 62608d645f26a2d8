#pragma once
// The size the preview-heavy import dialogs (Slurm, profiler traces) open at.
class QWidget;

namespace cl::views {

// Most of the screen: the tables and charts need the room, a laptop's 1366 x 768 included.
// 200 x 60 characters at most, bounded by 90 % of the available screen, at least 100 x 30.
void resizeImportDialog(QWidget& dialog);

}  // namespace cl::views
