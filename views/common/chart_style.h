#pragma once
// One look for every chart and diagram: the colours that tell series and jobs apart, the text
// colour that stays legible on a fill, and the axis step (cl::niceStep). Backgrounds, text and
// grid lines come from the widget's QPalette so that light and dark themes both work.
#include <QColor>

#include "core/util/nice_step.h"

namespace cl::views {

// Series, runs, policies and jobs in small numbers: Okabe & Ito's colour-blind-safe qualitative
// palette (yellow last: weak on white), then grey; wraps around after eight.
QColor seriesColor(int index);
// Many categories at once (models in the timeline): Tableau 10, whose neighbours stay distinct
// for colour-blind readers; wraps around after ten.
QColor categoryColor(int index);
// True when black text would be hard to read on `fill` (by its luma).
bool isDarkColor(const QColor& fill);
// White on dark fills, near-black on light ones.
QColor textColorOn(const QColor& fill);

}  // namespace cl::views
