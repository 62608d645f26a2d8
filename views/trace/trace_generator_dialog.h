#pragma once
// Edits a GeneratorConfig (core/workload/trace_generator.h) and previews the generated
// trace live; invalid settings show the generator's message and disable OK.
#include <memory>

#include <QDialog>
#include <QString>

#include "core/model/model_profile.h"
#include "core/model/trace.h"
#include "core/workload/trace_generator.h"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTimer;

namespace cl::views {

class TraceHistograms;

class TraceGeneratorDialog : public QDialog {
    Q_OBJECT

public:
    // The profile set (may be null) supplies models, batch sizes and iterations; it must
    // outlive the dialog.
    explicit TraceGeneratorDialog(const cl::ProfileSet* profiles, QWidget* parent = nullptr);

    // The configuration the controls describe (a mix or split that does not parse is left
    // empty; errorText() names it).
    cl::GeneratorConfig config() const;
    void setConfig(const cl::GeneratorConfig& config);
    // The trace of the current configuration (the preview when it is up to date); null
    // while the configuration is invalid.
    std::shared_ptr<cl::Trace> trace() const;
    QString errorText() const { return m_error; }
    bool isValid() const { return m_error.isEmpty(); }

public slots:
    // Generates the preview now (edits are otherwise previewed after a short pause).
    void refreshPreview();

private:
    void scheduleRefresh();
    // Throws std::invalid_argument naming the field that does not parse.
    cl::GeneratorConfig parsedConfig() const;

    const cl::ProfileSet* m_profiles;
    std::shared_ptr<cl::Trace> m_trace;
    QString m_error;
    bool m_loading = false;

    QSpinBox* m_jobs = nullptr;
    QSpinBox* m_seed = nullptr;
    QComboBox* m_arrival = nullptr;
    QDoubleSpinBox* m_rate = nullptr;
    QComboBox* m_duration = nullptr;
    QLineEdit* m_gpuWeights = nullptr;
    QSpinBox* m_maxGpus = nullptr;
    QComboBox* m_modelSource = nullptr;
    QLineEdit* m_models = nullptr;
    QLineEdit* m_tasks = nullptr;
    QComboBox* m_catalog = nullptr;
    QCheckBox* m_taskShare = nullptr;
    QLineEdit* m_name = nullptr;
    QLabel* m_status = nullptr;
    TraceHistograms* m_histograms = nullptr;
    QPushButton* m_ok = nullptr;
    QTimer* m_debounce = nullptr;
};

}  // namespace cl::views
