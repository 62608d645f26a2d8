#pragma once
// Browses one trace: a filter bar (model, GPU range, submit time range), the sortable job
// table and histograms of the jobs that pass the filter.
#include <memory>

#include <QWidget>

#include "core/model/model_profile.h"
#include "core/model/trace.h"

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QSpinBox;
class QTableView;
class QTimer;
class QToolButton;

namespace cl::views {

class JobFilterProxy;
class JobTableModel;
class TraceHistograms;

class TraceBrowser : public QWidget {
    Q_OBJECT

public:
    explicit TraceBrowser(QWidget* parent = nullptr);

    // The profile set, when given, must outlive the browser (derived durations).
    void setTrace(std::shared_ptr<const cl::Trace> trace, const cl::ProfileSet* profiles = nullptr);
    std::shared_ptr<const cl::Trace> trace() const;

    // The shell exports the histograms. The jobs shown are the child model "jobModel".
    TraceHistograms* histograms() const { return m_histograms; }
    QString countText() const;

public slots:
    // Applies the filter bar now (edits are otherwise applied after a short pause).
    void applyFilters();
    void resetFilters();

private:
    void updateTimeControls();
    void refreshSummary();
    double timeUnitSeconds() const { return m_timeUnit; }

    JobTableModel* m_jobs = nullptr;
    JobFilterProxy* m_proxy = nullptr;
    TraceHistograms* m_histograms = nullptr;
    QTableView* m_table = nullptr;
    QComboBox* m_model = nullptr;
    QSpinBox* m_minGpus = nullptr;
    QSpinBox* m_maxGpus = nullptr;
    QDoubleSpinBox* m_from = nullptr;
    QDoubleSpinBox* m_to = nullptr;
    QToolButton* m_reset = nullptr;
    QLabel* m_count = nullptr;
    QTimer* m_debounce = nullptr;
    double m_timeUnit = 3600.0;
    bool m_updating = false;
};

}  // namespace cl::views
