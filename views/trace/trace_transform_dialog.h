#pragma once
// Builds a list of trace transforms (docs/architecture.md section 8.4) over a base trace with
// typed inputs per step, and previews the result live: job count and before/after histograms.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <QDialog>
#include <QString>
#include <QVector>

#include "core/model/trace.h"

class QComboBox;
class QDoubleSpinBox;
class QCheckBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;
class QSpinBox;
class QStackedWidget;
class QTimer;
class QToolButton;

namespace cl::views {

class TraceHistograms;

class TraceTransformDialog : public QDialog {
    Q_OBJECT

public:
    enum class Kind { Scale, AllAtZero, Window, Subsample, Models, Tasks, CapGpus };

    struct Step {
        Kind kind = Kind::Scale;
        double factor = 2.0;           // Scale
        double from_hours = 0.0;       // Window
        double to_hours = 24.0;        // Window
        bool open_end = false;         // Window: T1 = inf
        int count = 1;                 // Subsample
        std::uint64_t seed = 1;        // Subsample, Models, Tasks
        QString mix;                   // Models
        QVector<double> task_weights;  // Tasks, in muriTaskCatalog().taskNames() order
        int cap = 8;                   // CapGpus
    };

    explicit TraceTransformDialog(std::shared_ptr<const cl::Trace> base, QWidget* parent = nullptr);

    // The specs of the steps, in order, as applyTransforms() takes them.
    std::vector<std::string> specs() const;
    // The base trace with every step applied (previewed now if an edit is pending); null
    // while a step is invalid.
    std::shared_ptr<cl::Trace> result() const;
    QString errorText() const { return m_error; }
    bool isValid() const { return m_error.isEmpty() && m_result != nullptr; }

    // A step of this kind with defaults fitted to the base trace, appended and selected.
    void addStep(Kind kind);
    // Parses a spec such as "scale=2" into a typed step; false when it is not one.
    bool addStepFromSpec(const QString& spec);
    void removeStep(int index);
    void moveStep(int from, int to);
    int stepCount() const { return static_cast<int>(m_steps.size()); }
    const Step& step(int index) const { return m_steps[index]; }
    // Replaces the parameters of a step (kind included) as the editors would.
    void setStep(int index, const Step& step);

    static QString kindName(Kind kind);
    static std::string specOf(const Step& step);

public slots:
    // Applies the steps now (edits are otherwise previewed after a short pause).
    void refreshPreview();

private:
    QWidget* buildEditors();
    void loadEditors();
    void storeEditors();
    void stepsChanged();
    int current() const;

    std::shared_ptr<const cl::Trace> m_base;
    std::shared_ptr<cl::Trace> m_result;
    QVector<Step> m_steps;
    QString m_error;
    bool m_loading = false;

    QListWidget* m_list = nullptr;
    QToolButton* m_add = nullptr;
    QToolButton* m_remove = nullptr;
    QToolButton* m_up = nullptr;
    QToolButton* m_down = nullptr;
    QStackedWidget* m_editors = nullptr;
    QDoubleSpinBox* m_factor = nullptr;
    QDoubleSpinBox* m_from = nullptr;
    QDoubleSpinBox* m_to = nullptr;
    QCheckBox* m_openEnd = nullptr;
    QSpinBox* m_count = nullptr;
    QSpinBox* m_sampleSeed = nullptr;
    QLineEdit* m_mix = nullptr;
    QSpinBox* m_mixSeed = nullptr;
    QVector<QDoubleSpinBox*> m_taskWeights;
    QSpinBox* m_taskSeed = nullptr;
    QSpinBox* m_cap = nullptr;
    QLineEdit* m_specLine = nullptr;
    QLabel* m_status = nullptr;
    TraceHistograms* m_histograms = nullptr;
    QPushButton* m_ok = nullptr;
    QTimer* m_debounce = nullptr;
};

}  // namespace cl::views
