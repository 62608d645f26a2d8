#pragma once
// Asks for the name under which a cluster is stored as a new cluster. Stored clusters never
// change (scenarios and runs refer to them, docs/architecture.md section 9.3), so saving edits
// of a stored cluster stores a copy, and an imported layout that carries a stored cluster's
// name with other servers is a new cluster too; either needs a name no stored cluster has. The
// dialog refuses an empty or taken name, saying why, and OK stays disabled until it is valid.
#include <QDialog>
#include <QString>
#include <QStringList>

class QLabel;
class QLineEdit;
class QPushButton;

namespace cl::views {

class ClusterNameDialog : public QDialog {
    Q_OBJECT

public:
    // What is being stored: it only changes what the dialog says.
    enum class Purpose { SaveEdits, Import };

    // current: the name the cluster has now; taken: the names of the stored clusters.
    ClusterNameDialog(const QString& current, const QStringList& taken, QWidget* parent = nullptr,
                      Purpose purpose = Purpose::SaveEdits);

    // The first of "NAME 2", "NAME 3", ... that is not taken (NAME without a trailing number).
    static QString suggestedName(const QString& current, const QStringList& taken);

    QString name() const;
    // Why name() cannot be used, or empty.
    QString problem() const;
    // The name field is the child "clusterName", the Save button "clusterNameOk".

    void accept() override;

private:
    void validate();

    QStringList m_taken;
    QLineEdit* m_name = nullptr;
    QLabel* m_problem = nullptr;
    QPushButton* m_ok = nullptr;
};

}  // namespace cl::views
