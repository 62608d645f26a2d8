#pragma once
// Checks that the comparison report's summary table, as layoutReportTable lays it out, shows
// every cell whole: values on one line within their column, headers and run names wrapped only
// between words (QTextLayout with the writer's own flags), within their column and height.
#include <QAbstractItemModel>
#include <QFont>
#include <QFontMetricsF>
#include <QString>
#include <QStringList>
#include <QTextLayout>
#include <QTextOption>

#include "views/common/report_writer.h"

namespace cl::test {

// The lines `text` is broken into at `width` with the drawing flags.
inline QStringList wrappedLines(const QString& text, const QFont& font, QPaintDevice* device, double width,
                                int flags) {
    QTextLayout layout(text, font, device);
    QTextOption option;
    option.setWrapMode((flags & Qt::TextWrapAnywhere) ? QTextOption::WrapAnywhere
                       : (flags & Qt::TextWordWrap)   ? QTextOption::WordWrap
                                                      : QTextOption::NoWrap);
    layout.setTextOption(option);
    layout.beginLayout();
    QStringList lines;
    for (QTextLine line = layout.createLine(); line.isValid(); line = layout.createLine()) {
        line.setLineWidth(width);
        lines << text.mid(line.textStart(), line.textLength());
    }
    layout.endLayout();
    return lines;
}

// Empty when every cell shows whole, else what does not.
inline QString reportTableProblem(const QAbstractItemModel& model, const views::ReportTableLayout& shape,
                                  double pageWidth, QPaintDevice* device) {
    QFont body(QStringLiteral("Sans Serif"));
    body.setStyleHint(QFont::SansSerif);
    body.setPointSizeF(shape.pointSize);
    QFont bold = body;
    bold.setBold(true);
    const QFontMetricsF fm(body, device), fmb(bold, device);
    double total = 0.0;
    for (double w : shape.columnWidths) total += w;
    if (total > pageWidth + 0.5)
        return QStringLiteral("the table is %1 px wide on a %2 px page").arg(total).arg(pageWidth);
    // Whole words on lines within the width, as many lines as the height holds.
    auto wrapsBetweenWords = [&](const QString& text, const QFont& font, const QFontMetricsF& metrics,
                                 double inner, int flags, double height) -> QString {
        const QStringList lines = wrappedLines(text, font, device, inner, flags);
        qsizetype at = 0;
        for (int i = 0; i < lines.size(); ++i) {
            at += lines[i].size();
            if (metrics.horizontalAdvance(lines[i].trimmed()) > inner + 0.5)
                return QStringLiteral("\"%1\" is wider than its column").arg(lines[i]);
            if (i + 1 < lines.size() && !lines[i].endsWith(QLatin1Char(' ')) &&
                text.at(at) != QLatin1Char(' '))
                return QStringLiteral("\"%1\" breaks inside a word after \"%2\"").arg(text, lines[i]);
        }
        if (lines.size() * metrics.lineSpacing() > height + 1.0)
            return QStringLiteral("\"%1\" needs %2 lines, taller than its cell").arg(text).arg(lines.size());
        return {};
    };
    for (int c = 0; c < model.columnCount(); ++c) {
        const double inner = shape.columnWidths[c] - 2 * shape.padding;
        const QString header = model.headerData(c, Qt::Horizontal).toString();
        if (QString p = wrapsBetweenWords(header, bold, fmb, inner, shape.flags(c, true), shape.headerHeight);
            !p.isEmpty())
            return QStringLiteral("header: ") + p;
        for (int r = 0; r < model.rowCount(); ++r) {
            const QString text = model.index(r, c).data().toString();
            if (c == 0) {
                if (QString p =
                        wrapsBetweenWords(text, body, fm, inner, shape.flags(0, false), shape.rowHeights[r]);
                    !p.isEmpty())
                    return QStringLiteral("run name: ") + p;
            } else if (fm.horizontalAdvance(text) > inner + 0.5) {
                return QStringLiteral("value \"%1\" is wider than its column").arg(text);
            }
        }
    }
    return {};
}

}  // namespace cl::test
