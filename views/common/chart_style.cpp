#include "views/common/chart_style.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>

namespace cl::views {

namespace {

template <std::size_t N>
QColor wrapped(const std::array<QColor, N>& colors, int index) {
    constexpr int n = static_cast<int>(N);
    return colors[static_cast<std::size_t>(((index % n) + n) % n)];
}

}  // namespace

double relativeLuminance(const QColor& color) {
    auto linear = [](double c) { return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4); };
    return 0.2126 * linear(color.redF()) + 0.7152 * linear(color.greenF()) + 0.0722 * linear(color.blueF());
}

double contrastRatio(const QColor& a, const QColor& b) {
    const double la = relativeLuminance(a), lb = relativeLuminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

QColor seriesColor(int index) {
    // Okabe & Ito's blue, orange, bluish green, vermillion, reddish purple, sky blue, grey and
    // yellow, with orange, sky blue and yellow darkened (same hue) and purple a touch, to a
    // relative luminance of at most 0.28: 3:1 against white needs at most 0.30, 3:1 against the
    // dark base at least 0.14. Then crimson, violet, lime, brown, magenta, teal and indigo in
    // the same band, hues the first eight leave free.
    static const std::array<QColor, 15> colors = {
        QColor(0x00, 0x72, 0xB2), QColor(0xC1, 0x85, 0x00), QColor(0x00, 0x9E, 0x73),
        QColor(0xD5, 0x5E, 0x00), QColor(0xCB, 0x75, 0xA4), QColor(0x1D, 0x99, 0xDE),
        QColor(0x7F, 0x7F, 0x7F), QColor(0x9C, 0x93, 0x0C), QColor(0xD7, 0x27, 0x28),
        QColor(0x94, 0x67, 0xBD), QColor(0x5E, 0x9F, 0x1E), QColor(0x9C, 0x60, 0x53),
        QColor(0xCF, 0x1A, 0x94), QColor(0x00, 0x83, 0x8F), QColor(0x5C, 0x6B, 0xC0)};
    const int n = static_cast<int>(colors.size());
    const int i = std::abs(index);
    if (i < n) return colors[static_cast<std::size_t>(i)];
    // Past the palette: the golden angle never returns to a hue, and the lightness is searched
    // for the luminance in the middle of the band, so the colour is new and as readable.
    const double hue = std::fmod(25.0 + (i - n) * 137.50776405, 360.0) / 360.0;
    double lo = 0.0, hi = 1.0;
    QColor color;
    for (int step = 0; step < 24; ++step) {
        const double mid = 0.5 * (lo + hi);
        color = QColor::fromHslF(static_cast<float>(hue), 0.75f, static_cast<float>(mid));
        (relativeLuminance(color) < 0.21 ? lo : hi) = mid;
    }
    return color;
}

QColor categoryColor(int index) {
    static const std::array<QColor, 10> colors = {QColor(0x4E, 0x79, 0xA7), QColor(0xF2, 0x8E, 0x2B),
                                                  QColor(0xE1, 0x57, 0x59), QColor(0x76, 0xB7, 0xB2),
                                                  QColor(0x59, 0xA1, 0x4F), QColor(0xED, 0xC9, 0x48),
                                                  QColor(0xB0, 0x7A, 0xA1), QColor(0xFF, 0x9D, 0xA7),
                                                  QColor(0x9C, 0x75, 0x5F), QColor(0xBA, 0xB0, 0xAC)};
    return wrapped(colors, index);
}

bool isDarkColor(const QColor& fill) {
    return 0.299 * fill.redF() + 0.587 * fill.greenF() + 0.114 * fill.blueF() < 0.55;
}

QColor textColorOn(const QColor& fill) {
    return isDarkColor(fill) ? QColor(Qt::white) : QColor(0x10, 0x10, 0x10);
}

}  // namespace cl::views
