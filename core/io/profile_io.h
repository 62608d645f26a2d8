#pragma once
#include <string>

#include "core/model/model_profile.h"

namespace cl {

// Profile set JSON (data/profiles/*.json; schema in data/README.md). Times in the file are ms.
ProfileSet readProfilesJson(const std::string& path);
void writeProfilesJson(const ProfileSet& profiles, const std::string& path);
// The same format in memory (the scenario store keeps profile sets as this text).
std::string profilesJsonText(const ProfileSet& profiles);
ProfileSet parseProfilesJson(const std::string& text, const std::string& source);

}  // namespace cl
