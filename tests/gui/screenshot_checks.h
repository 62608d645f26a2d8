#pragma once
// Screenshots in the GUI suites: pictures are written into a temporary folder of the suite (fixed
// /tmp names clashed when suites ran in parallel), and every picture is checked for what it must
// show: not null, the expected size, not blank (more than one colour), and a colour that must be
// there (a series, job or GPU-type colour, or the text colour of the palette).
//
// To keep the pictures for a look, set CLUSTERLOOM_KEEP_SCREENSHOTS=1: the folder is then kept
// and its path printed.
#include <QColor>
#include <QImage>
#include <QPixmap>
#include <QSet>
#include <QTemporaryDir>
#include <QWidget>
#include <QtTest>

#include <cstdlib>
#include <optional>

namespace cl::test {

class ScreenshotDir {
public:
    ScreenshotDir() {
        if (qEnvironmentVariableIntValue("CLUSTERLOOM_KEEP_SCREENSHOTS") == 1) {
            dir_.setAutoRemove(false);
            qInfo("screenshots kept in %s", qPrintable(dir_.path()));
        }
    }
    bool isValid() const { return dir_.isValid(); }
    QString path(const QString& name) const { return dir_.filePath(name); }

private:
    QTemporaryDir dir_;
};

// Pixels whose colour is within `tolerance` (per channel) of `colour`.
inline int pixelsNear(const QImage& image, const QColor& colour, int tolerance = 0) {
    const QImage img = image.convertToFormat(QImage::Format_ARGB32);
    const QRgb want = colour.rgb();
    int count = 0;
    for (int y = 0; y < img.height(); ++y) {
        const QRgb* line = reinterpret_cast<const QRgb*>(img.constScanLine(y));
        for (int x = 0; x < img.width(); ++x) {
            const QRgb p = line[x];
            if (std::abs(qRed(p) - qRed(want)) <= tolerance &&
                std::abs(qGreen(p) - qGreen(want)) <= tolerance &&
                std::abs(qBlue(p) - qBlue(want)) <= tolerance)
                ++count;
        }
    }
    return count;
}

// Distinct colours (alpha ignored), counting up to `limit`.
inline int distinctColours(const QImage& image, int limit = 64) {
    const QImage img = image.convertToFormat(QImage::Format_ARGB32);
    QSet<QRgb> seen;
    for (int y = 0; y < img.height() && seen.size() < limit; ++y) {
        const QRgb* line = reinterpret_cast<const QRgb*>(img.constScanLine(y));
        for (int x = 0; x < img.width() && seen.size() < limit; ++x) seen.insert(line[x] | 0xff000000u);
    }
    return static_cast<int>(seen.size());
}

// The picture is not null, has `size`, is not blank and shows `must_show` on at least
// `min_pixels` pixels (exactly that colour, or within `tolerance` per channel).
inline void expectDrawn(const QImage& image, const QSize& size,
                        const std::optional<QColor>& must_show = std::nullopt, int min_pixels = 20,
                        int tolerance = 0) {
    QVERIFY2(!image.isNull(), "the picture is null");
    QCOMPARE(image.size(), size);
    QVERIFY2(distinctColours(image) > 1, "the picture is blank (one colour)");
    if (must_show) {
        const int n = pixelsNear(image, *must_show, tolerance);
        QVERIFY2(n >= min_pixels, qPrintable(QStringLiteral("colour %1 on %2 pixels, expected at least %3")
                                                 .arg(must_show->name())
                                                 .arg(n)
                                                 .arg(min_pixels)));
    }
}

// Grabs the widget, checks the picture (expectDrawn, at the widget's size) and saves it in `dir`.
inline void shoot(QWidget& widget, const ScreenshotDir& dir, const QString& name,
                  const std::optional<QColor>& must_show = std::nullopt, int min_pixels = 20,
                  int tolerance = 0) {
    const QImage image = widget.grab().toImage();
    expectDrawn(image, widget.size() * widget.devicePixelRatio(), must_show, min_pixels, tolerance);
    if (QTest::currentTestFailed()) return;
    const QString path = dir.path(name);
    QVERIFY2(image.save(path), qPrintable(path));
}

// Checks an image drawn by the test (an export) and saves it in `dir`.
inline void keep(const QImage& image, const QSize& size, const ScreenshotDir& dir, const QString& name,
                 const std::optional<QColor>& must_show = std::nullopt, int min_pixels = 20,
                 int tolerance = 0) {
    expectDrawn(image, size, must_show, min_pixels, tolerance);
    if (QTest::currentTestFailed()) return;
    const QString path = dir.path(name);
    QVERIFY2(image.save(path), qPrintable(path));
}

}  // namespace cl::test
