#pragma once
// One look for every chart and diagram: the colours that tell series and jobs apart, the text
// colour that stays legible on a fill, and the axis step (cl::niceStep). Backgrounds, text and
// grid lines come from the widget's QPalette so that light and dark themes both work.
#include <QColor>

#include "core/util/nice_step.h"

namespace cl::views {

// Series, runs, policies and jobs: Okabe & Ito's colour-blind-safe qualitative palette, its
// lightest members (orange, sky blue, yellow) toned to a mid luminance, seven more distinct
// hues at that luminance, then hues spaced by the golden angle. No two indices share a colour, and each has
// a contrast of at least 3:1 (non-text contrast, WCAG 2.1) against both the light theme's white
// and the dark theme's base, so a line never vanishes on either.
QColor seriesColor(int index);
// WCAG 2.1 relative luminance (0 black .. 1 white) and contrast ratio (1 .. 21).
double relativeLuminance(const QColor& color);
double contrastRatio(const QColor& a, const QColor& b);
// Many categories at once (models in the timeline): Tableau 10, whose neighbours stay distinct
// for colour-blind readers; wraps around after ten.
QColor categoryColor(int index);
// True when black text would be hard to read on `fill` (by its luma).
bool isDarkColor(const QColor& fill);
// White on dark fills, near-black on light ones.
QColor textColorOn(const QColor& fill);

}  // namespace cl::views
