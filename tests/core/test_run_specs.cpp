// Run specs and the emitted folder (core/scaleout/run_spec.h, emitted_folder.h,
// slurm_array_scripts.h; docs/architecture.md section 9.7): an emitted scenario run from its spec
// into a shard and merged back is the run a local run stores; bad specs and inputs fail naming
// file and field; the array's size keeps to Slurm's default MaxArraySize; the scripts carry what
// was asked; shell words are quoted where needed.
#include <QtTest>

#include <filesystem>
#include <fstream>

#include "core/io/builtin_data.h"
#include "core/io/parse_error.h"
#include "core/io/trace_readers.h"
#include "core/runs/scenario_runner.h"
#include "core/scaleout/emitted_folder.h"
#include "core/scaleout/run_spec.h"
#include "core/scaleout/slurm_array_scripts.h"
#include "core/store/workspace_merge.h"
#include "store_test_support.h"

using namespace cl;
using namespace cl::test;
namespace fs = std::filesystem;

namespace {

const std::string kSmallTrace = std::string(CLUSTERLOOM_FIXTURES_DIR) + "/cli/small.csv";

std::vector<ScenarioSpec> twoScenarios(ScenarioStore& store) {
    ScenarioSpec base;
    base.cluster_id = store.putCluster(resolveCluster("muri-testbed-64"));
    base.profiles_id = store.putProfiles(builtinProfiles("muri"));
    base.trace_id = store.putTrace(readTrace(kSmallTrace));
    SweepAxes axes;
    axes.policies = {"srtf", "fifo"};
    axes.load_factors = {1.0, 3.0};
    return expandSweep(store, "e", base, axes);
}

std::string readAll(const fs::path& p) {
    return fileBytes(p.string());
}

}  // namespace

class TestRunSpecs : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    fs::path at(const std::string& name) { return fs::path(dir_.path().toStdString()) / name; }

