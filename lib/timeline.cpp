// tickfsm::TimelineWriter: the Chrome trace event format, written with fmt.
// Slices are kept until they close (a complete event needs its duration),
// then sorted by time, parents first, when the document is written.

#include <tickfsm/timeline.hpp>

#include <algorithm>
#include <iterator>
#include <utility>

#include <tickfsm/detail/format.hpp>

#include "fmt_text.hpp"

#include "cause_text.hpp"

namespace tickfsm {

namespace {

constexpr std::size_t kTop = static_cast<std::size_t>(-1);
constexpr int kPid = 1;
constexpr std::size_t kInstantDepth = 1000; // after the slices that start on the same tick

/// `text` as a JSON string, quotes included.
std::string Quoted(std::string_view text) {
    std::string out;
    out.reserve(text.size() + 2);
    out.push_back('"');
    for (const char ch : text) {
        switch (ch) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        default:
            if (static_cast<unsigned char>(ch) < 0x20) fmt::format_to(std::back_inserter(out), "\\u{:04x}", ch);
            else out.push_back(ch);
        }
    }
    out.push_back('"');
    return out;
}

/// The JSON members that say how a state was entered or left: the cause as
/// TracePrinter prints it, and its parts.
std::string CauseMembers(std::string_view prefix, const TransitionInfo& info) {
    std::string out = fmt::format("\"{}\":{}", prefix, Quoted(detail::CauseText(info)));
    if (info.cause == Cause::Condition) fmt::format_to(std::back_inserter(out), ",\"{}_condition\":{}", prefix, info.condition);
    if (info.cause == Cause::Event && info.event)
        fmt::format_to(std::back_inserter(out), ",\"{}_event\":{}", prefix, Quoted(detail::EventText(*info.event)));
    return out;
}

const char* OutcomeText(BufferOutcome outcome) noexcept {
    switch (outcome) {
    case BufferOutcome::Entered: return "entered";
    case BufferOutcome::Replaced: return "replaced";
    case BufferOutcome::TimedOut: return "timed out";
    }
    return "entered";
}

} // namespace

TimelineWriter::TimelineWriter(std::FILE* out, Options chosen) : file(out), options(chosen) {}

TimelineWriter::TimelineWriter(std::string& out, Options chosen) : text(&out), options(chosen) {}

TimelineWriter::~TimelineWriter() { Finish(); }

std::size_t TimelineWriter::TrackOf(std::string_view machine, std::string_view region) {
    for (std::size_t t = 0; t < tracks.size(); ++t)
        if (tracks[t].machine == machine && tracks[t].region == region) return t;
    Track track;
    track.machine = std::string(machine);
    track.region = std::string(region);
    track.tid = static_cast<int>(tracks.size()) + 1;
    tracks.push_back(std::move(track));
    return tracks.size() - 1;
}

const TimelineWriter::States* TimelineWriter::StatesOf(std::string_view machine) const {
    for (const States& table : tables)
        if (table.machine == machine) return &table;
    return nullptr;
}

void TimelineWriter::AddStates(std::string_view machine, std::span<const StateInfo> states) {
    TrackOf(machine);
    // The states given last win over those a Watch still waits to read.
    std::erase_if(waiting, [&](const Waiting& w) { return w.machine == machine; });
    auto found = std::find_if(tables.begin(), tables.end(), [&](const States& s) { return s.machine == machine; });
    if (found == tables.end()) found = tables.insert(tables.end(), States{std::string(machine), {}, {}});
    States* table = &*found;
    table->names.clear();
    table->parents.clear();
    for (const StateInfo& state : states) {
        const std::size_t id = state.id.value;
        if (id >= table->names.size()) {
            table->names.resize(id + 1);
            table->parents.resize(id + 1, kTop);
        }
        table->names[id] = std::string(state.name);
        table->parents[id] = state.parent.Valid() ? state.parent.value : kTop;
    }
}

void TimelineWriter::WatchFromStart(std::string_view machine, const void* watched, DescribeFn describe) {
    TrackOf(machine); // the track is numbered in the order machines are watched
    for (Waiting& w : waiting)
        if (w.machine == machine) {
            w.watched = watched;
            w.describe = describe;
            return;
        }
    waiting.push_back(Waiting{std::string(machine), watched, describe});
}

