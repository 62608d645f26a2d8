#pragma once
// The one-click comparison report of the Compare view: an A4 PDF with a title header (date and
// ClusterLoom version), the scenario descriptions, the summary table drawn as a table and
// one area per chart with its title, with page numbers. Written atomically.
#include <QList>
#include <QString>
#include <QStringList>
#include <QVector>

#include "views/common/chart_export.h"

class QAbstractItemModel;
class QPaintDevice;

namespace cl::views {

// A free section after the summary: a heading, rich text (Qt HTML subset) and optionally a
// painting drawn below it at the page width (e.g. a chart or the timeline).
struct ReportSection {
    QString heading;
    QString html;
    PaintFunction paint;
    double aspect = 0.55;  // painting height / width
};

struct ReportContent {
    QString title;
    QStringList scenarioDescriptions;
    const QAbstractItemModel* summaryTable = nullptr;  // all rows and columns, DisplayRole
    QList<ReportSection> sections;
};

bool writeReport(const QString& path, const ReportContent& content, QString* error);

// How writeReport lays the summary table out on a page `width` wide (96-dpi pixels): the
// largest font of 9, 8, 7.5 and 7 points at which every value and header word fits whole,
// column widths, and the heights that header and rows need with headers and run names wrapped
// between words. Values are never cut or wrapped.
struct ReportTableLayout {
    double pointSize = 9.0;
    double padding = 0.0;  // left and right inside each cell
    QVector<double> columnWidths;
    double headerHeight = 0.0;
    QVector<double> rowHeights;
    // Set only when even at 7 points the run names' longest words do not fit: then they break
    // anywhere rather than run into the next column.
    bool namesBreakAnywhere = false;

    // The flags a cell is drawn (and measured) with.
    int flags(int column, bool header) const;
};
ReportTableLayout layoutReportTable(const QAbstractItemModel& model, double width, QPaintDevice* device);
// The page width writeReport lays everything out in (A4 portrait less its margins).
double reportContentWidth();

// Convenience: each chart becomes a section headed by its title.
bool writeReport(const QString& path, const QString& title, const QStringList& scenarioDescriptions,
                 const QAbstractItemModel* summaryTable, const QList<PaintFunction>& charts,
                 const QStringList& chartTitles, QString* error);

}  // namespace cl::views
