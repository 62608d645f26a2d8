#include "views/common/chart_style.h"

#include <array>

namespace cl::views {

namespace {

template <std::size_t N>
QColor wrapped(const std::array<QColor, N>& colors, int index) {
    constexpr int n = static_cast<int>(N);
    return colors[static_cast<std::size_t>(((index % n) + n) % n)];
}

}  // namespace

QColor seriesColor(int index) {
    static const std::array<QColor, 8> colors = {QColor(0x00, 0x72, 0xB2), QColor(0xE6, 0x9F, 0x00),
                                                 QColor(0x00, 0x9E, 0x73), QColor(0xD5, 0x5E, 0x00),
                                                 QColor(0xCC, 0x79, 0xA7), QColor(0x56, 0xB4, 0xE9),
                                                 QColor(0x7F, 0x7F, 0x7F), QColor(0xF0, 0xE4, 0x42)};
    return wrapped(colors, index);
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
