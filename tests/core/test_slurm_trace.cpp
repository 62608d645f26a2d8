// A Slurm history as a trace in our model's terms: jobs matched to profiles by rule (first match
// wins, a named default, never chance), measured run time turned into iterations on the job's own
// GPU type, the planning columns kept through the CSV, JSON and the workspace
// (core/io/sacct_trace.h, core/workload/profile_rules.h, core/workload/measured_iterations.h).
#include <QtTest>

#include <string>

#include "core/io/builtin_data.h"
#include "core/io/parse_error.h"
#include "core/io/sacct_trace.h"
#include "core/io/slurm_sacct.h"
#include "core/store/scenario_store.h"
#include "core/workload/measured_iterations.h"
#include "core/workload/profile_rules.h"
#include "error_capture.h"

using namespace cl;
using cl::test::expectError;
using cl::test::parseError;

namespace {

Job slurmJob(const std::string& id, const std::string& name, const std::string& user,
             const std::string& account, const std::string& partition) {
    Job j;
    j.id = id;
    j.name = name;
    j.user = user;
    j.account = account;
    j.partition = partition;
    j.duration = 3600;
    return j;
}

}  // namespace

class TestSlurmTrace : public QObject {
    Q_OBJECT

private slots:
    void rulesFileIsRead() {
        const ProfileRules r = parseProfileRules(
            "# comment\n\nname   ^bert-  bert\r\naccount\t^vision$\tvgg16\ndefault resnet18\n", "r.txt");
        QCOMPARE(r.rules.size(), std::size_t(2));
        QCOMPARE(r.rules[0].field, std::string("name"));
        QCOMPARE(r.rules[0].pattern, std::string("^bert-"));
        QCOMPARE(r.rules[0].profile, std::string("bert"));
        QCOMPARE(r.rules[0].line, 3);
        QCOMPARE(r.rules[1].field, std::string("account"));
        QCOMPARE(r.rules[1].line, 4);
        QCOMPARE(r.default_profile, std::string("resnet18"));
        // Written and read back: the same rules.
        const ProfileRules back = parseProfileRules(profileRulesText(r), "back");
        QCOMPARE(back.rules.size(), r.rules.size());
        QCOMPARE(back.rules[1].pattern, r.rules[1].pattern);
        QCOMPARE(back.default_profile, r.default_profile);
    }

    void badRulesNameFileLineAndField() {
        expectError(parseError([] { parseProfileRules("name ^a bert\njobname ^b bert\n", "r.txt"); }),
                    {"r.txt:2", "field 'field'", "'jobname' is not a job field"});
        expectError(parseError([] { parseProfileRules("user ([ bert\n", "r.txt"); }),
                    {"r.txt:1", "field 'pattern'", "'([' is not a regular expression"});
        expectError(parseError([] { parseProfileRules("user ^a b c bert\n", "r.txt"); }),
                    {"r.txt:1", "FIELD PATTERN PROFILE"});
        expectError(parseError([] { parseProfileRules("default a\ndefault b\n", "r.txt"); }),
                    {"r.txt:2", "field 'default'", "second default (the first is on line 1)"});
        const ProfileSet muri = builtinProfiles("muri");
        expectError(
            parseError(
                [&] { checkProfileRules(parseProfileRules("\nuser ^a nope\n", "r.txt"), muri, "r.txt"); }),
            {"r.txt:2", "field 'profile'", "profile 'nope' is not in the profile set 'muri'", "resnet18"});
    }

    void firstMatchWinsAndTheRestGetTheDefault() {
        Trace t;
        t.jobs = {slurmJob("1", "bert-large", "alice", "nlp", "gpu"),  // rule 0 (also rule 1)
                  slurmJob("2", "bert-base", "bob", "vision", "gpu"),  // rule 0 before rule 1
                  slurmJob("3", "resnet", "bob", "vision", "gpu"),     // rule 1
                  slurmJob("4", "misc", "carol", "hpc", "debug"),      // rule 2
                  slurmJob("5", "misc", "carol", "hpc", "gpu")};       // default
        t.jobs[4].model = "gpt2";                                      // overwritten: rules decide
        const ProfileRules rules = parseProfileRules(
            "name ^bert bert\naccount ^vision$ vgg16\npartition debug dqn\ndefault resnet18\n", "r");
        const RuleMatchCounts counts = assignProfilesByRule(t, rules);
        QCOMPARE(counts.per_rule, (std::vector<std::size_t>{2, 1, 1}));
        QCOMPARE(counts.defaulted, std::size_t(1));
        QCOMPARE(counts.unmatched, std::size_t(0));
        QStringList models;
        for (const Job& j : t.jobs) models << QString::fromStdString(j.model);
        QCOMPARE(models, QStringList({"bert", "bert", "vgg16", "dqn", "resnet18"}));
    }

    void withoutDefaultUnmatchedJobsGetNoModel() {
        Trace t;
        t.jobs = {slurmJob("1", "x", "alice", "", ""), slurmJob("2", "y", "bob", "", "")};
        t.jobs[1].model = "gpt2";
        const RuleMatchCounts counts = assignProfilesByRule(t, parseProfileRules("user ^alice$ bert\n", "r"));
        QCOMPARE(counts.per_rule, (std::vector<std::size_t>{1}));
        QCOMPARE(counts.unmatched, std::size_t(1));
        QCOMPARE(t.jobs[1].model, std::string());
    }

