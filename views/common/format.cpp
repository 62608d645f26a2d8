#include "views/common/format.h"

#include <cmath>

#include <QLocale>

namespace cl::views {

namespace {

constexpr double kMinute = 60.0;
constexpr double kHour = 3600.0;
constexpr double kDay = 86400.0;

// One decimal below 100, none above, without a trailing ".0" for whole numbers below 10^4.
QString number(double value) {
    const QLocale locale;
    if (std::abs(value) >= 100.0) return locale.toString(std::round(value), 'f', 0);
    const double rounded = std::round(value * 10.0) / 10.0;
    if (rounded == std::round(rounded)) return locale.toString(rounded, 'f', 0);
    return locale.toString(rounded, 'f', 1);
}

}  // namespace

QString formatDecimal(double value, int decimals) {
    const QLocale locale;
    QString text = locale.toString(value, 'f', decimals);
    const QString point = locale.decimalPoint();
    if (decimals > 0 && text.contains(point)) {
        while (text.endsWith(locale.zeroDigit())) text.chop(1);
        if (text.endsWith(point)) text.chop(point.size());
    }
    return text;
}

QString formatDuration(double seconds) {
    if (std::isnan(seconds) || seconds < 0.0) return QStringLiteral("\u2013");
    if (std::isinf(seconds)) return QStringLiteral("\u221e");
    // Switch units where the smaller one would need three digits.
    if (seconds < 99.95) return number(seconds) + QStringLiteral(" s");
    if (seconds < 99.95 * kMinute) return number(seconds / kMinute) + QStringLiteral(" min");
    if (seconds < 2.0 * kDay) return number(seconds / kHour) + QStringLiteral(" h");
    return number(seconds / kDay) + QStringLiteral(" d");
}

QString formatDurationExact(double seconds) {
    if (std::isnan(seconds) || seconds < 0.0) return QStringLiteral("no value");
    const QLocale locale;
    const QString exact = locale.toString(seconds, 'f', seconds < 100.0 ? 2 : 0) + QStringLiteral(" s");
    if (seconds < 99.95) return exact;
    return exact + QStringLiteral(" (") + formatDuration(seconds) + QLatin1Char(')');
}

QString formatRunTime(double seconds) {
    if (!std::isfinite(seconds))
        return std::isnan(seconds) ? QStringLiteral("\u2013") : QStringLiteral("\u221e");
    const long long rounded = std::llround(std::abs(seconds));
    const long long days = rounded / static_cast<long long>(kDay);
    const long long rest = rounded % static_cast<long long>(kDay);
    const auto two = [](long long v) { return QStringLiteral("%1").arg(v, 2, 10, QLatin1Char('0')); };
    QString text = QStringLiteral("%1:%2:%3").arg(two(rest / 3600), two((rest % 3600) / 60), two(rest % 60));
    // No-break spaces: a wrapped tooltip keeps the day with its time.
    if (days > 0) text = QStringLiteral("%1\u00a0d\u00a0%2").arg(days).arg(text);
    return rounded > 0 && seconds < 0.0 ? QStringLiteral("-") + text : text;
}

QString formatPercent(double fraction) {
    if (std::isnan(fraction)) return QStringLiteral("\u2013");
    return QLocale().toString(fraction * 100.0, 'f', 1) + QStringLiteral(" %");
}

}  // namespace cl::views
