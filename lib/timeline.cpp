// tickfsm::TimelineWriter: the Chrome trace event format, written with fmt.
// Slices are kept until they close (a complete event needs its duration),
// then sorted by time, parents first, when the document is written.

#include <tickfsm/timeline.hpp>

#include <algorithm>
#include <iterator>
#include <utility>

#include <tickfsm/detail/format.hpp>

#include <fmt/format.h>

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

TimelineWriter::TimelineWriter(std::FILE* out, Options options) : file_(out), options_(options) {}

TimelineWriter::TimelineWriter(std::string& out, Options options) : text_(&out), options_(options) {}

TimelineWriter::~TimelineWriter() { Finish(); }

TimelineWriter::Track& TimelineWriter::TrackOf(std::string_view machine) {
    for (Track& track : tracks_)
        if (track.machine == machine) return track;
    Track track;
    track.machine = std::string(machine);
    track.tid = static_cast<int>(tracks_.size()) + 1;
    tracks_.push_back(std::move(track));
    return tracks_.back();
}

void TimelineWriter::AddStates(std::string_view machine, std::span<const StateInfo> states) {
    Track& track = TrackOf(machine);
    track.names.clear();
    track.parents.clear();
    for (const StateInfo& state : states) {
        const std::size_t id = state.id.value;
        if (id >= track.names.size()) {
            track.names.resize(id + 1);
            track.parents.resize(id + 1, kTop);
        }
        track.names[id] = std::string(state.name);
        track.parents[id] = state.parent.Valid() ? state.parent.value : kTop;
    }
}

std::vector<std::string> TimelineWriter::PathOf(const Track& track, std::string_view leaf) const {
    std::vector<std::string> path{std::string(leaf)};
    const auto found = std::find(track.names.begin(), track.names.end(), leaf);
    if (found == track.names.end()) return path;
    std::size_t at = static_cast<std::size_t>(found - track.names.begin());
    // A parent chain longer than the table would be a cycle: stop there.
    for (std::size_t steps = 0; steps < track.names.size(); ++steps) {
        at = track.parents[at];
        if (at == kTop || at >= track.names.size()) break;
        path.insert(path.begin(), track.names[at]);
    }
    return path;
}

void TimelineWriter::Close(Track& track, std::size_t keep, const std::string& left) {
    while (track.open.size() > keep) {
        const Open& open = track.open.back();
        const std::uint64_t ticks = tick_ >= open.since ? tick_ - open.since : 0;
        Record record;
        record.ts = open.since * options_.microseconds_per_tick;
        record.depth = track.open.size() - 1;
        record.json = fmt::format(
            "{{\"name\":{},\"cat\":\"state\",\"ph\":\"X\",\"ts\":{},\"dur\":{},\"pid\":{},\"tid\":{},"
            "\"args\":{{\"leaf\":{},{}\"ticks\":{},\"entered_tick\":{},{}{}}}}}",
            Quoted(open.state), record.ts, ticks * options_.microseconds_per_tick, kPid, track.tid,
            open.visit > 0 ? "true" : "false", open.visit > 0 ? fmt::format("\"visit\":{},", open.visit) : "",
            ticks, open.since, open.entered, left);
        records_.push_back(std::move(record));
        track.open.pop_back();
    }
}

void TimelineWriter::Instant(std::string_view machine, std::string name, std::string args) {
    const Track& track = TrackOf(machine);
    Record record;
    record.ts = tick_ * options_.microseconds_per_tick;
    record.depth = kInstantDepth;
    record.json = fmt::format("{{\"name\":{},\"cat\":\"event\",\"ph\":\"i\",\"s\":\"t\",\"ts\":{},\"pid\":{},"
                              "\"tid\":{},\"args\":{{\"tick\":{}{}}}}}",
                              Quoted(name), record.ts, kPid, track.tid, tick_, args);
    records_.push_back(std::move(record));
}

void TimelineWriter::OnInitialized(std::string_view machine, std::span<const std::string_view>, std::size_t) {
    if (!finished_) TrackOf(machine); // the track is there before its first slice
}

