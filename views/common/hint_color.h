#pragma once
// Colours for text that is quieter than the body text (a hint beside a field, a summary line) or
// that warns (a field's error), taken from the palette so that both themes work and a theme switch
// can recompute them. Each keeps WCAG 2.1's 4.5:1 contrast for normal text (success criterion
// 1.4.3) against the window colour it is drawn on: the palette's placeholder colour does not
// (Qt's default is the text at half opacity, about 3.5:1 on the light theme's window).
#include <QColor>

class QPalette;

namespace cl::views {

// The window text blended towards the window colour, as far as 4.5:1 on the window allows.
QColor hintTextColor(const QPalette& palette);

// accent lightened on a dark background or darkened on a light one until it has at least
// minimum contrast on it (unchanged when it has already).
QColor readableOn(const QColor& accent, const QColor& background, double minimum = 4.5);

// The error red of the field messages, readable on the palette's window colour.
QColor errorTextColor(const QPalette& palette);

}  // namespace cl::views
