#pragma once
// The public datasets (docs/architecture.md section 10) live outside the repository, in the folder
// the build names CLUSTERLOOM_SHARED_DATA_DIR. A test that needs them fails when they are missing:
// a skipped test counts as passed, so a CI machine without the data would pass without running
// them. A machine that has no datasets on purpose sets CLUSTERLOOM_ALLOW_MISSING_DATA=1 to skip.
#include <filesystem>
#include <string>

#include <QString>
#include <QtTest>

#define REQUIRE_SHARED_DATA(path)                                                                \
    do {                                                                                         \
        const std::string required_path_ = (path);                                               \
        if (!std::filesystem::exists(required_path_)) {                                          \
            const QString why_ =                                                                 \
                QStringLiteral("public dataset not found: %1 (docs/architecture.md section 10)") \
                    .arg(QString::fromStdString(required_path_));                                \
            if (qEnvironmentVariableIntValue("CLUSTERLOOM_ALLOW_MISSING_DATA") == 1)             \
                QSKIP(qPrintable(why_));                                                         \
            QFAIL(qPrintable(why_));                                                             \
        }                                                                                        \
    } while (0)
