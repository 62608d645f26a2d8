#include "views/common/report_writer.h"

#include <algorithm>
#include <cmath>

#include <QAbstractItemModel>
#include <QAbstractTextDocumentLayout>
#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFontMetricsF>
#include <QLocale>
#include <QPageLayout>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QSaveFile>
#include <QTextDocument>

#include "core/io/builtin_data.h"

namespace cl::views {

namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("cl::views::ReportWriter", text);
}

constexpr double kDpi = 96.0;  // drawing units: 96-dpi logical pixels, like exports

QFont makeFont(double points, bool bold = false) {
    QFont f(QStringLiteral("Sans Serif"));
    f.setStyleHint(QFont::SansSerif);
    f.setPointSizeF(points);
    f.setBold(bold);
    return f;
}

const QColor kInk(0x20, 0x20, 0x20);
const QColor kMuted(0x66, 0x66, 0x66);
const QColor kRule(0xc8, 0xcc, 0xd2);
const QColor kHeaderFill(0xe8, 0xec, 0xf2);
const QColor kStripe(0xf6, 0xf7, 0xf9);

QString cellText(const QAbstractItemModel& model, int r, int c) {
    return model.data(model.index(r, c), Qt::DisplayRole).toString();
}

QString headerText(const QAbstractItemModel& model, int c) {
    return model.headerData(c, Qt::Horizontal, Qt::DisplayRole).toString();
}

double widestWord(const QFontMetricsF& fm, const QString& text) {
    double widest = 0.0;
    for (const QString& word : text.split(QLatin1Char(' '), Qt::SkipEmptyParts))
        widest = std::max(widest, fm.horizontalAdvance(word));
    return widest;
}

constexpr double kMillimetre = kDpi / 25.4;
constexpr double kSideMargin = 18 * kMillimetre;

// Lays the report out twice: once without a painter to count pages, then for real.
class Layout {
public:
    Layout(QPaintDevice* device, QPainter* painter, QPdfWriter* writer, const QRectF& content, int pages,
           const QString& title)
        : m_device(device),
          m_painter(painter),
          m_writer(writer),
          m_content(content),
          m_pages(pages),
          m_title(title),
          m_y(content.top()) {}

    int page() const { return m_page; }
    double width() const { return m_content.width(); }
    double remaining() const { return m_content.bottom() - m_y; }

    void newPage() {
        footer();
        if (m_writer && m_painter) m_writer->newPage();
        ++m_page;
        m_y = m_content.top();
    }
    void ensure(double height) {
        if (height > remaining() && m_y > m_content.top()) newPage();
    }
    void space(double h) { m_y = std::min(m_y + h, m_content.bottom()); }

    double textHeight(const QFont& font, const QString& text, int flags) const {
        const QFontMetricsF fm(font, m_device);
        return fm.boundingRect(QRectF(0, 0, width(), 1e6), flags | Qt::TextWordWrap, text).height();
    }

    void text(const QFont& font, const QColor& color, const QString& text, double indent = 0.0) {
        const int flags = Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap;
        const QFontMetricsF fm(font, m_device);
        const QRectF box(m_content.left() + indent, 0, width() - indent, 1e6);
        const double h = fm.boundingRect(box, flags, text).height();
        ensure(h);
        if (m_painter) {
            m_painter->setFont(font);
            m_painter->setPen(color);
            m_painter->drawText(QRectF(box.left(), m_y, box.width(), h + 1), flags, text);
        }
        m_y += h;
    }

    void heading(const QString& text, double keepWith) {
        const QFont font = makeFont(13, true);
        const QFontMetricsF fm(font, m_device);
        ensure(fm.height() * 2.0 + keepWith);
        space(fm.height() * 0.8);
        this->text(font, kInk, text);
        space(fm.height() * 0.3);
    }

    void rule() {
        if (m_painter) {
            m_painter->setPen(QPen(kRule, 1.0));
            m_painter->drawLine(QPointF(m_content.left(), m_y), QPointF(m_content.right(), m_y));
        }
        space(1.0);
    }

