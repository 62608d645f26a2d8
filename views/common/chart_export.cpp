#include "views/common/chart_export.h"

#include <cmath>

#include <QApplication>
#include <QBuffer>
#include <QComboBox>
#include <QCoreApplication>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontMetricsF>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QPageLayout>
#include <QPageSize>
#include <QPainter>
#include <QPalette>
#include <QPdfWriter>
#include <QPushButton>
#include <QRegularExpression>
#include <QSaveFile>
#include <QSettings>
#include <QSpinBox>
#include <QSvgGenerator>
#include <QWidget>

#include "views/common/export_folder.h"
#include "views/common/hint_color.h"

namespace cl::views {

namespace {

constexpr double kLogicalDpi = 96.0;
constexpr int kMaxPixels = 20000;  // per side; beyond that QImage allocation is unreasonable

QString tr(const char* text) {
    return QCoreApplication::translate("cl::views::ChartExport", text);
}

QString nativePath(const QString& path) {
    return QDir::toNativeSeparators(path);
}

bool fail(QString* error, const QString& message) {
    if (error) *error = message;
    return false;
}

QSizeF logicalSize(const ExportOptions& options) {
    const double scale = kLogicalDpi / options.dpi;
    return {options.size.width() * scale, options.size.height() * scale};
}

// The page of an export is the theme's paper, like the views drawn on it: a white page
// around a dark timeline would show a white title band above it.
QColor paperColor() {
    return QApplication::palette().color(QPalette::Base);
}

// Draws the title and the painting in logical coordinates on an already scaled painter.
void paintContent(QPainter& painter, const ExportOptions& options, const PaintFunction& paint) {
    const QRectF page(QPointF(0, 0), logicalSize(options));
    painter.fillRect(page, paperColor());
    const QRectF body = drawExportTitle(painter, page, options.title);
    painter.save();
    painter.setClipRect(body);
    paint(painter, body);
    painter.restore();
}

bool commit(QSaveFile& file, const QString& path, QString* error) {
    if (!file.commit())
        return fail(error,
                    tr("Could not write \u201c%1\u201d: %2").arg(nativePath(path), file.errorString()));
    return true;
}

bool openSaveFile(QSaveFile& file, const QString& path, QString* error) {
    if (!file.open(QIODevice::WriteOnly))
        return fail(error, tr("Cannot write \u201c%1\u201d: %2").arg(nativePath(path), file.errorString()));
    return true;
}

bool writePng(const QString& path, const ExportOptions& options, const PaintFunction& paint, QString* error) {
    QImage image(options.size, QImage::Format_ARGB32_Premultiplied);
    if (image.isNull())
        return fail(error, tr("Cannot export \u201c%1\u201d: not enough memory for %2 \u00d7 %3 pixels")
                               .arg(nativePath(path))
                               .arg(options.size.width())
                               .arg(options.size.height()));
    // Paint at 96 dpi so that point-sized fonts resolve like on screen, then scale; the
    // requested DPI is stored afterwards and only tells viewers the physical size.
    const int logical_dpm = qRound(kLogicalDpi / 0.0254);
    image.setDotsPerMeterX(logical_dpm);
    image.setDotsPerMeterY(logical_dpm);
    image.fill(paperColor());
    {
        QPainter painter(&image);
        painter.setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing |
                               QPainter::SmoothPixmapTransform);
        painter.scale(options.dpi / kLogicalDpi, options.dpi / kLogicalDpi);
        paintContent(painter, options, paint);
    }
    const int dpm = qRound(options.dpi / 0.0254);
    image.setDotsPerMeterX(dpm);
    image.setDotsPerMeterY(dpm);

