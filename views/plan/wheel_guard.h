#pragma once
// Inputs in a scrolling panel take the mouse wheel only once they have focus (click or Tab): a
// wheel turned to scroll the panel must not change whichever combo or spin box passes under the
// pointer. The wheel over an unfocused input scrolls the panel instead.
class QWidget;

namespace cl::views {

// Gives `input` Qt::StrongFocus (no focus by wheel) and ignores its wheel events while it does
// not have focus, so they go on to the scroll area around it.
void takeWheelOnlyWithFocus(QWidget* input);

}  // namespace cl::views
