#pragma once
// What a test expects an error to say: the message of the exception a call throws, and a
// check that it names every part (file, line, field, value).
#include <QtTest>

#include <stdexcept>

#include "core/io/parse_error.h"

namespace cl::test {

// The message of the exception of type E thrown by fn ("" when nothing was thrown).
template <class E = std::exception, class Fn>
QString errorOf(Fn fn) {
    try {
        fn();
    } catch (const E& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

template <class Fn>
QString parseError(Fn fn) {
    return errorOf<ParseError>(fn);
}

template <class Fn>
QString invalidArgument(Fn fn) {
    return errorOf<std::invalid_argument>(fn);
}

inline void expectError(const QString& msg, const QStringList& parts) {
    QVERIFY2(!msg.isEmpty(), "expected an error");
    for (const auto& p : parts) QVERIFY2(msg.contains(p), qPrintable("'" + p + "' not in: " + msg));
}

}  // namespace cl::test
