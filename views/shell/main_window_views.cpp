// MainWindow's export of the current page and the comparison report, which the Compare page writes.
#include <QFileDialog>
#include <QTabWidget>
#include "views/common/chart_export.h"
#include "views/results/results_view.h"
#include "views/shell/compare_page.h"
#include "views/shell/main_window.h"
#include "views/shell/main_window_page.h"
#include "views/shell/results_page.h"

namespace cl::views {

bool MainWindow::exportCurrentView(const QString& path, const ExportOptions& options, QString* error) {
    MainWindowPage* page = currentPage();
    const PaintFunction paint = page ? page->exportPainting() : PaintFunction();
    if (!paint) {
        if (error) *error = tr("this view cannot be exported");
        return false;
    }
    if (!exportPainting(path, options, paint, error)) return false;
    log(tr("Exported %1 to %2 (%3 \u00d7 %4 px at %5 dpi)")
            .arg(m_tabs->tabText(m_tabs->currentIndex()), path)
            .arg(options.size.width())
            .arg(options.size.height())
            .arg(options.dpi));
    return true;
}

void MainWindow::exportView() {
    const QString what = m_tabs->tabText(m_tabs->currentIndex()).remove(QLatin1Char('&'));
    ExportDialog dialog(this);
    const QString family = m_pages.results->view()->family();
    const QString base = family.isEmpty() ? what : family + QLatin1Char('-') + what;
    // The folder and format last used (the Documents folder the first time), named after the view.
    dialog.setBaseName(base.toLower());
    // The dialog writes the file itself, so that a failure leaves it open with the user's choices.
    dialog.setExporter([this](const QString& path, const ExportOptions& options, QString* error) {
        return exportCurrentView(path, options, error);
    });
    dialog.exec();
}

QStringList MainWindow::comparisonReportScenarios() const {
    return m_pages.compare->reportScenarios();
}

bool MainWindow::writeComparisonReport(const QString& path, QString* error) {
    return m_pages.compare->writeReport(path, error);
}

}  // namespace cl::views
