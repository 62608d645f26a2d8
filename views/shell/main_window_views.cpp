// MainWindow's export of the current page and the comparison report, which the Compare page writes.
#include <QFileDialog>
#include <QMessageBox>
#include <QStandardPaths>
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
    dialog.setPath(QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation) + QLatin1Char('/') +
                   base.toLower().replace(QLatin1Char('/'), QLatin1Char('-')) + QStringLiteral(".png"));
    QString path;
    ExportOptions options;
    if (!dialog.ask(&path, &options)) return;
    QString error;
    if (!exportCurrentView(path, options, &error))
        QMessageBox::warning(this, tr("Export"), tr("Cannot export to %1:\n\n%2").arg(path, error));
}

QStringList MainWindow::comparisonReportScenarios() const {
    return m_pages.compare->reportScenarios();
}

bool MainWindow::writeComparisonReport(const QString& path, QString* error) {
    return m_pages.compare->writeReport(path, error);
}

}  // namespace cl::views
