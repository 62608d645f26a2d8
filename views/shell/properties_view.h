#pragma once
// Read-only details of what is selected in the workspace: a scenario's settings and inputs,
// a stored cluster or trace, a run's status and metrics. Reads the store; edits nothing.
#include <QTextBrowser>

namespace cl {
class ScenarioStore;
}

namespace cl::views {

class PropertiesView : public QTextBrowser {
    Q_OBJECT

public:
    explicit PropertiesView(QWidget* parent = nullptr);

    void setStore(cl::ScenarioStore* store);
    void showNothing();
    void showScenario(const QString& name);
    void showCluster(qint64 id);
    void showTrace(qint64 id);
    void showRun(qint64 id);
    // Shows the current subject again with what the store holds now (after runs finished).
    void refresh();

private:
    void showTable(const QString& title, const QList<QPair<QString, QString>>& rows);
    void showError(const QString& what, const QString& message);

    cl::ScenarioStore* m_store = nullptr;
    enum class Subject { Nothing, Scenario, Cluster, Trace, Run };
    Subject m_subject = Subject::Nothing;
    QString m_name;
    qint64 m_id = 0;
};

}  // namespace cl::views