void TimelineWriter::TakeStates(std::string_view machine) {
    for (std::size_t i = 0; i < waiting.size(); ++i)
        if (waiting[i].machine == machine) {
            const Waiting w = std::move(waiting[i]);
            waiting.erase(waiting.begin() + static_cast<std::ptrdiff_t>(i));
            w.describe(w.watched, *this, w.machine);
            return;
        }
}

std::vector<std::string> TimelineWriter::PathOf(const Track& track, std::string_view leaf) const {
    std::vector<std::string> path{std::string(leaf)};
    const States* table = StatesOf(track.machine);
    if (!table) return path;
    const auto found = std::find(table->names.begin(), table->names.end(), leaf);
    if (found == table->names.end()) return path;
    std::size_t at = static_cast<std::size_t>(found - table->names.begin());
    // Up to the track's region (a region's track shows the states below it);
    // a parent chain longer than the table would be a cycle: stop there.
    for (std::size_t steps = 0; steps < table->names.size(); ++steps) {
        at = table->parents[at];
        if (at == kTop || at >= table->names.size() || table->names[at] == track.region) break;
        path.insert(path.begin(), table->names[at]);
    }
    return path;
}

void TimelineWriter::Close(std::size_t t, std::size_t keep, const std::string& left) {
    while (tracks[t].open.size() > keep) {
        const Open open = std::move(tracks[t].open.back());
        tracks[t].open.pop_back();
        // A parallel state's regions end with it, before it. The observer is
        // not told of their exits: the writer knows them by the states'
        // parents, or without them, ends every region when the machine's own
        // state changes.
        const States* table = StatesOf(tracks[t].machine);
        for (std::size_t u = 0; u < tracks.size(); ++u) {
            if (u == t || tracks[u].machine != tracks[t].machine || tracks[u].region.empty() || tracks[u].open.empty())
                continue;
            bool under = tracks[t].region.empty();
            if (table) {
                const auto region = std::find(table->names.begin(), table->names.end(), tracks[u].region);
                const std::size_t parent =
                    region == table->names.end() ? kTop : table->parents[static_cast<std::size_t>(region - table->names.begin())];
                under = parent != kTop && parent < table->names.size() && table->names[parent] == open.state;
            }
            if (under) Close(u, 0, left);
        }
        const Track& track = tracks[t];
        const std::uint64_t ticks = current_tick >= open.since ? current_tick - open.since : 0;
        Record record;
        record.ts = open.since * options.microseconds_per_tick;
        record.depth = track.open.size();
        record.json = fmt::format(
            "{{\"name\":{},\"cat\":\"state\",\"ph\":\"X\",\"ts\":{},\"dur\":{},\"pid\":{},\"tid\":{},"
            "\"args\":{{\"leaf\":{},{}\"ticks\":{},\"entered_tick\":{},{}{}}}}}",
            Quoted(open.state), record.ts, ticks * options.microseconds_per_tick, kPid, track.tid,
            open.visit > 0 ? "true" : "false", open.visit > 0 ? fmt::format("\"visit\":{},", open.visit) : "",
            ticks, open.since, open.entered, left);
        records.push_back(std::move(record));
    }
}

void TimelineWriter::Instant(std::size_t t, std::string name, std::string args) {
    Record record;
    record.ts = current_tick * options.microseconds_per_tick;
    record.depth = kInstantDepth;
    record.json = fmt::format("{{\"name\":{},\"cat\":\"event\",\"ph\":\"i\",\"s\":\"t\",\"ts\":{},\"pid\":{},"
                              "\"tid\":{},\"args\":{{\"tick\":{}{}}}}}",
                              Quoted(name), record.ts, kPid, tracks[t].tid, current_tick, args);
    records.push_back(std::move(record));
}

void TimelineWriter::OnInitialized(std::string_view machine, std::span<const std::string_view>, std::size_t) {
    if (finished) return;
    if (!waiting.empty()) TakeStates(machine);
    TrackOf(machine); // the track is there before its first slice
}

