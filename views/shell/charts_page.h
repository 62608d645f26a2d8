#pragma once
// The Charts page: utilization, queue length, running jobs and blocking index of the family's
// runs over time, the resource the top chart shows and which runs are drawn. The runs' series
// are read only while the page is shown, and kept for the runs drawn.
#include <QHash>

#include "views/charts/run_series.h"
#include "views/shell/main_window_page.h"

class QComboBox;
class QHBoxLayout;
class QLabel;

namespace cl::views {

class ResultsView;
class RunPicker;
class SeriesCharts;

class ChartsPage : public MainWindowPage {
    Q_OBJECT

public:
    // `results` tells which runs the family has.
    ChartsPage(const ResultsView* results, QWidget* tabs, QObject* parent);

    QWidget* widget() const override { return m_widget; }
    SeriesCharts* charts() const { return m_charts; }
    PaintFunction exportPainting() const override;
    void setWorkspace(cl::ScenarioStore* store, const QString& path) override;

    // The family's runs changed: read them again when shown.
    void refresh();
    // Stored runs were deleted, and their ids can be given to new runs: forget what was read.
    void forgetRuns();

protected:
    void activated() override;

private:
    QHBoxLayout* createBar();
    void update();
    // Says next to the run picker how many of the family's runs are not drawn.
    void showHiddenRuns(const QStringList& names);

    const ResultsView* m_results = nullptr;
    QWidget* m_widget = nullptr;
    QComboBox* m_resource = nullptr;
    RunPicker* m_runs = nullptr;
    QLabel* m_hidden = nullptr;
    SeriesCharts* m_charts = nullptr;

    cl::ScenarioStore* m_store = nullptr;
    bool m_dirty = true;
    QHash<qint64, RunSeries> m_cache;  // run id -> its series, for the runs drawn
};

}  // namespace cl::views
