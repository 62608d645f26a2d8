#pragma once
#include <string>

#include "core/model/model_profile.h"

namespace cl {

// Profile set JSON (data/profiles/*.json; schema in data/README.md). Times in the file are ms.
ProfileSet readProfilesJson(const std::string& path);
void writeProfilesJson(const ProfileSet& profiles, const std::string& path);

}  // namespace cl