private slots:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    // Emitted, run from the spec into a shard, merged: the figures of a local run.
    void anEmittedRunMergedBackIsTheLocalRun() {
        ScenarioStore local(at("local.sqlite").string());
        const auto local_specs = twoScenarios(local);
        SweepOptions sweep;
        sweep.threads = 2;
        const SweepReport ran = runSweep(local, local_specs, sweep);

        ScenarioStore emitted(at("emitted.sqlite").string());
        const auto infos = createSweepScenarios(emitted, twoScenarios(emitted));
        EmitOptions options;
        options.cli = "/opt/clusterloom-1.0/bin/clusterloom-cli";
        const EmittedFolder folder = emitRunSpecs(emitted, infos, at("dir").string(), options);
        QCOMPARE(folder.names.size(), std::size_t(4));
        QCOMPARE(folder.inputs, 3);
        const std::string commands = readAll(at("dir") / "commands.txt");
        QVERIFY2(commands.rfind("/opt/clusterloom-1.0/bin/clusterloom-cli run-spec specs/00000.json --shard "
                                "shards/00000.sqlite\n",
                                0) == 0,
                 commands.c_str());
        for (std::size_t i = 0; i < folder.names.size(); ++i) {
            const RunInfo run = runSpecIntoShard((at("dir") / specFileName(i)).string(),
                                                 (at("dir") / shardFileName(i)).string());
            QCOMPARE(run.status, RunStatus::Finished);
            QVERIFY(!fs::exists((at("dir") / shardFileName(i)).string() + ".part"));
            QVERIFY(!fs::exists((at("dir") / shardFileName(i)).string() + "-wal"));
        }
        fs::remove(at("dir") / shardFileName(2));
        EmittedMerge merged = mergeEmittedFolder(emitted, at("dir").string());
        QCOMPARE(merged.shards.size(), std::size_t(3));
        QCOMPARE(merged.missing, std::vector<std::size_t>{2});
        QCOMPARE(merged.failed_tasks, std::vector<std::size_t>{2});
        QCOMPARE(readAll(at("dir") / "failed-tasks.txt"), std::string("2\n"));
        runSpecIntoShard((at("dir") / specFileName(2)).string(), (at("dir") / shardFileName(2)).string());
        merged = mergeEmittedFolder(emitted, at("dir").string());
        QVERIFY(merged.missing.empty());
        QCOMPARE(readAll(at("dir") / "failed-tasks.txt"), std::string());

        for (std::size_t i = 0; i < local_specs.size(); ++i) {
            const RunInfo mine = local.runInfo(ran.run_ids[i]);
            const auto theirs = emitted.finishedRunWithHash(mine.content_hash, mine.engine_version);
            QVERIFY2(theirs.has_value(), local_specs[i].name.c_str());
            QCOMPARE(theirs->scenario_name, local_specs[i].name);
            QCOMPARE(theirs->summary.avg_jct, mine.summary.avg_jct);
            QCOMPARE(theirs->summary.p99_jct, mine.summary.p99_jct);
            QCOMPARE(theirs->summary.makespan, mine.summary.makespan);
            QCOMPARE(theirs->events, mine.events);
        }
        // Emitting again: every scenario has its run.
        const EmittedFolder again = emitRunSpecs(emitted, infos, at("again").string(), options);
        QVERIFY(again.names.empty());
        QCOMPARE(again.already_stored, 4);
        // A used folder is refused.
        QVERIFY_THROWS_EXCEPTION(std::runtime_error,
                                 emitRunSpecs(emitted, infos, at("dir").string(), options));
    }

    void badSpecsFailNamingFileAndField() {
        ScenarioStore store(at("bad.sqlite").string());
        const auto infos = createSweepScenarios(store, twoScenarios(store));
        emitRunSpecs(store, infos, at("bad").string(), EmitOptions{"/bin/cli", 1, false});
        const std::string good = readAll(at("bad") / specFileName(0));
        auto variant = [&](const std::string& from, const std::string& to, const std::string& name) {
            std::string text = good;
            const auto where = text.find(from);
            if (where == std::string::npos) throw std::logic_error("no '" + from + "' in the spec");
            text.replace(where, from.size(), to);
            const std::string path = (at("bad") / "specs" / name).string();
            std::ofstream(path) << text;
            return path;
        };
        auto failure = [&](const std::string& path) -> std::string {
            try {
                runSpecIntoShard(path, at("never.sqlite").string());
            } catch (const ParseError& e) {
                return e.what();
            }
            return "no error";
        };
        std::string e = failure(variant("\"seed\": 1", "\"seed\": -1", "seed.json"));
        QVERIFY2(
            e.find("seed.json:") != std::string::npos && e.find("field 'scenario.seed'") != std::string::npos,
            e.c_str());
        e = failure(variant("\"policy\"", "\"polcy\"", "key.json"));
        QVERIFY2(e.find("key.json:") != std::string::npos && e.find("polcy") != std::string::npos, e.c_str());
        // Settings the store refuses name the spec and the setting.
        e = failure(variant("\"policy\": \"srtf\"", "\"policy\": \"nope\"", "policy.json"));
        QVERIFY2(e.find("policy.json") != std::string::npos &&
                     e.find("field 'scenario'") != std::string::npos &&
                     e.find("unknown order 'nope'") != std::string::npos,
                 e.c_str());
        e = failure(variant("\"load_factor\": 1", "\"load_factor\": -1", "load.json"));
        QVERIFY2(e.find("load.json") != std::string::npos &&
                     e.find("load factor must be a positive number") != std::string::npos,
                 e.c_str());
        e = failure(variant("\"engine_version\": \"", "\"engine_version\": \"0.0.0-r0+", "engine.json"));
        QVERIFY2(e.find("field 'engine_version'") != std::string::npos &&
                     e.find("this program is") != std::string::npos,
                 e.c_str());
        e = failure(variant("\"file\": \"../inputs/", "\"file\": \"../nowhere/", "input.json"));
        QVERIFY2(e.find("nowhere") != std::string::npos &&
                     e.find("cannot open the input file") != std::string::npos,
                 e.c_str());
        QVERIFY(!fs::exists(at("never.sqlite")));
        QVERIFY(!fs::exists(at("never.sqlite.part")));
    }

    void arraysKeepToSlurmsMaxArraySize() {
        QCOMPARE(specsPerTask(12, 0), 1);
        QCOMPARE(specsPerTask(1000, 0), 1);
        QCOMPARE(specsPerTask(1001, 0), 2);
        QCOMPARE(specsPerTask(2500, 0), 3);
        QCOMPARE(arrayTasks(2500, 3), 834);
        QCOMPARE(specsPerTask(2500, 10), 10);
        QCOMPARE(taskTimeLimitMinutes(0.001, 1), 6);
        QCOMPARE(taskTimeLimitMinutes(100.0, 2), 15);  // 600 s = 10 min, + 5
        QCOMPARE(mergeTimeLimitMinutes(12), 11);
        QCOMPARE(mergeTimeLimitMinutes(10000), 27);
        QCOMPARE(mergeTimeLimitMinutes(600), 11);
        // Trace1's shards stay within 0.1 s each; Philly's take 30 us per job: 2.467 s each.
        QCOMPARE(mergeTimeLimitMinutes(10000, 1494), 27);
        QCOMPARE(mergeTimeLimitMinutes(10000, 82247), 422);
    }

    void scriptsCarryWhatWasAsked() {
        fs::create_directories(at("slurm"));
        SlurmArrayOptions o;
        o.array_limit = 50;
        o.task_minutes = 9;
        o.merge_minutes = 12;
        o.partition = "gpu";
        o.sbatch_options = {"--qos=long", "--mem=4G"};
        writeSlurmArrayScripts(at("slurm").string(), 2500, "/bin/cli", "/data/ws.sqlite", o);
        const std::string array = readAll(at("slurm") / "array.sbatch");
        for (const std::string line :
             {"#SBATCH --array=0-833%50\n", "#SBATCH --time=9\n", "#SBATCH --partition=gpu\n",
              "#SBATCH --qos=long\n", "#SBATCH --mem=4G\n", "#SBATCH --cpus-per-task=1\n",
              "per_task=3\nspecs=2500\n"})
            QVERIFY2(array.find(line) != std::string::npos, (line + " not in\n" + array).c_str());
        QVERIFY(array.find("--account") == std::string::npos);
        const std::string merge = readAll(at("slurm") / "merge.sbatch");
        QVERIFY2(merge.find("#SBATCH --time=12\n") != std::string::npos, merge.c_str());
        QVERIFY2(merge.find("exec /bin/cli workspace merge --emitted " + at("slurm").string() +
                            " --into /data/ws.sqlite\n") != std::string::npos,
                 merge.c_str());
        QVERIFY((fs::status(at("slurm") / "submit.sh").permissions() & fs::perms::owner_exec) !=
                fs::perms::none);
        QVERIFY(readAll(at("slurm") / "resubmit-failed.sh").find("--array=\"$tasks%50\"") !=
                std::string::npos);

        o.specs_per_task = 2;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 writeSlurmArrayScripts(at("slurm").string(), 2500, "/bin/cli", "/ws", o));
        o.specs_per_task = 0;
        o.partition = "gpu a";
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 writeSlurmArrayScripts(at("slurm").string(), 25, "/bin/cli", "/ws", o));
    }

    // xargs strips the quotes of a line before sh reads it, so a commands.txt line carries no quoted
    // word: an executable path that would need quoting is refused before the folder is made.
    void anExecutablePathNeedingQuotesIsRefused() {
        ScenarioStore store(at("quoted.sqlite").string());
        const auto infos = createSweepScenarios(store, twoScenarios(store));
        EmitOptions options;
        for (const std::string cli : {"/opt/clusterloom cli/bin/clusterloom-cli", "/opt/it's/cli", ""}) {
            options.cli = cli;
            try {
                emitRunSpecs(store, infos, at("quoted").string(), options);
                QFAIL(("accepted --cli '" + cli + "'").c_str());
            } catch (const std::invalid_argument& e) {
                const std::string what = e.what();
                QVERIFY2(what.rfind("--cli", 0) == 0 && what.find(cli) != std::string::npos, e.what());
            }
            QVERIFY(!fs::exists(at("quoted")));
        }
        checkCommandExecutable("/usr/local/bin/clusterloom-cli");
    }

    void shellWordsAreQuotedOnlyWhenNeeded() {
        QCOMPARE(shellWord("/usr/bin/clusterloom-cli"), std::string("/usr/bin/clusterloom-cli"));
        QCOMPARE(shellWord("/my dir/cli"), std::string("'/my dir/cli'"));
        QCOMPARE(shellWord("it's"), std::string("'it'\\''s'"));
        QCOMPARE(shellWord(""), std::string("''"));
    }
};

QTEST_APPLESS_MAIN(TestRunSpecs)
#include "test_run_specs.moc"
