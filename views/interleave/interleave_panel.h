#pragma once
// The stage-interleaving teaching view (Muri paper Fig. 1, 4, 5, 6 and Table 2):
// pick 1-4 model profiles, a paper example or a group from a run; see the group's Gantt for
// the best or worst ordering, step or animate it iteration by iteration, edit stage times in
// the table or by dragging blocks, and read gamma, the iteration time and the speedup vs
// running alone, all from the engine (cl::groupTiming, cl::stageSchedule,
// cl::maxWeightMatching). Stage times are shown in milliseconds.
#include <vector>

#include <QStringList>
#include <QWidget>

#include "core/interleave/group_time.h"

class QButtonGroup;
class QCheckBox;
class QComboBox;
class QHBoxLayout;
class QLabel;
class QPushButton;
class QSpinBox;
class QSplitter;
class QTabWidget;
class QTableView;
class QTimer;
class QToolButton;

namespace cl {
struct ProfileSet;
}

namespace cl::views {

class InterleaveGantt;
class MatchingView;
class StageTableModel;

class InterleavePanel : public QWidget {
    Q_OBJECT
public:
    // profiles: the model profiles for the job pickers (not owned; may be null, then only the
    // paper examples and setGroup work). Starts with the paper's Fig. 4 plan 1.
    explicit InterleavePanel(const cl::ProfileSet* profiles, QWidget* parent = nullptr);

    enum class Example {
        Fig1FourBottlenecks,  // 4 jobs x 4 resources, each bottlenecked on another: 4x
        Fig4Plan1,            // A + B on CPU/GPU: gamma 1.0
        Fig4Plan2,            // A + C: gamma 0.75
        Fig6,                 // 2 jobs x 4 resources: the ordering matters
        Table2,               // ShuffleNet + A2C + GPT-2 + VGG16 on 16 GPUs: 2.00x
    };
    void showExample(Example example);

    void setProfiles(const cl::ProfileSet* profiles);
    // 1-4 model names of the profile set, at the GPU count picked in the panel (default 16).
    // Unknown names are skipped; returns false when none is left (the view is unchanged).
    bool setModels(const QStringList& models);
    void setGpuCount(int gpus);
    // A group from a run: names[i] and stages[i] in SECONDS (the profiles' unit, as the
    // simulator uses them); solo_seconds[i] = job i's iteration time alone, empty = the sum
    // of its stages. Contention is switched on (runs are simulated with it).
    void setGroup(const QStringList& names, const std::vector<std::vector<double>>& stages,
                  const std::vector<double>& solo_seconds = {});

    void setBestOrdering(bool best);
    bool bestOrdering() const { return m_best; }
    // Contention factors of docs/architecture.md section 4.5 (on for models and runs, off for the
    // paper's idealised figures).
    void setContentionEnabled(bool on);
    bool contentionEnabled() const;
    void setIterations(int iterations);

    // Highlight the next iteration (wraps); Play repeats it on a timer.
    void step();
    void setPlaying(bool playing);
    bool isPlaying() const;

    // The engine's numbers for the current stages (NaN when the group is invalid).
    double gamma() const;
    double iterationTime() const;  // ms, with contention when enabled
    double speedup() const;        // sum of the members' solo times / iteration time
    const cl::GroupTiming& timing() const { return m_timing; }
    bool valid() const { return m_valid; }
    // "γ = 0.75 · iteration time 4.00 ms · speedup 1.50× vs alone", or the error.
    QString resultText() const;
    // γ and the speedup defined, with this group's numbers plugged in.
    QString formulaText() const;
    // For a group: each member's stretch and the group's speedup, and when that pays off.
    QString tradeText() const;
    // When a stage of the last iteration drawn runs past that iteration's time, why.
    QString lateStageText() const;

    InterleaveGantt* gantt() const { return m_gantt; }
    // The matching graph is the child "interleaveMatching" (the Gantt "interleaveGantt", the
    // stage table's model "interleaveStageModel"). The Gantt and the graph share the chart area
    // as two tabs (child "interleaveChartTabs"), so each gets the room a 768-pixel screen has.
    MatchingView* matchingView() const { return m_matching; }
    QTabWidget* chartTabs() const { return m_chartTabs; }

    // Play: the chart restarts cold (every job joins with its first stage) and a playhead
    // sweeps it, so the pipeline forms and settles; playFrame() advances it by one frame.
    void playFrame();
    double playhead() const;

    // The guided tour through the Muri paper's Fig. 1, 4 and 6 and Table 2, a caption per step.
    void startTour();
    void stopTour();
    bool touring() const { return m_tourStep >= 0; }
    int tourStep() const { return m_tourStep; }
    int tourLength() const;
    void tourNext();
    void tourBack();
    QString tourCaption() const;

signals:
    // After every change of the numbers (edit, ordering, contention, jobs).
    void resultChanged();

private:
    // buildUi creates the widgets section by section, in the order that sets the focus chain,
    // then lays them out.
    void buildUi();
    void createExamplePicker();
    void createJobPickers();
    void createContentionBox();
    void createOrderingButtons();
    void createPlaybackControls();
    void createHeadlineLabels();
    void createTourBar();
    void createDetailLabels();
    void createChartAndTable();
    QHBoxLayout* exampleRow();
    QHBoxLayout* jobPickerRow();
    QHBoxLayout* controlRow();
    QWidget* stageTableBox();
    QWidget* matchingBox();
    QSplitter* chartSplitter();
    void fillPickers();
    void loadFromPickers();
    void loadJobs(const QStringList& names, const std::vector<std::vector<double>>& stages_ms,
                  const std::vector<double>& solo_ms, const QStringList& resource_names, bool contention);
    void recompute();
    void updateMatching();
    void selectExampleEntry(int index);
    void updateGpuPicker();
    QStringList stageNames(std::size_t stage_count) const;

    const cl::ProfileSet* m_profiles = nullptr;
    StageTableModel* m_model = nullptr;
    InterleaveGantt* m_gantt = nullptr;
    MatchingView* m_matching = nullptr;

    QComboBox* m_example = nullptr;
    std::vector<QComboBox*> m_pickers;
    QComboBox* m_gpus = nullptr;
    QCheckBox* m_contention = nullptr;
    QToolButton* m_bestButton = nullptr;
    QToolButton* m_worstButton = nullptr;
    QSpinBox* m_iterations = nullptr;
    QPushButton* m_stepButton = nullptr;
    QPushButton* m_playButton = nullptr;
    QLabel* m_result = nullptr;
    QLabel* m_formula = nullptr;
    QPushButton* m_tourButton = nullptr;
    QPushButton* m_tourBack = nullptr;
    QPushButton* m_tourNext = nullptr;
    QLabel* m_tourCaption = nullptr;
    QWidget* m_tourBar = nullptr;
    int m_tourStep = -1;
    void showTourStep();
    QLabel* m_detail = nullptr;
    QLabel* m_message = nullptr;
    QTableView* m_table = nullptr;
    QComboBox* m_matchingSource = nullptr;
    QTabWidget* m_chartTabs = nullptr;
    QTimer* m_timer = nullptr;

    bool m_best = true;
    bool m_valid = false;
    bool m_loading = false;
    cl::GroupTiming m_timing;
    QString m_error;
    QStringList m_resourceNames;                     // lane titles of the current jobs (empty = the engine's)
    std::vector<std::vector<double>> m_runStagesMs;  // the last setGroup, to come back to it
    QStringList m_runNames;
    std::vector<double> m_runSoloMs;
};

}  // namespace cl::views
