#pragma once
// The busy bar of the import dialogs (Slurm history and nodes, profiler traces): shown while a
// worker thread reads, with no figure because the readers report no progress.
class QProgressBar;
class QWidget;

namespace cl::views {

// A running bar one line of the parent's text high, named "busy", hidden until the dialog shows
// it. The parent (the dialog) must not be null.
QProgressBar* importBusyBar(QWidget* parent);

}  // namespace cl::views
