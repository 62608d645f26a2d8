#pragma once
// clusterloom-cli subcommands; each takes the arguments after its name and returns the exit code.
#include <string>
#include <vector>

namespace cli {

int runCommand(const std::vector<std::string>& args);
int demoCommand(const std::vector<std::string>& args);
int generateCommand(const std::vector<std::string>& args);
int transformCommand(const std::vector<std::string>& args);
int policiesCommand(const std::vector<std::string>& args);
int scenarioCommand(const std::vector<std::string>& args);
int compareCommand(const std::vector<std::string>& args);
int sweepCommand(const std::vector<std::string>& args);
int planCommand(const std::vector<std::string>& args);
int experimentCommand(const std::vector<std::string>& args);
int fitProfileCommand(const std::vector<std::string>& args);
int placementCommand(const std::vector<std::string>& args);
int fitInterferenceCommand(const std::vector<std::string>& args);
int importCommand(const std::vector<std::string>& args);
int profileCommand(const std::vector<std::string>& args);
int workspaceCommand(const std::vector<std::string>& args);
int runSpecCommand(const std::vector<std::string>& args);
int replayCheckCommand(const std::vector<std::string>& args);

}  // namespace cli
