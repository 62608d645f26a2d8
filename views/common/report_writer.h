#pragma once
// The one-click comparison report of the Compare view: an A4 PDF with a title header (date and
// ClusterLoom version), the scenario descriptions, the summary table drawn as a table and
// one area per chart with its title, with page numbers. Written atomically.
#include <QList>
#include <QString>
#include <QStringList>

#include "views/common/chart_export.h"

class QAbstractItemModel;

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

// Convenience: each chart becomes a section headed by its title.
bool writeReport(const QString& path, const QString& title, const QStringList& scenarioDescriptions,
                 const QAbstractItemModel* summaryTable, const QList<PaintFunction>& charts,
                 const QStringList& chartTitles, QString* error);

}  // namespace cl::views