    void table(const QAbstractItemModel& model) {
        const int rows = model.rowCount(), cols = model.columnCount();
        if (cols == 0) return;
        const ReportTableLayout shape = layoutReportTable(model, width(), m_device);
        const QFont body = makeFont(shape.pointSize), bold = makeFont(shape.pointSize, true);
        const double pad = shape.padding;
        const QVector<double>& widths = shape.columnWidths;

        auto drawHeader = [&] {
            ensure(shape.headerHeight + (rows > 0 ? shape.rowHeights[0] : 0.0));
            if (m_painter) {
                m_painter->fillRect(QRectF(m_content.left(), m_y, tableWidth(widths), shape.headerHeight),
                                    kHeaderFill);
                m_painter->setFont(bold);
                m_painter->setPen(kInk);
                double x = m_content.left();
                for (int c = 0; c < cols; ++c) {
                    m_painter->drawText(QRectF(x + pad, m_y, widths[c] - 2 * pad, shape.headerHeight),
                                        shape.flags(c, true) | Qt::AlignVCenter, headerText(model, c));
                    x += widths[c];
                }
            }
            m_y += shape.headerHeight;
        };
        drawHeader();
        for (int r = 0; r < rows; ++r) {
            const double rowHeight = shape.rowHeights[r];
            if (rowHeight > remaining()) {
                newPage();
                drawHeader();
            }
            if (m_painter) {
                if (r % 2 == 1)
                    m_painter->fillRect(QRectF(m_content.left(), m_y, tableWidth(widths), rowHeight),
                                        kStripe);
                m_painter->setFont(body);
                m_painter->setPen(kInk);
                double x = m_content.left();
                for (int c = 0; c < cols; ++c) {
                    // Whole, never elided: the layout made every cell wide or tall enough.
                    const QRectF cell(x + pad, m_y, widths[c] - 2 * pad, rowHeight);
                    m_painter->drawText(cell, shape.flags(c, false) | Qt::AlignVCenter,
                                        cellText(model, r, c));
                    x += widths[c];
                }
                m_painter->setPen(QPen(kRule, 0.8));
                m_painter->drawLine(QPointF(m_content.left(), m_y + rowHeight),
                                    QPointF(m_content.left() + tableWidth(widths), m_y + rowHeight));
            }
            m_y += rowHeight;
        }
    }

    void html(const QString& html) {
        if (html.isEmpty()) return;
        QTextDocument doc;
        doc.documentLayout()->setPaintDevice(m_device);
        doc.setDefaultFont(makeFont(10));
        doc.setHtml(html);
        doc.setTextWidth(width());
        double done = 0.0;
        const double total = doc.size().height();
        ensure(std::min(total, m_content.height()));
        // Taller than the space left: continue on the next pages, clipped at the page foot.
        while (done < total) {
            const double slice = std::min(total - done, remaining());
            if (m_painter) {
                m_painter->save();
                m_painter->translate(m_content.left(), m_y - done);
                doc.drawContents(m_painter, QRectF(0, done, width(), slice));
                m_painter->restore();
            }
            done += slice;
            m_y += slice;
            if (done < total) newPage();
        }
    }

    void painting(const PaintFunction& paint, double height) {
        ensure(height);
        height = std::min(height, remaining());
        if (m_painter && paint) {
            const QRectF area(m_content.left(), m_y, width(), height);
            m_painter->save();
            m_painter->setClipRect(area);
            paint(*m_painter, area);
            m_painter->restore();
            m_painter->setPen(QPen(kRule, 0.8));
            m_painter->setBrush(Qt::NoBrush);
            m_painter->drawRect(area);
        }
        m_y += height;
    }

    void finish() { footer(); }

private:
    static double tableWidth(const QVector<double>& widths) {
        double w = 0.0;
        for (double x : widths) w += x;
        return w;
    }

