#pragma once
// The rules that match imported jobs to profiles (docs/architecture.md section 8.8) as an
// editable table: field (name, user, account, partition), regular expression and profile per
// row, first match wins; beside each rule how many jobs it matched in the last preview and, for
// a rule that cannot be used, why. The default profile for jobs no rule matches is kept here too.
#include <cstddef>
#include <optional>
#include <vector>

#include <QAbstractTableModel>
#include <QStringList>

#include "core/model/model_profile.h"
#include "core/workload/profile_rules.h"

namespace cl::views {

class ProfileRulesModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column { FieldColumn = 0, PatternColumn, ProfileColumn, MatchesColumn, ColumnCount };
    // The values an editor offers for a cell (QStringList): fields, or the set's profiles.
    static constexpr int ChoicesRole = Qt::UserRole + 1;

    explicit ProfileRulesModel(QObject* parent = nullptr);

    void setRules(const cl::ProfileRules& rules);
    // The rules as edited, with the default profile.
    cl::ProfileRules rules() const;
    void setDefaultProfile(const QString& profile);
    QString defaultProfile() const { return m_default; }

    // The profile set the rules refer to (must outlive the model, may be null); each rule is
    // checked against it again.
    void setProfiles(const cl::ProfileSet* profiles);
    QStringList profileNames() const;

    // Jobs each rule matched in the last preview (none: unknown, shown as a dash).
    void setMatchCounts(const std::optional<std::vector<std::size_t>>& counts);
    std::optional<std::size_t> matches(int row) const;
    // Why the rule cannot be used (its pattern is no regular expression, its profile is not in
    // the set); empty when it can.
    QString problem(int row) const;
    bool hasProblems() const;

    // A new rule after row (at the end for -1): field "name", pattern "", the default profile.
    int addRule(int after = -1);
    bool moveRule(int row, int to);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    bool removeRows(int row, int count, const QModelIndex& parent = {}) override;

signals:
    // The rules or the default profile changed (not the counts): time for a new preview.
    void rulesEdited();

private:
    struct Row {
        cl::ProfileRule rule;
        QString problem;
        std::optional<std::size_t> matches;
    };
    void check(Row& row) const;
    void checkAll();

    std::vector<Row> m_rows;
    QString m_default;
    const cl::ProfileSet* m_profiles = nullptr;
};

}  // namespace cl::views
