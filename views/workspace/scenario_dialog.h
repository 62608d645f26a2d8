#pragma once
// Editing the settings of a new scenario, or of a what-if copy of an existing one.
// The inputs offered are those stored in the workspace; OK stays disabled, with the reason
// shown, while the settings would be refused by the store or the policy registry.
#include <vector>

#include <QDialog>
#include <QSet>
#include <QString>

#include "core/store/scenario_store.h"

class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QDoubleSpinBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QSpinBox;

namespace cl::views {

class ScenarioDialog : public QDialog {
    Q_OBJECT

public:
    enum class Mode { New, Duplicate };

    // For Mode::Duplicate, source is the scenario copied (named in the title); spec is the
    // pre-filled copy. Reads the store's inputs and scenario names once, here.
    ScenarioDialog(cl::ScenarioStore& store, const cl::ScenarioSpec& spec, Mode mode,
                   const QString& source = {}, QWidget* parent = nullptr);

    cl::ScenarioSpec spec() const;
    // Why OK is disabled; empty when the settings are acceptable.
    QString problem() const { return m_problem; }
    bool isValid() const { return m_problem.isEmpty(); }

    // base, or "base (2)", "base (3)", ... whichever is not a scenario name in the store yet.
    static QString uniqueName(cl::ScenarioStore& store, const QString& base);

private:
    // The constructor's sections, in the order their widgets are created.
    void readStore(cl::ScenarioStore& store, std::vector<StoredItem>& clusters,
                   std::vector<StoredItem>& traces, std::vector<StoredItem>& profiles);
    QLabel* createIntro(Mode mode, const QString& source);
    void createInputPickers(const cl::ScenarioSpec& spec, const std::vector<StoredItem>& clusters,
                            const std::vector<StoredItem>& traces, const std::vector<StoredItem>& profiles);
    void createPolicyPickers(const cl::ScenarioSpec& spec);
    void createParameterEditors(const ScenarioParameters& p);
    void createSeedAndNotes(const cl::ScenarioSpec& spec);
    QFormLayout* settingsForm(const ScenarioParameters& p);
    void createProblemLabel();
    void createButtons(Mode mode);
    void connectValidation();

    void validate();
    QString findProblem() const;

    cl::ScenarioSpec m_base;  // fields the dialog does not edit (transforms) come from here
    QSet<QString> m_taken;
    QString m_problem;
    QString m_readError;

    QLineEdit* m_name = nullptr;
    QComboBox* m_cluster = nullptr;
    QComboBox* m_trace = nullptr;
    QComboBox* m_profiles = nullptr;
    QComboBox* m_policy = nullptr;
    QComboBox* m_conventions = nullptr;
    QDoubleSpinBox* m_load = nullptr;
    QSpinBox* m_servers = nullptr;
    QSpinBox* m_group = nullptr;
    QLineEdit* m_seed = nullptr;
    QCheckBox* m_reassign = nullptr;
    QPlainTextEdit* m_notes = nullptr;
    QLabel* m_problemLabel = nullptr;
    QDialogButtonBox* m_buttons = nullptr;
};

}  // namespace cl::views