    QSaveFile file(path);
    if (!openSaveFile(file, path, error)) return false;
    if (!image.save(&file, "PNG")) {
        file.cancelWriting();
        return fail(error, tr("Could not encode \u201c%1\u201d as PNG").arg(nativePath(path)));
    }
    return commit(file, path, error);
}

bool writeSvg(const QString& path, const ExportOptions& options, const PaintFunction& paint, QString* error) {
    QSaveFile file(path);
    if (!openSaveFile(file, path, error)) return false;
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    QSvgGenerator svg;
    svg.setOutputDevice(&buffer);
    svg.setResolution(qRound(kLogicalDpi));
    svg.setSize(options.size);
    svg.setViewBox(QRect(QPoint(0, 0), options.size));
    svg.setTitle(options.title.isEmpty() ? QFileInfo(path).completeBaseName() : options.title);
    svg.setDescription(tr("Exported from ClusterLoom"));
    {
        QPainter painter;
        if (!painter.begin(&svg)) {
            file.cancelWriting();
            return fail(error, tr("Could not start the SVG document \u201c%1\u201d").arg(nativePath(path)));
        }
        painter.setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
        painter.scale(options.dpi / kLogicalDpi, options.dpi / kLogicalDpi);
        paintContent(painter, options, paint);
    }
    // QSvgGenerator states the size in millimetres, which renderers convert at different
    // DPIs; pixels mean the same everywhere.
    QByteArray bytes = buffer.data();
    static const QRegularExpression sizeAttributes(QStringLiteral(R"(width="[\d.]+mm" height="[\d.]+mm")"));
    const QString svgText = QString::fromUtf8(bytes);
    const auto match = sizeAttributes.match(svgText);
    if (match.hasMatch()) {
        QString fixed = svgText;
        fixed.replace(match.capturedStart(), match.capturedLength(),
                      QStringLiteral("width=\"%1\" height=\"%2\"")
                          .arg(options.size.width())
                          .arg(options.size.height()));
        bytes = fixed.toUtf8();
    }
    if (file.write(bytes) != bytes.size()) {
        file.cancelWriting();
        return fail(error,
                    tr("Could not write \u201c%1\u201d: %2").arg(nativePath(path), file.errorString()));
    }
    return commit(file, path, error);
}

bool writePdf(const QString& path, const ExportOptions& options, const PaintFunction& paint, QString* error) {
    QSaveFile file(path);
    if (!openSaveFile(file, path, error)) return false;
    {
        QPdfWriter pdf(&file);
        // The page is the requested size at the requested DPI; drawing units are 96-dpi
        // logical pixels, which the vector output does not care about.
        pdf.setResolution(qRound(kLogicalDpi));
        const QSizeF inches(options.size.width() / options.dpi, options.size.height() / options.dpi);
        const QPageSize pageSize(inches, QPageSize::Inch, QString(), QPageSize::ExactMatch);
        pdf.setPageLayout(QPageLayout(pageSize, QPageLayout::Portrait, QMarginsF(0, 0, 0, 0)));
        pdf.setTitle(options.title);
        pdf.setCreator(QStringLiteral("ClusterLoom"));
        QPainter painter;
        if (!painter.begin(&pdf)) {
            file.cancelWriting();
            return fail(error, tr("Could not start the PDF document \u201c%1\u201d").arg(nativePath(path)));
        }
        painter.setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
        // Pixel-exact page: scale the logical content to the device's page rectangle.
        const QSizeF device(pdf.width(), pdf.height());
        const QSizeF logical = logicalSize(options);
        painter.scale(device.width() / logical.width(), device.height() / logical.height());
        paintContent(painter, options, paint);
        painter.end();
    }
    return commit(file, path, error);
}

}  // namespace

std::optional<ExportFormat> exportFormatForPath(const QString& path, QString* error) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("png")) return ExportFormat::Png;
    if (suffix == QLatin1String("svg")) return ExportFormat::Svg;
    if (suffix == QLatin1String("pdf")) return ExportFormat::Pdf;
    if (error)
        *error = tr("Cannot export \u201c%1\u201d: the file name must end in .png, .svg or .pdf")
                     .arg(nativePath(path));
    return std::nullopt;
}

QRectF drawExportTitle(QPainter& painter, const QRectF& rect, const QString& title) {
    if (title.isEmpty()) return rect;
    QFont font = painter.font();
    font.setPointSizeF(11.0);
    font.setBold(true);
    const QFontMetricsF fm(font, painter.device());
    const double pad = fm.height() * 0.5;
    const QRectF band(rect.left() + pad, rect.top() + pad, rect.width() - 2 * pad, fm.height());
    painter.save();
    painter.setFont(font);
    painter.setPen(QApplication::palette().color(QPalette::Text));
    painter.drawText(band, Qt::AlignLeft | Qt::AlignVCenter,
                     fm.elidedText(title, Qt::ElideRight, band.width()));
    painter.restore();
    return rect.adjusted(0, band.bottom() - rect.top() + pad * 0.5, 0, 0);
}

