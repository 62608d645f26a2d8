#pragma once
// The Interleaving page: Muri's teaching view of how the training stages of jobs sharing GPUs
// interleave, with gamma and the speedup.
#include <vector>

#include <QStringList>

#include "views/shell/main_window_page.h"

namespace cl {
struct ProfileSet;
}

namespace cl::views {

class InterleavePanel;

class InterleavePage : public MainWindowPage {
    Q_OBJECT

public:
    InterleavePage(const cl::ProfileSet* profiles, QWidget* tabs, QObject* parent);

    QWidget* widget() const override;
    InterleavePanel* panel() const { return m_panel; }
    PaintFunction exportPainting() const override;
    bool hasOwnItemKeys() const override { return true; }

private:
    InterleavePanel* m_panel = nullptr;
};

}  // namespace cl::views
