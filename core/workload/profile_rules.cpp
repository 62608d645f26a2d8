#include "core/workload/profile_rules.h"

#include <algorithm>
#include <fstream>
#include <regex>
#include <sstream>
#include <unordered_map>

#include "core/io/parse_error.h"

namespace cl {

namespace {

std::regex compile(const ProfileRule& rule, const std::string& file) {
    try {
        return std::regex(rule.pattern, std::regex::ECMAScript | std::regex::optimize);
    } catch (const std::regex_error& e) {
        throw ParseError(file, rule.line, "pattern",
                         "'" + rule.pattern + "' is not a regular expression (" + e.what() + ")");
    }
}

const std::string& fieldOf(const Job& job, const std::string& field) {
    if (field == "name") return job.name;
    if (field == "user") return job.user;
    if (field == "account") return job.account;
    return job.partition;
}

std::vector<std::string_view> words(std::string_view line) {
    std::vector<std::string_view> out;
    std::size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
        std::size_t j = i;
        while (j < line.size() && line[j] != ' ' && line[j] != '\t') ++j;
        if (j > i) out.push_back(line.substr(i, j - i));
        i = j;
    }
    return out;
}

}  // namespace

const std::vector<std::string>& profileRuleFields() {
    static const std::vector<std::string> fields = {"name", "user", "account", "partition"};
    return fields;
}

ProfileRules parseProfileRules(std::string_view text, const std::string& file) {
    ProfileRules out;
    int default_line = 0;
    int line_no = 0;
    std::size_t pos = 0;
    while (pos <= text.size()) {
        std::size_t end = text.find('\n', pos);
        if (end == std::string_view::npos) end = text.size();
        std::string_view line = text.substr(pos, end - pos);
        pos = end + 1;
        ++line_no;
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        const auto w = words(line);
        if (w.empty() || w[0].front() == '#') {
            if (end == text.size()) break;
            continue;
        }
        if (w[0] == "default") {
            if (w.size() != 2)
                throw ParseError(file, line_no, "default", "expected 'default PROFILE' (one profile name)");
            if (default_line)
                throw ParseError(
                    file, line_no, "default",
                    "a second default (the first is on line " + std::to_string(default_line) + ")");
            out.default_profile = std::string(w[1]);
            default_line = line_no;
        } else {
            const auto& fields = profileRuleFields();
            if (std::find(fields.begin(), fields.end(), w[0]) == fields.end())
                throw ParseError(
                    file, line_no, "field",
                    "'" + std::string(w[0]) +
                        "' is not a job field; a rule starts with name, user, account, partition "
                        "or default");
            if (w.size() != 3)
                throw ParseError(
                    file, line_no, "profile",
                    "expected 'FIELD PATTERN PROFILE' (a pattern cannot contain spaces: write \\s)");
            ProfileRule rule{std::string(w[0]), std::string(w[1]), std::string(w[2]), line_no};
            compile(rule, file);
            out.rules.push_back(std::move(rule));
        }
        if (end == text.size()) break;
    }
    return out;
}

ProfileRules readProfileRules(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw ParseError(path, 0, "", "cannot open the rule file");
    std::ostringstream text;
    text << in.rdbuf();
    return parseProfileRules(text.str(), path);
}

std::string profileRulesText(const ProfileRules& rules) {
    std::string out = "# FIELD PATTERN PROFILE: the first rule that matches a job gives its profile\n";
    for (const ProfileRule& r : rules.rules) out += r.field + ' ' + r.pattern + ' ' + r.profile + '\n';
    if (!rules.default_profile.empty()) out += "default " + rules.default_profile + '\n';
    return out;
}

void checkProfileRules(const ProfileRules& rules, const ProfileSet& profiles, const std::string& file) {
    auto known = [&](const std::string& name, int line, const char* field) {
        if (profiles.has(name)) return;
        std::string names;
        for (const std::string& m : profiles.modelNames()) names += (names.empty() ? "" : ", ") + m;
        throw ParseError(file, line, field,
                         "profile '" + name + "' is not in the profile set '" + profiles.name + "' (it has " +
                             names + ")");
    };
    for (const ProfileRule& r : rules.rules) {
        compile(r, file);
        known(r.profile, r.line, "profile");
    }
    if (!rules.default_profile.empty()) known(rules.default_profile, 0, "default");
}

RuleMatchCounts assignProfilesByRule(Trace& trace, const ProfileRules& rules) {
    std::vector<std::regex> patterns;
    patterns.reserve(rules.rules.size());
    for (const ProfileRule& r : rules.rules) patterns.push_back(compile(r, "rules"));
    // Per rule, the verdict for each distinct value seen so far.
    std::vector<std::unordered_map<std::string, bool>> seen(rules.rules.size());
    RuleMatchCounts counts;
    counts.per_rule.assign(rules.rules.size(), 0);
    for (Job& job : trace.jobs) {
        std::size_t hit = rules.rules.size();
        for (std::size_t k = 0; k < rules.rules.size() && hit == rules.rules.size(); ++k) {
            const std::string& value = fieldOf(job, rules.rules[k].field);
            auto [it, fresh] = seen[k].try_emplace(value, false);
            if (fresh) it->second = std::regex_search(value, patterns[k]);
            if (it->second) hit = k;
        }
        if (hit < rules.rules.size()) {
            job.model = rules.rules[hit].profile;
            ++counts.per_rule[hit];
        } else if (!rules.default_profile.empty()) {
            job.model = rules.default_profile;
            ++counts.defaulted;
        } else {
            job.model.clear();
            ++counts.unmatched;
        }
    }
    return counts;
}

}  // namespace cl