bool exportPainting(const QString& path, const ExportOptions& options, const PaintFunction& paint,
                    QString* error) {
    const std::optional<ExportFormat> format = exportFormatForPath(path, error);
    if (!format) return false;
    if (options.size.width() < 1 || options.size.height() < 1 || options.size.width() > kMaxPixels ||
        options.size.height() > kMaxPixels)
        return fail(error,
                    tr("Cannot export \u201c%1\u201d: the size %2 \u00d7 %3 px is outside 1\u2013%4 px")
                        .arg(nativePath(path))
                        .arg(options.size.width())
                        .arg(options.size.height())
                        .arg(kMaxPixels));
    if (!(options.dpi >= 10.0 && options.dpi <= 2400.0))
        return fail(error,
                    tr("Cannot export \u201c%1\u201d: the resolution %2 dpi is outside 10\u20132400 dpi")
                        .arg(nativePath(path))
                        .arg(options.dpi));
    switch (*format) {
        case ExportFormat::Png:
            return writePng(path, options, paint, error);
        case ExportFormat::Svg:
            return writeSvg(path, options, paint, error);
        case ExportFormat::Pdf:
            return writePdf(path, options, paint, error);
    }
    return false;
}

void renderWidget(QPainter& painter, const QRectF& rect, QWidget* widget) {
    // Lay the widget out at the target's logical size so that axes and labels adapt
    // instead of being stretched, render it, then give it its own size back.
    const QSize original = widget->size();
    const QSize target = rect.size().toSize().expandedTo(widget->minimumSizeHint()).expandedTo(QSize(1, 1));
    widget->resize(target);
    // Layouts (including those of graphics scenes) are deferred; settle them before painting.
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    const double scale = std::min(rect.width() / target.width(), rect.height() / target.height());
    painter.save();
    painter.translate(rect.topLeft());
    painter.scale(scale, scale);
    widget->render(&painter, QPoint(), QRegion(), QWidget::DrawChildren);
    painter.restore();
    widget->resize(original);
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
}

bool exportWidget(const QString& path, QWidget* widget, const ExportOptions& options, QString* error) {
    if (!widget)
        return fail(error, tr("Cannot export \u201c%1\u201d: nothing to export").arg(nativePath(path)));
    return exportPainting(
        path, options,
        [widget](QPainter& painter, const QRectF& rect) {
            if (auto* paintable = dynamic_cast<ExportPaintable*>(widget))
                paintable->paint(painter, rect);
            else
                renderWidget(painter, rect, widget);
        },
        error);
}

// ---------------------------------------------------------------------------------------

namespace {

struct Preset {
    const char* name;
    int width;
    int height;
    double dpi;
    const char* tip;
};

const Preset kPresets[] = {
    {QT_TRANSLATE_NOOP("cl::views::ExportDialog", "Report (1600x1000 @ 150 dpi)"), 1600, 1000, 150.0,
     QT_TRANSLATE_NOOP("cl::views::ExportDialog", "A figure for a written report: 10.7 \u00d7 6.7 in")},
    {QT_TRANSLATE_NOOP("cl::views::ExportDialog", "Slide (1920x1080)"), 1920, 1080, 96.0,
     QT_TRANSLATE_NOOP("cl::views::ExportDialog", "A full-screen 16:9 presentation slide")},
    {QT_TRANSLATE_NOOP("cl::views::ExportDialog", "Paper column (3.5 in @ 300 dpi)"), 1050, 750, 300.0,
     QT_TRANSLATE_NOOP("cl::views::ExportDialog", "One column of a two-column paper: 3.5 \u00d7 2.5 in")},
};

const char kSettingsGroup[] = "export";

}  // namespace

