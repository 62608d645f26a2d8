#pragma once
// Workspace schema versions and their forward migrations. PRAGMA user_version holds the
// version; PRAGMA application_id marks the file as a ClusterLoom workspace.
#include <cstdint>

#include "core/store/sqlite_db.h"

namespace cl {

inline constexpr std::int32_t kWorkspaceApplicationId = 0x434c4f4d;  // "CLOM"

int latestWorkspaceSchema();
// Checks that the file is a workspace this build can read (throws StoreError otherwise,
// before anything is written), then applies the migrations up to target_version, each in
// its own transaction.
void prepareWorkspace(SqliteDb& db, int target_version);

}  // namespace cl