    void measuredTimeBecomesIterationsOnTheJobsGpuType() {
        const ProfileSet muri = builtinProfiles("muri");  // resnet18 at 1 GPU: 779 ms on V100; A100 1.6x
        Trace t;
        Job a = slurmJob("a", "", "", "", "");
        a.model = "resnet18";
        a.gpus = 1;
        a.duration = 7200;
        a.gpu_type = "A100";
        Job v = a;
        v.id = "v";
        v.gpu_type = "";  // unknown type: the reference GPU
        Job odd = a;
        odd.id = "odd";
        odd.gpu_type = "MI300X";  // no speed in the set: 1.0, reported
        Job none = a;
        none.id = "none";
        none.model = "";
        Job given = a;
        given.id = "given";
        given.iterations = 5;  // the trace's own count stays
        t.jobs = {a, v, odd, none, given};
        const MeasuredIterations m = iterationsFromMeasuredTime(t, muri);
        QCOMPARE(m.converted, std::size_t(3));
        QCOMPARE(m.without_profile, std::size_t(1));
        QCOMPARE(m.unknown_types, (std::map<std::string, std::size_t>{{"MI300X", 1}}));
        QCOMPARE(t.jobs[0].iterations, 7200 / (0.779 / 1.6));
        QCOMPARE(t.jobs[1].iterations, 7200 / 0.779);
        QCOMPARE(t.jobs[2].iterations, 7200 / 0.779);
        QCOMPARE(t.jobs[3].iterations, 0.0);
        QCOMPARE(t.jobs[4].iterations, 5.0);
        QCOMPARE(t.jobs[0].duration, 7200.0);  // what Slurm measured is kept
    }

    void historyBecomesATraceWithThePlanningColumns() {
        const std::string fixture = std::string(CLUSTERLOOM_FIXTURES_DIR) + "/slurm/sacct_parsable2.txt";
        const SacctImport history = readSacctParsable(fixture);
        const Trace t = traceFromSacct(history, "cluster-q1", fixture);
        QCOMPARE(t.name, std::string("cluster-q1"));
        QCOMPARE(t.jobs.size(), history.jobs.size());
        const Job& j = t.jobs[0];  // 100: submitted 10:00, the earliest kept job (102+0) at 09:00
        QCOMPARE(j.id, std::string("100"));
        QCOMPARE(j.submit_time, 3600.0);
        QCOMPARE(j.gpus, 4);
        QCOMPARE(j.duration, 7200.0);
        QCOMPARE(j.name, std::string("train-bert"));
        QCOMPARE(j.user, std::string("alice"));
        QCOMPARE(j.account, std::string("nlp"));
        QCOMPARE(j.partition, std::string("gpu"));
        QCOMPARE(j.cpus, 8);
        QCOMPARE(j.memory_gb, 64.0);
        // What it asked for: any GPU type (ReqTRES gres/gpu=4), one node, Timelimit 1-00:00:00;
        // started 10:05, counted from the same 09:00 as the submit times.
        QVERIFY(j.requested_gpu_type.empty());
        QCOMPARE(j.nodes, 1);
        QCOMPARE(j.time_limit, 86400.0);
        QCOMPARE(j.recorded_start, 3900.0);
        QCOMPARE(t.jobs[1].requested_gpu_type, std::string("V100"));  // 101_3: gres/gpu:v100=2
        QCOMPARE(t.jobs[1].time_limit, 0.0);                          // UNLIMITED
        QCOMPARE(t.jobs[2].nodes, 2);                                 // 102+0
        QCOMPARE(t.jobs[2].recorded_start, 0.0);                      // the earliest submission
        QVERIFY(j.model.empty());
        QCOMPARE(t.provenance.size(), std::size_t(1));
        QVERIFY(QString::fromStdString(t.provenance[0])
                    .startsWith("imported sacct_parsable2.txt as Slurm accounting history (9 jobs from 21 "
                                "rows; left out:"));
    }

    void planningColumnsSurviveTheWorkspace() {
        QTemporaryDir dir;
        ScenarioStore store(dir.filePath("ws.clusterloom").toStdString());
        Trace plain;
        plain.name = "t";
        plain.jobs = {slurmJob("1", "", "alice", "", "")};
        Trace planned = plain;
        planned.jobs[0].name = "bert";
        planned.jobs[0].account = "nlp";
        planned.jobs[0].partition = "gpu";
        planned.jobs[0].cpus = 8;
        planned.jobs[0].memory_gb = 64.5;
        planned.jobs[0].gpu_type = "A100";
        const auto plain_id = store.putTrace(plain);
        const auto planned_id = store.putTrace(planned);
        QVERIFY(plain_id != planned_id);  // the columns are part of the content
        QCOMPARE(store.putTrace(planned), planned_id);
        const Trace back = store.trace(planned_id);
        const Job& j = back.jobs[0];
        QCOMPARE(j.name, std::string("bert"));
        QCOMPARE(j.account, std::string("nlp"));
        QCOMPARE(j.partition, std::string("gpu"));
        QCOMPARE(j.cpus, 8);
        QCOMPARE(j.memory_gb, 64.5);
        QCOMPARE(j.gpu_type, std::string("A100"));
        QCOMPARE(store.trace(plain_id).jobs[0].name, std::string());
    }
};

QTEST_GUILESS_MAIN(TestSlurmTrace)
#include "test_slurm_trace.moc"