ExportDialog::ExportDialog(QWidget* parent) : QDialog(parent) {
    setWindowTitle(tr("Export"));
    auto* form = new QFormLayout;

    m_path = new QLineEdit(this);
    m_path->setToolTip(tr("File to write; its suffix (.png, .svg, .pdf) chooses the format"));
    auto* browse = new QPushButton(tr("&Browse\u2026"), this);
    browse->setToolTip(tr("Choose the file to write"));
    auto* pathRow = new QHBoxLayout;
    pathRow->addWidget(m_path, 1);
    pathRow->addWidget(browse);
    form->addRow(tr("&File:"), pathRow);
    if (auto* label = qobject_cast<QLabel*>(form->labelForField(pathRow))) label->setBuddy(m_path);

    m_format = new QLabel(this);
    m_format->setToolTip(tr("Format chosen from the file name"));
    form->addRow(tr("Format:"), m_format);

    m_preset = new QComboBox(this);
    m_preset->setToolTip(tr("Common sizes; editing width, height or DPI switches to Custom"));
    m_preset->addItem(tr("Custom"));
    for (const Preset& p : kPresets) {
        m_preset->addItem(QCoreApplication::translate("cl::views::ExportDialog", p.name));
        m_preset->setItemData(m_preset->count() - 1,
                              QCoreApplication::translate("cl::views::ExportDialog", p.tip), Qt::ToolTipRole);
    }
    form->addRow(tr("&Preset:"), m_preset);

    m_width = new QSpinBox(this);
    m_width->setRange(16, kMaxPixels);
    m_width->setSuffix(tr(" px"));
    m_width->setToolTip(tr("Width of the exported image in pixels"));
    m_height = new QSpinBox(this);
    m_height->setRange(16, kMaxPixels);
    m_height->setSuffix(tr(" px"));
    m_height->setToolTip(tr("Height of the exported image in pixels"));
    auto* sizeRow = new QHBoxLayout;
    sizeRow->addWidget(m_width, 1);
    sizeRow->addWidget(new QLabel(QStringLiteral("\u00d7"), this));
    sizeRow->addWidget(m_height, 1);
    form->addRow(tr("&Size:"), sizeRow);
    if (auto* label = qobject_cast<QLabel*>(form->labelForField(sizeRow))) label->setBuddy(m_width);

    m_dpi = new QDoubleSpinBox(this);
    m_dpi->setRange(10.0, 2400.0);
    m_dpi->setDecimals(0);
    m_dpi->setSuffix(tr(" dpi"));
    m_dpi->setToolTip(
        tr("Resolution: sets the physical size (PDF page, PNG metadata) and scales text and lines"));
    form->addRow(tr("&Resolution:"), m_dpi);

    m_physical = new QLabel(this);
    m_physical->setToolTip(tr("Physical size at this resolution"));
    form->addRow(tr("Physical size:"), m_physical);

    m_title = new QLineEdit(this);
    m_title->setToolTip(tr("Title drawn above the chart and stored in the file; leave empty for none"));
    form->addRow(tr("&Title:"), m_title);

    m_error = new QLabel(this);
    m_error->setObjectName(QStringLiteral("exportError"));
    m_error->setWordWrap(true);
    m_error->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_error->hide();

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("&Export"));
    buttons->button(QDialogButtonBox::Ok)->setToolTip(tr("Write the file"));
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_error);
    layout->addWidget(buttons);

    connect(buttons, &QDialogButtonBox::accepted, this, &ExportDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &ExportDialog::reject);
    connect(browse, &QPushButton::clicked, this, &ExportDialog::browse);
    connect(m_path, &QLineEdit::textChanged, this, &ExportDialog::updateFormatLabel);
    m_path->setObjectName(QStringLiteral("exportPath"));
    buttons->button(QDialogButtonBox::Ok)->setObjectName(QStringLiteral("exportButton"));
    connect(m_preset, &QComboBox::activated, this, &ExportDialog::applyPreset);
    auto toCustom = [this] {
        const int i = m_preset->currentIndex();
        if (i > 0) {
            const Preset& p = kPresets[i - 1];
            if (m_width->value() != p.width || m_height->value() != p.height || m_dpi->value() != p.dpi)
                m_preset->setCurrentIndex(0);
        }
        updateFormatLabel();
    };
    connect(m_width, &QSpinBox::valueChanged, this, toCustom);
    connect(m_height, &QSpinBox::valueChanged, this, toCustom);
    connect(m_dpi, &QDoubleSpinBox::valueChanged, this, toCustom);

    loadSettings();
    updateFormatLabel();
    const QFontMetrics fm(font());
    m_path->setMinimumWidth(fm.averageCharWidth() * 50);
}

void ExportDialog::setPath(const QString& path) {
    m_path->setText(path);
}
QString ExportDialog::path() const {
    return m_path->text().trimmed();
}

void ExportDialog::setBaseName(const QString& name) {
    const QFileInfo current(path());
    const QString suffix = current.suffix().isEmpty() ? QStringLiteral("png") : current.suffix();
    QString file = name;
    file.replace(QLatin1Char('/'), QLatin1Char('-'));
    m_path->setText(QDir(current.absolutePath()).filePath(file + QLatin1Char('.') + suffix));
}

void ExportDialog::setExporter(Exporter exporter) {
    m_exporter = std::move(exporter);
}

QString ExportDialog::errorText() const {
    return m_error->isHidden() ? QString() : m_error->text();
}

void ExportDialog::showError(const QString& message) {
    QPalette errors = palette();
    errors.setColor(QPalette::WindowText, errorTextColor(palette()));
    m_error->setPalette(errors);
    m_error->setText(message);
    m_error->setVisible(!message.isEmpty());
    if (message.isEmpty()) return;
    m_path->setFocus();
    adjustSize();
}

