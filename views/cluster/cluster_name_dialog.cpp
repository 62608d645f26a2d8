#include "views/cluster/cluster_name_dialog.h"

#include <QDialogButtonBox>
#include <QFontMetrics>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QVBoxLayout>

namespace cl::views {

ClusterNameDialog::ClusterNameDialog(const QString& current, const QStringList& taken, QWidget* parent,
                                     Purpose purpose)
    : QDialog(parent), m_taken(taken) {
    const bool import = purpose == Purpose::Import;
    setWindowTitle(import ? tr("Import cluster as") : tr("Save cluster as"));
    const QString why =
        import ? tr("The workspace already holds a different cluster named <b>%1</b>. Stored clusters do not "
                    "change, because scenarios and runs refer to them, so the imported layout is stored as a "
                    "new cluster. Name it:")
               : tr("The workspace already holds a cluster named <b>%1</b>. Stored clusters do not change, "
                    "because scenarios and runs refer to them, so your edits are stored as a new cluster. "
                    "Name it:");
    auto* intro = new QLabel(why.arg(current.toHtmlEscaped()), this);
    intro->setWordWrap(true);
    m_name = new QLineEdit(suggestedName(current, taken), this);
    m_name->setObjectName(QStringLiteral("clusterName"));
    m_name->selectAll();
    m_problem = new QLabel(this);
    m_problem->setObjectName(QStringLiteral("nameProblem"));
    m_problem->setWordWrap(true);
    QPalette warning = m_problem->palette();
    warning.setColor(QPalette::WindowText, QColor(0xd9, 0x3a, 0x2b));
    m_problem->setPalette(warning);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_ok = buttons->button(QDialogButtonBox::Ok);
    m_ok->setObjectName(QStringLiteral("clusterNameOk"));
    m_ok->setText(import ? tr("&Import") : tr("&Save"));
    connect(buttons, &QDialogButtonBox::accepted, this, &ClusterNameDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_name, &QLineEdit::textChanged, this, &ClusterNameDialog::validate);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addWidget(m_name);
    layout->addWidget(m_problem);
    layout->addWidget(buttons);
    setMinimumWidth(QFontMetrics(font()).averageCharWidth() * 60);
    validate();
}

QString ClusterNameDialog::suggestedName(const QString& current, const QStringList& taken) {
    static const QRegularExpression trailingNumber(QStringLiteral(R"(\s+\d+$)"));
    QString stem = current.trimmed();
    stem.remove(trailingNumber);
    if (stem.isEmpty()) stem = tr("cluster");
    for (int n = 2;; ++n) {
        const QString candidate = QStringLiteral("%1 %2").arg(stem).arg(n);
        if (!taken.contains(candidate)) return candidate;
    }
}

QString ClusterNameDialog::name() const {
    return m_name->text().trimmed();
}

QString ClusterNameDialog::problem() const {
    if (name().isEmpty()) return tr("Enter a name for the cluster.");
    if (m_taken.contains(name()))
        return tr("A cluster named \u201c%1\u201d is already stored in this workspace; choose another name.")
            .arg(name());
    return {};
}

void ClusterNameDialog::validate() {
    const QString why = problem();
    m_problem->setText(why);
    m_problem->setVisible(!why.isEmpty());
    m_ok->setEnabled(why.isEmpty());
}

void ClusterNameDialog::accept() {
    if (!problem().isEmpty()) return;
    QDialog::accept();
}

}  // namespace cl::views
