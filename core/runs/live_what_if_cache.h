#pragma once
// The live what-if's figures by whatIfKey (core/runs/live_what_if.h), the least recently used
// dropped beyond a capacity: undo and redo in the cluster editor find the figures of a cluster
// seen before without simulating it again (docs/architecture.md section 1.8).
#include <cstddef>
#include <list>
#include <string>
#include <unordered_map>
#include <utility>

#include "core/runs/live_what_if.h"

namespace cl {

class WhatIfCache {
public:
    explicit WhatIfCache(std::size_t capacity = 256);

    // The figures stored under key (now the most recently used), or nullptr. The pointer
    // holds until the next put or clear.
    const WhatIfFigures* find(const std::string& key);
    void put(const std::string& key, WhatIfFigures figures);
    void clear();
    std::size_t size() const { return m_index.size(); }
    std::size_t capacity() const { return m_capacity; }

private:
    using Entry = std::pair<std::string, WhatIfFigures>;
    std::size_t m_capacity;
    std::list<Entry> m_entries;  // most recently used first
    std::unordered_map<std::string, std::list<Entry>::iterator> m_index;
};

}  // namespace cl