void ExportDialog::setOptions(const ExportOptions& options) {
    const QSignalBlocker b1(m_width), b2(m_height), b3(m_dpi);
    m_width->setValue(options.size.width());
    m_height->setValue(options.size.height());
    m_dpi->setValue(options.dpi);
    m_title->setText(options.title);
    m_preset->setCurrentIndex(0);
    for (int i = 0; i < int(std::size(kPresets)); ++i)
        if (kPresets[i].width == options.size.width() && kPresets[i].height == options.size.height() &&
            kPresets[i].dpi == options.dpi)
            m_preset->setCurrentIndex(i + 1);
    updateFormatLabel();
}

ExportOptions ExportDialog::options() const {
    return {QSize(m_width->value(), m_height->value()), m_dpi->value(), m_title->text().trimmed()};
}

bool ExportDialog::ask(QString* path, ExportOptions* options) {
    if (exec() != QDialog::Accepted) return false;
    if (path) *path = this->path();
    if (options) *options = this->options();
    return true;
}

void ExportDialog::accept() {
    QString error;
    if (path().isEmpty()) return showError(tr("Enter the file to write."));
    if (!exportFormatForPath(path(), &error)) return showError(error);
    // A folder that is not there yet (a fresh account's Documents, a new subfolder typed into the
    // path) is made rather than refused.
    if (!ensureFolderFor(path(), &error)) return showError(error);
    if (m_exporter) {
        QApplication::setOverrideCursor(Qt::WaitCursor);
        const bool written = m_exporter(path(), options(), &error);
        QApplication::restoreOverrideCursor();
        if (!written) {
            const QString file = nativePath(path());
            if (error.isEmpty()) error = tr("the file could not be written");
            return showError(
                error.contains(file) ? error : tr("Cannot export to \u201c%1\u201d: %2").arg(file, error));
        }
    }
    showError(QString());
    saveSettings();
    QDialog::accept();
}

void ExportDialog::browse() {
    const QString chosen = QFileDialog::getSaveFileName(
        this, tr("Export to"), path(), tr("PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)"));
    if (!chosen.isEmpty()) m_path->setText(chosen);
}

void ExportDialog::applyPreset(int index) {
    if (index < 1 || index > int(std::size(kPresets))) return;
    const Preset& p = kPresets[index - 1];
    const QSignalBlocker b1(m_width), b2(m_height), b3(m_dpi);
    m_width->setValue(p.width);
    m_height->setValue(p.height);
    m_dpi->setValue(p.dpi);
    updateFormatLabel();
}

void ExportDialog::updateFormatLabel() {
    const std::optional<ExportFormat> format = exportFormatForPath(path());
    QString text = tr("choose a file ending in .png, .svg or .pdf");
    if (format == ExportFormat::Png) text = tr("PNG image");
    if (format == ExportFormat::Svg) text = tr("SVG drawing");
    if (format == ExportFormat::Pdf) text = tr("PDF document (one page)");
    m_format->setText(text);
    const double dpi = m_dpi->value();
    m_physical->setText(tr("%1 \u00d7 %2 in (%3 \u00d7 %4 mm)")
                            .arg(m_width->value() / dpi, 0, 'f', 2)
                            .arg(m_height->value() / dpi, 0, 'f', 2)
                            .arg(m_width->value() / dpi * 25.4, 0, 'f', 0)
                            .arg(m_height->value() / dpi * 25.4, 0, 'f', 0));
}

void ExportDialog::loadSettings() {
    QSettings settings;
    settings.beginGroup(kSettingsGroup);
    ExportOptions o;
    o.size = QSize(settings.value("width", 1600).toInt(), settings.value("height", 1000).toInt());
    o.dpi = settings.value("dpi", 150.0).toDouble();
    o.title = settings.value("title").toString();
    setOptions(o);
    const QString dir = settings.value("directory").toString();
    const QString suffix = settings.value("suffix", "png").toString();
    const QString file = tr("chart") + '.' + suffix;
    m_path->setText(dir.isEmpty() ? defaultExportPath(file) : QDir(dir).filePath(file));
}

void ExportDialog::saveSettings() const {
    QSettings settings;
    settings.beginGroup(kSettingsGroup);
    const ExportOptions o = options();
    settings.setValue("width", o.size.width());
    settings.setValue("height", o.size.height());
    settings.setValue("dpi", o.dpi);
    settings.setValue("title", o.title);
    settings.setValue("directory", QFileInfo(path()).absolutePath());
    settings.setValue("suffix", QFileInfo(path()).suffix().toLower());
}

}  // namespace cl::views
