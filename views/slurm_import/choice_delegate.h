#pragma once
// Edits a cell with a drop-down of the values the model offers for it (a QStringList under
// `choicesRole`); cells without choices get the usual line editor.
#include <QStyledItemDelegate>

namespace cl::views {

class ChoiceDelegate : public QStyledItemDelegate {
    Q_OBJECT

public:
    ChoiceDelegate(int choicesRole, QObject* parent = nullptr);

    QWidget* createEditor(QWidget* parent, const QStyleOptionViewItem& option,
                          const QModelIndex& index) const override;
    void setEditorData(QWidget* editor, const QModelIndex& index) const override;
    void setModelData(QWidget* editor, QAbstractItemModel* model, const QModelIndex& index) const override;

private:
    int m_role;
};

}  // namespace cl::views