void TimelineWriter::OnTransition(const TransitionInfo& info) {
    if (finished_) return;
    Track& track = TrackOf(info.machine);
    const std::vector<std::string> path = PathOf(track, info.to);
    const std::string left =
        fmt::format(",{},\"to\":{},\"left_tick\":{}", CauseMembers("left_by", info), Quoted(info.to), tick_);
    // What the observer cannot see (a start, a Reset, an observer attached
    // mid-run) shows as every open slice ending here.
    std::size_t keep = 0;
    if (info.cause != Cause::Initial && !track.open.empty() && track.open.back().state == info.from) {
        while (keep < track.open.size() && keep < path.size() && track.open[keep].state == path[keep]) ++keep;
        if (keep == path.size() && info.from == info.to) --keep; // the state is left and entered again
        // A push buries the whole active path and a pop leaves the whole pushed one.
        if (info.cause == Cause::Push || info.cause == Cause::Pop) keep = 0;
    }
    Close(track, keep, left);
    const std::string entered = fmt::format("{},\"from\":{}", CauseMembers("cause", info), Quoted(info.from));
    for (std::size_t i = keep; i < path.size(); ++i)
        track.open.push_back(Open{path[i], tick_, entered, i + 1 == path.size() ? ++track.visits : 0});
    if (info.cause == Cause::Event && info.event)
        Instant(info.machine, "event " + detail::EventText(*info.event),
                fmt::format(",\"from\":{},\"to\":{}", Quoted(info.from), Quoted(info.to)));
}

void TimelineWriter::OnUnhandledEvent(std::string_view machine, std::string_view state, const Event& event) {
    if (finished_) return;
    Instant(machine, "unhandled " + detail::EventText(event),
            fmt::format(",\"state\":{},\"event\":{}", Quoted(state), Quoted(detail::EventText(event))));
}

void TimelineWriter::OnBufferedRequest(std::string_view machine, std::string_view state, BufferOutcome outcome) {
    if (finished_) return;
    Instant(machine, fmt::format("buffered {} {}", state, OutcomeText(outcome)),
            fmt::format(",\"state\":{},\"outcome\":{}", Quoted(state), Quoted(OutcomeText(outcome))));
}

void TimelineWriter::OnWarning(std::string_view machine, std::string_view message) {
    if (finished_) return;
    Instant(machine, "warning", fmt::format(",\"message\":{}", Quoted(message)));
}

void TimelineWriter::Finish() {
    if (finished_) return;
    for (Track& track : tracks_) Close(track, 0, fmt::format(",\"left_by\":\"end\",\"left_tick\":{}", tick_));
    finished_ = true;
    std::stable_sort(records_.begin(), records_.end(), [](const Record& a, const Record& b) {
        return a.ts != b.ts ? a.ts < b.ts : a.depth < b.depth;
    });
    std::string out = fmt::format("{{\"displayTimeUnit\":\"ms\",\"otherData\":{{\"microseconds_per_tick\":{}}},"
                                  "\"traceEvents\":[\n",
                                  options_.microseconds_per_tick);
    fmt::format_to(std::back_inserter(out),
                   "{{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":{},\"tid\":0,\"args\":{{\"name\":{}}}}}", kPid,
                   Quoted(options_.process));
    for (const Track& track : tracks_) {
        fmt::format_to(std::back_inserter(out),
                       ",\n{{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":{},\"tid\":{},\"args\":{{\"name\":{}}}}}",
                       kPid, track.tid, Quoted(track.machine));
        fmt::format_to(std::back_inserter(out),
                       ",\n{{\"name\":\"thread_sort_index\",\"ph\":\"M\",\"pid\":{},\"tid\":{},"
                       "\"args\":{{\"sort_index\":{}}}}}",
                       kPid, track.tid, track.tid);
    }
    for (const Record& record : records_) {
        out += ",\n";
        out += record.json;
    }
    out += "\n]}\n";
    records_.clear();
    if (text_) text_->append(out);
    else if (file_) std::fwrite(out.data(), 1, out.size(), file_);
}

} // namespace tickfsm
