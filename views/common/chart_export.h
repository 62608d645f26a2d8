#pragma once
// Exporting any painting (a chart, the timeline, a whole view) to PNG, SVG or PDF at a
// chosen size and DPI. Shared by every view so that all exports look and fail alike.
//
// Coordinates: the paint callback always receives a rectangle in logical pixels at 96 dpi
// (size * 96 / dpi); the painter is scaled so that the output has exactly the requested
// pixel size. Widgets and fonts therefore keep their on-screen proportions at any DPI.
#include <functional>
#include <optional>

#include <QDialog>
#include <QRectF>
#include <QSize>
#include <QString>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPainter;
class QSpinBox;
class QWidget;

namespace cl::views {

enum class ExportFormat { Png, Svg, Pdf };

// The format for a file name's suffix (case-insensitive: .png, .svg, .pdf). Other suffixes
// give nullopt and, if error is given, a message naming the file and the valid suffixes.
std::optional<ExportFormat> exportFormatForPath(const QString& path, QString* error = nullptr);

struct ExportOptions {
    QSize size;  // output size in pixels (PDF: the page is size / dpi inches)
    double dpi = 96.0;
    QString title;  // drawn above the painting and stored as the document title
};

using PaintFunction = std::function<void(QPainter&, const QRectF&)>;

// Writes path atomically: on any failure nothing is written and an existing file stays as
// it was. Returns false with a message naming the file in *error. The page is filled with the
// application palette's base colour and the title drawn in its text colour, so an export in the
// dark theme is dark from edge to edge.
bool exportPainting(const QString& path, const ExportOptions& options, const PaintFunction& paint,
                    QString* error);

// A widget that draws itself for exports better than QWidget::render can (e.g. charts whose
// graphics-scene layout is deferred). exportWidget uses it when the widget implements it.
class ExportPaintable {
public:
    virtual ~ExportPaintable() = default;
    // Draws the widget's content into rect (logical pixels) of an export or report painter.
    virtual void paint(QPainter& painter, const QRectF& rect) = 0;
};

// Renders widget into the file: through ExportPaintable if it implements it, otherwise laid
// out at the logical target size with QWidget::render, then given its own size back.
bool exportWidget(const QString& path, QWidget* widget, const ExportOptions& options, QString* error);

// Renders widget into rect of an export or report painter, laid out at rect's size.
void renderWidget(QPainter& painter, const QRectF& rect, QWidget* widget);

// Draws options.title (if any) at the top of rect and returns the area left for the painting.
QRectF drawExportTitle(QPainter& painter, const QRectF& rect, const QString& title);

// Asks for file, size, DPI and title. Remembers the last values in QSettings; the first time it
// offers the Documents folder (defaultExportFolder). Export creates the file's folder when it is
// missing; any error (no file, a wrong suffix, a folder that cannot be made, a failed export)
// shows in the dialog, naming the file, and leaves the dialog open with what the user chose.
class ExportDialog : public QDialog {
    Q_OBJECT

public:
    // Writes the file; false with a message in *error.
    using Exporter = std::function<bool(const QString& path, const ExportOptions& options, QString* error)>;

    explicit ExportDialog(QWidget* parent = nullptr);

    void setPath(const QString& path);
    QString path() const;
    // Names the file (given without folder and suffix), keeping the path's folder and suffix (the
    // remembered ones).
    void setBaseName(const QString& name);
    void setOptions(const ExportOptions& options);
    ExportOptions options() const;
    // With an exporter, Export writes the file before the dialog closes, and a failure keeps it
    // open; without one the caller writes the file after ask() and reports failures itself.
    void setExporter(Exporter exporter);
    // The message shown under the fields, empty when there is none.
    QString errorText() const;

    // Runs the dialog; on acceptance stores the values and returns true.
    bool ask(QString* path, ExportOptions* options);

    void accept() override;

private:
    void showError(const QString& message);
    void browse();
    void applyPreset(int index);
    void updateFormatLabel();
    void loadSettings();
    void saveSettings() const;

    QLineEdit* m_path = nullptr;
    QLabel* m_format = nullptr;
    QComboBox* m_preset = nullptr;
    QSpinBox* m_width = nullptr;
    QSpinBox* m_height = nullptr;
    QDoubleSpinBox* m_dpi = nullptr;
    QLabel* m_physical = nullptr;
    QLineEdit* m_title = nullptr;
    QLabel* m_error = nullptr;
    Exporter m_exporter;
};

}  // namespace cl::views
