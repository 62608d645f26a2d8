#include "views/shell/view_help.h"

#include <QCoreApplication>

namespace cl::views {

namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("cl::views::ViewHelp", text);
}

}  // namespace

QString whatsThisForView(const QString& viewName) {
    if (viewName == QLatin1String("results"))
        return tr(
            "<b>Results</b><p>The latest run of every scenario in the selected scenario's family (the "
            "scenarios sharing the first part of its name) side by side, and the GPU utilization of "
            "the selected row's run. Picking a row selects its scenario in the whole window. When the "
            "family's scenarios run different traces, each row names its trace. Ctrl+E exports the "
            "table as CSV.</p>");
    if (viewName == QLatin1String("cluster"))
        return tr(
            "<b>Cluster</b><p>The cluster as a tree and a diagram of racks, servers and GPUs. Add servers "
            "from the toolbar's presets, duplicate (Ctrl+D) or remove (Del) a selection, edit it in the "
            "side panel; every edit can be undone. The strip below simulates the selected scenario on "
            "the edited cluster after each edit and compares it with the scenario's stored run. Ctrl+S "
            "stores the edits as a new cluster.</p>");
    if (viewName == QLatin1String("trace"))
        return tr(
            "<b>Trace</b><p>The jobs of the selected scenario's trace in a sortable table, filtered by "
            "model, GPU count and submit time, with histograms of GPU demand, duration and arrivals of "
            "the filtered jobs.</p>");
    if (viewName == QLatin1String("timeline"))
        return tr(
            "<b>Timeline</b><p>Every GPU of the selected run over time, grouped by server, a bar per job; "
            "interleaved jobs share a GPU in lanes. The wheel zooms, dragging pans, Home shows the whole "
            "run. Hover a bar for the job and its partners; click it to highlight its GPUs and send its "
            "group to the Interleaving view.</p>");
    if (viewName == QLatin1String("charts"))
        return tr(
            "<b>Charts</b><p>Utilization, queue length, running jobs and blocking index of the family's "
            "runs overlaid, with a time cursor shared with the Timeline. The Runs button picks which runs "
            "are drawn.</p>");
    if (viewName == QLatin1String("compare"))
        return tr(
            "<b>Compare</b><p>Any runs of the workspace against a baseline, as the papers show them: "
            "normalized JCT, makespan and queueing, JCT CDFs, per-model and per-size figures, and JCT "
            "against load. File › Comparison Report (Ctrl+R) writes it all into one PDF.</p>");
    if (viewName == QLatin1String("interleave"))
        return tr(
            "<b>Interleaving</b><p>A few iterations of one to four jobs as a Gantt of their storage, CPU, "
            "GPU and network stages, as in the Muri paper: which job holds each resource when, and what "
            "sits idle. The headline gives gamma, the iteration time and the speed-up. Guided tour walks "
            "through the paper's figures; the Matching graph tab shows the groups Muri forms.</p>");
    if (viewName == QLatin1String("profiles"))
        return tr(
            "<b>Profiles</b><p>The model profiles of the workspace: each model's per-iteration stage times "
            "(storage, CPU, GPU, network), imported from PyTorch profiler traces (File › Import Profiler "
            "Traces) or built in, with the spread of the measured steps.</p>");
    if (viewName == QLatin1String("plan"))
        return tr(
            "<b>Plan</b><p>The cheapest cluster and policy that meet your targets: per server type and "
            "policy the smallest server count meeting every target, checked against its neighbours, "
            "ranked by cost. An overloaded cluster is never an answer. Every point is a stored scenario "
            "you can open in the other views.</p>");
    if (viewName == QLatin1String("replay"))
        return tr(
            "<b>Replay</b><p>A Slurm import's scenario run under the slurm policy against what Slurm "
            "recorded: the simulated and the recorded start of every job, and how far they are apart. "
            "Plan only from a replay that matches.</p>");
    return {};
}

}  // namespace cl::views
