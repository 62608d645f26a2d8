#pragma once
// Jobs matched to profiles by rule, not chance (docs/architecture.md 8.8): a rule names a job
// field (name, user, account, partition), an ECMAScript regular expression searched anywhere in
// that field, and a profile; the first rule that matches a job gives its model, and a job no rule
// matches gets the named default profile. Random assignment (model_assignment.h) stays for the
// paper traces, which carry no such fields.
//
// The rule file is text, one rule per line, fields separated by spaces or tabs:
//     # comment
//     name      ^bert-       bert-large
//     account   ^vision$     resnet50
//     default   resnet18
// A pattern cannot contain spaces (write \s or [ ] instead).
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "core/model/model_profile.h"
#include "core/model/trace.h"

namespace cl {

struct ProfileRule {
    std::string field;  // name | user | account | partition
    std::string pattern;
    std::string profile;
    int line = 0;  // in the rule file; 0 = made in memory
};

struct ProfileRules {
    std::vector<ProfileRule> rules;  // first match wins
    std::string default_profile;     // for jobs no rule matches; empty = leave them without a model
};

// The fields a rule may name, in the order the file format documents them.
const std::vector<std::string>& profileRuleFields();

// Throws ParseError (file, line, field) for an unknown field, a pattern that is not a regular
// expression, a missing profile or a second default.
ProfileRules parseProfileRules(std::string_view text, const std::string& file);
ProfileRules readProfileRules(const std::string& path);
std::string profileRulesText(const ProfileRules& rules);
// Throws ParseError naming the rule (or "default") whose profile is not in the set or whose
// pattern does not compile.
void checkProfileRules(const ProfileRules& rules, const ProfileSet& profiles,
                       const std::string& file = "rules");

struct RuleMatchCounts {
    std::vector<std::size_t> per_rule;  // jobs each rule matched (the first match only)
    std::size_t defaulted = 0;          // jobs that got the default profile
    std::size_t unmatched = 0;          // jobs left without a model (no default)
};

// Sets every job's model by the rules (overwriting what the job had). Matching is cached per
// distinct field value, so a million jobs with repeated names cost one search per name.
RuleMatchCounts assignProfilesByRule(Trace& trace, const ProfileRules& rules);

}  // namespace cl
