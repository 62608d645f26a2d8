#pragma once
// The undoable edits of a ClusterDocument. Each command keeps exactly what it needs to go
// both ways (the servers it inserts or erases, old and new values), not a cluster snapshot,
// except when the whole cluster is replaced.
#include <utility>
#include <vector>

#include <QList>
#include <QUndoCommand>

#include "core/model/cluster.h"
#include "views/cluster/cluster_document.h"

namespace cl::views {

using IndexedServers = std::vector<std::pair<int, cl::Server>>;  // ascending final indices

// Inserts (or, for the removing subclasses, erases) a set of servers at given positions.
// Inserted servers become the selection; undoing restores the selection from before.
class ServerListCommand : public QUndoCommand {
public:
    enum class Kind { Insert, Erase };
    ServerListCommand(ClusterDocument* document, IndexedServers servers, Kind kind, const QString& text);
    void redo() override;
    void undo() override;

private:
    void insert();
    void erase();

    ClusterDocument* m_document;
    IndexedServers m_servers;
    Kind m_kind;
    QList<int> m_selectionBefore;
};

class AddServersCommand : public ServerListCommand {
public:
    AddServersCommand(ClusterDocument* document, IndexedServers servers);
};

class DuplicateServersCommand : public ServerListCommand {
public:
    DuplicateServersCommand(ClusterDocument* document, IndexedServers copies);
};

class AddRackCommand : public ServerListCommand {
public:
    AddRackCommand(ClusterDocument* document, const QString& rack, IndexedServers servers);
};

class RemoveServersCommand : public ServerListCommand {
public:
    RemoveServersCommand(ClusterDocument* document, IndexedServers servers);
};

class RemoveRackCommand : public ServerListCommand {
public:
    RemoveRackCommand(ClusterDocument* document, const QString& rack, IndexedServers servers);
};

// Sets properties of several servers at once; `after` holds the new values of the same
// indices as `before`. The selection is left alone.
class SetServerPropertiesCommand : public QUndoCommand {
public:
    SetServerPropertiesCommand(ClusterDocument* document, IndexedServers before, IndexedServers after,
                               const ServerChanges& changes);
    // The edit also changes the cluster's partition list (a typed partition it did not declare).
    void declarePartitions(std::vector<cl::Partition> before, std::vector<cl::Partition> after);
    void redo() override;
    void undo() override;

protected:
    ClusterDocument* m_document;
    IndexedServers m_before;
    IndexedServers m_after;
    bool m_declares = false;
    std::vector<cl::Partition> m_partitionsBefore;
    std::vector<cl::Partition> m_partitionsAfter;
};

// Changes the cluster's partition list and the servers that list a renamed or removed partition
// (`servers_after` holds the new values of the same indices as `servers_before`).
class PartitionsCommand : public QUndoCommand {
public:
    PartitionsCommand(ClusterDocument* document, std::vector<cl::Partition> before,
                      std::vector<cl::Partition> after, IndexedServers servers_before,
                      IndexedServers servers_after, const QString& text);
    void redo() override;
    void undo() override;

private:
    ClusterDocument* m_document;
    std::vector<cl::Partition> m_before;
    std::vector<cl::Partition> m_after;
    IndexedServers m_serversBefore;
    IndexedServers m_serversAfter;
};

class RenameServerCommand : public SetServerPropertiesCommand {
public:
    RenameServerCommand(ClusterDocument* document, int index, const QString& new_name);
};

class RenameClusterCommand : public QUndoCommand {
public:
    RenameClusterCommand(ClusterDocument* document, const QString& new_name);
    void redo() override;
    void undo() override;

private:
    ClusterDocument* m_document;
    std::string m_before;
    std::string m_after;
};

// Replaces everything, e.g. when a preset cluster is loaded; the selection is cleared.
class ReplaceClusterCommand : public QUndoCommand {
public:
    ReplaceClusterCommand(ClusterDocument* document, cl::Cluster cluster, const QString& text);
    void redo() override;
    void undo() override;

private:
    ClusterDocument* m_document;
    cl::Cluster m_before;
    cl::Cluster m_after;
    QList<int> m_selectionBefore;
};

// "Change GPU count of 3 servers", "Change GPU type and GPU count of 'node3'".
QString propertiesUndoText(const ServerChanges& changes, const IndexedServers& servers);

}  // namespace cl::views
