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
class QLabel;
class QPushButton;
class QSpinBox;
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
    bool bestOrdering() const { return best_; }
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
    const cl::GroupTiming& timing() const { return timing_; }
    bool valid() const { return valid_; }
    // "γ = 0.75 · iteration time 4.00 ms · speedup 1.50× vs alone", or the error.
    QString resultText() const;
    // γ and the speedup defined, with this group's numbers plugged in.
    QString formulaText() const;
    // For a group: each member's stretch and the group's speedup, and when that pays off.
    QString tradeText() const;

    InterleaveGantt* gantt() const { return gantt_; }
    StageTableModel* stageModel() const { return model_; }
    MatchingView* matchingView() const { return matching_; }

    // Play: the chart restarts cold (every job joins with its first stage) and a playhead
    // sweeps it, so the pipeline forms and settles; playFrame() advances it by one frame.
    void playFrame();
    double playhead() const;

    // The guided tour through the Muri paper's Fig. 1, 4 and 6 and Table 2, a caption per step.
    void startTour();
    void stopTour();
    bool touring() const { return tour_step_ >= 0; }
    int tourStep() const { return tour_step_; }
    int tourLength() const;
    void tourNext();
    void tourBack();
    QString tourCaption() const;

signals:
    // After every change of the numbers (edit, ordering, contention, jobs).
    void resultChanged();

private:
    void buildUi();
    void fillPickers();
    void loadFromPickers();
    void loadJobs(const QStringList& names, const std::vector<std::vector<double>>& stages_ms,
                  const std::vector<double>& solo_ms, const QStringList& resource_names, bool contention);
    void recompute();
    void updateMatching();
    void selectExampleEntry(int index);
    void updateGpuPicker();
    QStringList stageNames(std::size_t stage_count) const;

    const cl::ProfileSet* profiles_ = nullptr;
    StageTableModel* model_ = nullptr;
    InterleaveGantt* gantt_ = nullptr;
    MatchingView* matching_ = nullptr;

    QComboBox* example_ = nullptr;
    std::vector<QComboBox*> pickers_;
    QComboBox* gpus_ = nullptr;
    QCheckBox* contention_ = nullptr;
    QToolButton* best_button_ = nullptr;
    QToolButton* worst_button_ = nullptr;
    QSpinBox* iterations_ = nullptr;
    QPushButton* step_button_ = nullptr;
    QPushButton* play_button_ = nullptr;
    QLabel* result_ = nullptr;
    QLabel* formula_ = nullptr;
    QPushButton* tour_button_ = nullptr;
    QPushButton* tour_back_ = nullptr;
    QPushButton* tour_next_ = nullptr;
    QLabel* tour_caption_ = nullptr;
    QWidget* tour_bar_ = nullptr;
    int tour_step_ = -1;
    void showTourStep();
    QLabel* detail_ = nullptr;
    QLabel* message_ = nullptr;
    QTableView* table_ = nullptr;
    QComboBox* matching_source_ = nullptr;
    QTimer* timer_ = nullptr;

    bool best_ = true;
    bool valid_ = false;
    bool loading_ = false;
    cl::GroupTiming timing_;
    QString error_;
    QStringList resource_names_;  // lane titles of the current jobs (empty = the engine's)
    std::vector<std::vector<double>> run_stages_ms_;  // the last setGroup, to come back to it
    QStringList run_names_;
    std::vector<double> run_solo_ms_;
};

}  // namespace cl::views
