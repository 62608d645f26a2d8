#include "core/runs/live_what_if_cache.h"

#include <algorithm>

namespace cl {

WhatIfCache::WhatIfCache(std::size_t capacity) : m_capacity(std::max<std::size_t>(1, capacity)) {}

const WhatIfFigures* WhatIfCache::find(const std::string& key) {
    const auto it = m_index.find(key);
    if (it == m_index.end()) return nullptr;
    m_entries.splice(m_entries.begin(), m_entries, it->second);
    return &it->second->second;
}

void WhatIfCache::put(const std::string& key, WhatIfFigures figures) {
    if (const auto it = m_index.find(key); it != m_index.end()) {
        it->second->second = std::move(figures);
        m_entries.splice(m_entries.begin(), m_entries, it->second);
        return;
    }
    m_entries.emplace_front(key, std::move(figures));
    m_index.emplace(key, m_entries.begin());
    while (m_index.size() > m_capacity) {
        m_index.erase(m_entries.back().first);
        m_entries.pop_back();
    }
}

void WhatIfCache::clear() {
    m_index.clear();
    m_entries.clear();
}

}  // namespace cl