void TimelineWriter::OnTransition(const TransitionInfo& info) {
    if (finished) return;
    if (!waiting.empty()) TakeStates(info.machine);
    const std::size_t t = TrackOf(info.machine, info.region);
    const std::vector<std::string> path = PathOf(tracks[t], info.to);
    const std::string left =
        fmt::format(",{},\"to\":{},\"left_tick\":{}", CauseMembers("left_by", info), Quoted(info.to), current_tick);
    // The change keeps the active states above the one it named (its
    // target), and enters that one and those below it again even when they
    // were active (a composite entered from its own substate, or from itself).
    std::size_t named = path.size() - 1;
    if (!info.target.empty())
        for (std::size_t i = 0; i < path.size(); ++i)
            if (path[i] == info.target) named = i;
    // What the observer cannot see (a start, a Reset, an observer attached
    // mid-run) shows as every open slice ending here.
    std::size_t keep = 0;
    const std::vector<Open>& open = tracks[t].open;
    if (info.cause != Cause::Initial && !open.empty() && open.back().state == info.from) {
        while (keep < open.size() && keep < named && open[keep].state == path[keep]) ++keep;
        // A push buries the whole active path and a pop leaves the whole pushed one.
        if (info.cause == Cause::Push || info.cause == Cause::Pop) keep = 0;
    }
    Close(t, keep, left);
    const std::string entered = fmt::format("{},\"from\":{}", CauseMembers("cause", info), Quoted(info.from));
    for (std::size_t i = keep; i < path.size(); ++i) {
        Track& track = tracks[t];
        track.open.push_back(Open{path[i], current_tick, entered, i + 1 == path.size() ? ++track.visits : 0});
    }
    if (info.cause == Cause::Event && info.event)
        Instant(t, fmt::format("event {}", detail::EventText(*info.event)),
                fmt::format(",\"from\":{},\"to\":{}", Quoted(info.from), Quoted(info.to)));
}

void TimelineWriter::OnUnhandledEvent(std::string_view machine, std::string_view state, const Event& event) {
    if (finished) return;
    Instant(TrackOf(machine), fmt::format("unhandled {}", detail::EventText(event)),
            fmt::format(",\"state\":{},\"event\":{}", Quoted(state), Quoted(detail::EventText(event))));
}

void TimelineWriter::OnBufferedRequest(std::string_view machine, std::string_view state, BufferOutcome outcome) {
    if (finished) return;
    Instant(TrackOf(machine), fmt::format("buffered {} {}", state, OutcomeText(outcome)),
            fmt::format(",\"state\":{},\"outcome\":{}", Quoted(state), Quoted(OutcomeText(outcome))));
}

void TimelineWriter::OnRefused(std::string_view machine, std::string_view from, std::string_view to) {
    if (finished) return;
    Instant(TrackOf(machine), fmt::format("refused {} -> {}", from, to),
            fmt::format(",\"from\":{},\"to\":{}", Quoted(from), Quoted(to)));
}

void TimelineWriter::OnWarning(std::string_view machine, std::string_view message) {
    if (finished) return;
    Instant(TrackOf(machine), "warning", fmt::format(",\"message\":{}", Quoted(message)));
}

void TimelineWriter::Finish() {
    if (finished) return;
    for (std::size_t t = 0; t < tracks.size(); ++t)
        Close(t, 0, fmt::format(",\"left_by\":\"end\",\"left_tick\":{}", current_tick));
    finished = true;
    std::stable_sort(records.begin(), records.end(), [](const Record& a, const Record& b) {
        return a.ts != b.ts ? a.ts < b.ts : a.depth < b.depth;
    });
    std::string out = fmt::format("{{\"displayTimeUnit\":\"ms\",\"otherData\":{{\"microseconds_per_tick\":{}}},"
                                  "\"traceEvents\":[\n",
                                  options.microseconds_per_tick);
    fmt::format_to(std::back_inserter(out),
                   "{{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":{},\"tid\":0,\"args\":{{\"name\":{}}}}}", kPid,
                   Quoted(options.process));
    for (const Track& track : tracks) {
        fmt::format_to(std::back_inserter(out),
                       ",\n{{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":{},\"tid\":{},\"args\":{{\"name\":{}}}}}",
                       kPid, track.tid, Quoted(track.region.empty() ? track.machine : track.machine + "/" + track.region));
        fmt::format_to(std::back_inserter(out),
                       ",\n{{\"name\":\"thread_sort_index\",\"ph\":\"M\",\"pid\":{},\"tid\":{},"
                       "\"args\":{{\"sort_index\":{}}}}}",
                       kPid, track.tid, track.tid);
    }
    for (const Record& record : records) {
        out += ",\n";
        out += record.json;
    }
    out += "\n]}\n";
    records.clear();
    if (text) text->append(out);
    else if (file) std::fwrite(out.data(), 1, out.size(), file);
}

} // namespace tickfsm
