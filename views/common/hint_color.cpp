#include "views/common/hint_color.h"

#include <QPalette>

#include "views/common/chart_style.h"

namespace cl::views {

namespace {

// Above the 4.5 minimum, so that rounding to whole 8-bit channels cannot drop below it.
constexpr double kMargin = 0.1;

// from composited over background, then moved a fraction t of the way to `to`.
QColor mix(const QColor& from, const QColor& to, double t) {
    auto channel = [t](int a, int b) { return static_cast<int>(a + (b - a) * t + 0.5); };
    return QColor(channel(from.red(), to.red()), channel(from.green(), to.green()),
                  channel(from.blue(), to.blue()));
}

QColor opaqueOver(const QColor& color, const QColor& background) {
    return mix(background, QColor(color.red(), color.green(), color.blue()), color.alphaF());
}

}  // namespace

QColor hintTextColor(const QPalette& palette) {
    const QColor window = palette.color(QPalette::Window);
    const QColor text = opaqueOver(palette.color(QPalette::WindowText), window);
    // From 60 % of the way from window to text upwards: the first blend that reads well.
    for (int step = 12; step <= 20; ++step) {
        const QColor candidate = mix(window, text, step / 20.0);
        if (contrastRatio(candidate, window) >= 4.5 + kMargin) return candidate;
    }
    return text;
}

QColor readableOn(const QColor& accent, const QColor& background, double minimum) {
    const QColor base = opaqueOver(accent, background);
    // Towards whichever end of the scale stands out more from the background.
    const QColor white(Qt::white), black(Qt::black);
    const QColor target = contrastRatio(white, background) > contrastRatio(black, background) ? white : black;
    for (int step = 0; step <= 20; ++step) {
        const QColor candidate = mix(base, target, step / 20.0);
        if (contrastRatio(candidate, background) >= minimum + kMargin) return candidate;
    }
    return target;
}

QColor errorTextColor(const QPalette& palette) {
    return readableOn(QColor(0xb3, 0x26, 0x1e), palette.color(QPalette::Window));
}

}  // namespace cl::views