    void footer() {
        if (!m_painter) return;
        const QFont font = makeFont(8);
        const QFontMetricsF fm(font, m_device);
        const QRectF band(m_content.left(), m_content.bottom() + fm.height() * 1.2, width(), fm.height());
        m_painter->setFont(font);
        m_painter->setPen(kMuted);
        m_painter->drawText(band, Qt::AlignLeft | Qt::AlignVCenter,
                            fm.elidedText(m_title, Qt::ElideRight, width() * 0.6));
        m_painter->drawText(band, Qt::AlignRight | Qt::AlignVCenter,
                            tr("Page %1 of %2").arg(m_page).arg(m_pages));
    }

    QPaintDevice* m_device;
    QPainter* m_painter;
    QPdfWriter* m_writer;
    QRectF m_content;
    int m_pages;
    QString m_title;
    int m_page = 1;
    double m_y;
};

}  // namespace

int ReportTableLayout::flags(int column, bool header) const {
    // Headers and run names (the first column) wrap between words; values never wrap.
    const int align = column == 0 ? Qt::AlignLeft : Qt::AlignRight;
    if (column == 0 && !header && namesBreakAnywhere) return align | Qt::TextWrapAnywhere;
    return align | (column == 0 || header ? int(Qt::TextWordWrap) : 0);
}

double reportContentWidth() {
    return QPageSize(QPageSize::A4).sizePoints().width() / 72.0 * kDpi - 2 * kSideMargin;
}

ReportTableLayout layoutReportTable(const QAbstractItemModel& model, double width, QPaintDevice* device) {
    const int rows = model.rowCount(), cols = model.columnCount();
    ReportTableLayout shape;
    if (cols == 0) return shape;
    for (double points : {9.0, 8.0, 7.5, 7.0}) {
        const QFont body = makeFont(points), bold = makeFont(points, true);
        const QFontMetricsF fm(body, device), fmb(bold, device);
        const double pad = fm.averageCharWidth() * 0.8;
        // Narrowest that keeps every value and header word whole, and widest wanted (one line).
        QVector<double> least(cols, 0.0), wanted(cols, 0.0);
        for (int c = 0; c < cols; ++c) {
            const QString header = headerText(model, c);
            least[c] = widestWord(fmb, header);
            wanted[c] = fmb.horizontalAdvance(header);
            for (int r = 0; r < rows; ++r) {
                const QString text = cellText(model, r, c);
                least[c] = std::max(least[c], c == 0 ? widestWord(fm, text) : fm.horizontalAdvance(text));
                wanted[c] = std::max(wanted[c], fm.horizontalAdvance(text));
            }
            least[c] += 2 * pad + 1;
            wanted[c] += 2 * pad + 1;
        }
        double leastTotal = 0.0, wantedTotal = 0.0;
        for (int c = 0; c < cols; ++c) {
            leastTotal += least[c];
            wantedTotal += wanted[c];
        }
        if (leastTotal > width && points > 7.0) continue;
        shape.pointSize = points;
        shape.padding = pad;
        shape.columnWidths = least;
        // The room left goes to the columns that wrap, in proportion to what they lack; all
        // of them get their one-line width if the page has room for it.
        const double extra = width - leastTotal;
        if (extra > 0.0) {
            const double lacking = wantedTotal - leastTotal;
            for (int c = 0; c < cols; ++c)
                shape.columnWidths[c] +=
                    lacking > extra ? (wanted[c] - least[c]) * extra / lacking
                                    : (wanted[c] - least[c]) + (extra - lacking) * wanted[c] / wantedTotal;
        } else if (extra < 0.0) {
            // Not even 7 points fit: the run names give way (they wrap anywhere).
            shape.columnWidths[0] = std::max(fm.averageCharWidth() * 6, least[0] + extra);
            shape.namesBreakAnywhere = true;
        }
        auto heightOf = [&](const QFontMetricsF& metrics, const QString& text, int c, bool header) {
            const QRectF box(0, 0, shape.columnWidths[c] - 2 * pad, 1e6);
            return metrics.boundingRect(box, shape.flags(c, header), text).height();
        };
        shape.headerHeight = fmb.height();
        for (int c = 0; c < cols; ++c)
            shape.headerHeight = std::max(shape.headerHeight, heightOf(fmb, headerText(model, c), c, true));
        shape.headerHeight += fm.height() * 0.6;
        shape.rowHeights.clear();
        for (int r = 0; r < rows; ++r) {
            double h = fm.height();
            for (int c = 0; c < cols; ++c) h = std::max(h, heightOf(fm, cellText(model, r, c), c, false));
            shape.rowHeights << h + fm.height() * 0.6;
        }
        break;
    }
    return shape;
}

namespace {

void layoutReport(Layout& layout, const ReportContent& content, const QString& generated) {
    layout.text(makeFont(20, true), kInk, content.title.isEmpty() ? tr("Comparison report") : content.title);
    layout.space(4);
    layout.text(makeFont(9), kMuted, generated);
    layout.space(8);
    layout.rule();

    if (!content.scenarioDescriptions.isEmpty()) {
        layout.heading(tr("Scenarios"), 40);
        const QFont body = makeFont(10);
        for (const QString& description : content.scenarioDescriptions) {
            layout.text(body, kInk, QStringLiteral("\u2022  ") + description, 0.0);
            layout.space(4);
        }
    }
    if (content.summaryTable && content.summaryTable->columnCount() > 0) {
        layout.heading(tr("Summary"), 60);
        layout.table(*content.summaryTable);
    }
    for (const ReportSection& section : content.sections) {
        const double paintHeight = section.paint ? layout.width() * section.aspect : 0.0;
        layout.heading(section.heading, section.paint ? paintHeight : 40);
        layout.html(section.html);
        if (section.paint) layout.painting(section.paint, paintHeight);
    }
    layout.finish();
}

}  // namespace

bool writeReport(const QString& path, const ReportContent& content, QString* error) {
    auto fail = [&](const QString& message) {
        if (error) *error = message;
        return false;
    };
    const QString native = QDir::toNativeSeparators(path);
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return fail(tr("Cannot write the report \u201c%1\u201d: %2").arg(native, file.errorString()));
    {
        QPdfWriter pdf(&file);
        pdf.setResolution(int(kDpi));
        pdf.setPageLayout(
            QPageLayout(QPageSize(QPageSize::A4), QPageLayout::Portrait, QMarginsF(0, 0, 0, 0)));
        pdf.setTitle(content.title);
        pdf.setCreator(QStringLiteral("ClusterLoom %1").arg(QString::fromStdString(cl::engineVersion())));
        const double mm = kMillimetre;
        const QRectF page(0, 0, pdf.width(), pdf.height());
        const QRectF body = page.adjusted(kSideMargin, 18 * mm, -kSideMargin, -22 * mm);
        const QString generated =
            tr("Generated %1 with ClusterLoom %2")
                .arg(QLocale().toString(QDateTime::currentDateTime(), QLocale::LongFormat),
                     QString::fromStdString(cl::engineVersion()));

        Layout measure(&pdf, nullptr, nullptr, body, 0, content.title);
        layoutReport(measure, content, generated);
        const int pages = measure.page();

        QPainter painter;
        if (!painter.begin(&pdf)) {
            file.cancelWriting();
            return fail(tr("Could not start the PDF document \u201c%1\u201d").arg(native));
        }
        painter.setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
        Layout draw(&pdf, &painter, &pdf, body, pages, content.title);
        layoutReport(draw, content, generated);
        painter.end();
    }
    if (!file.commit())
        return fail(tr("Could not write the report \u201c%1\u201d: %2").arg(native, file.errorString()));
    return true;
}

bool writeReport(const QString& path, const QString& title, const QStringList& scenarioDescriptions,
                 const QAbstractItemModel* summaryTable, const QList<PaintFunction>& charts,
                 const QStringList& chartTitles, QString* error) {
    ReportContent content;
    content.title = title;
    content.scenarioDescriptions = scenarioDescriptions;
    content.summaryTable = summaryTable;
    for (qsizetype i = 0; i < charts.size(); ++i)
        content.sections.push_back({i < chartTitles.size() ? chartTitles[i] : tr("Chart %1").arg(i + 1),
                                    QString(), charts[i], 0.62});
    return writeReport(path, content, error);
}

}  // namespace cl::views
