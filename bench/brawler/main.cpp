// The brawler benchmark harness: checks that every implementation computes the
// same result, then times them interleaved. Usage: see PrintUsage().
// With --ticks T it instead runs each implementation T ticks once, untimed, for
// instruction counting under callgrind (bench/callgrind.sh).
#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "brawler.hpp"
#include "impl.hpp"

namespace {

using brawler::Checksum;
using brawler::HeapCounter;
using brawler::Impl;
using brawler::ImplInfo;
using Clock = std::chrono::steady_clock;

// 10 s of game time: long enough for every state and transition to occur.
constexpr std::uint64_t kCheckTicks = 600;

struct Options {
  std::vector<std::size_t> ns;
  std::vector<std::string> impls;  // empty: all
  double min_time = 0.5;
  int reps = 5;
  bool quick = false;
  std::uint64_t ticks = 0;  // --ticks T: 0 = timed benchmark
};

struct Row {
  std::string impl;
  std::size_t n = 0;
  double median_ns = 0;
  double min_ns = 0;
  double ratio = 0;
  std::size_t bytes = 0;
  double allocs_per_agent_tick = 0;
  bool allocated_illegally = false;
  Checksum sum;
};

struct Entry {
  const ImplInfo* info = nullptr;
  std::unique_ptr<Impl> impl;
  std::size_t bytes = 0;
  Checksum sum;
  std::uint64_t batch = 1;  // ticks per clock read
  std::vector<double> ns;   // per agent-tick, one per rep
  std::size_t check_allocs = 0;
  std::size_t timed_allocs = 0;
  double timed_agent_ticks = 0;
};

void PrintUsage(const char* argv0) {
  std::fprintf(stderr,
               "usage: %s [--n N]... [--impl NAME]... [--min-time SECONDS] [--reps R] [--quick]\n"
               "       %s --ticks T [--n N]... [--impl NAME]...\n"
               "  --n N         agent count; repeatable (default 1 1000 100000 1000000)\n"
               "  --impl NAME   run only these implementations; repeatable (default all;\n"
               "                ratios need %s among them)\n"
               "  --min-time S  minimum seconds per measurement (default 0.5)\n"
               "  --reps R      measurements per implementation and N (default 5)\n"
               "  --quick       smoke run: N = 1 1000, min-time 0.02, reps 3\n"
               "  --ticks T     no timing: for each N and implementation, construct it, run\n"
               "                T ticks once (no warm-up, no check pass) and print\n"
               "                `TICKS impl=NAME n=N ticks=T sum=S hash=H` (for callgrind)\n",
               argv0, argv0, brawler::BaselineImpl());
}

bool ParseOptions(int argc, char** argv, Options& opt) {
  std::vector<std::size_t> ns;
  double min_time = -1;
  int reps = -1;
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    std::string value;
    bool has_value = false;
    if (const auto eq = arg.find('='); eq != std::string_view::npos) {
      value = std::string(arg.substr(eq + 1));
      arg = arg.substr(0, eq);
      has_value = true;
    }
    auto next = [&]() -> bool {
      if (has_value) return true;
      if (i + 1 >= argc) return false;
      value = argv[++i];
      return true;
    };
    try {
      if (arg == "--quick") {
        opt.quick = true;
      } else if (arg == "--n" && next()) {
        const auto n = std::stoull(value);
        if (n == 0) return false;
        ns.push_back(static_cast<std::size_t>(n));
      } else if (arg == "--impl" && next()) {
        opt.impls.push_back(value);
      } else if (arg == "--min-time" && next()) {
        min_time = std::stod(value);
        if (!(min_time > 0)) return false;
      } else if (arg == "--reps" && next()) {
        reps = std::stoi(value);
        if (reps < 1) return false;
      } else if (arg == "--ticks" && next()) {
        if (value.empty() || value[0] == '-') return false;  // stoull accepts "-1"
        opt.ticks = std::stoull(value);
        if (opt.ticks == 0) return false;
      } else {
        return false;
      }
    } catch (const std::exception&) {
      return false;
    }
  }
  if (opt.quick) {
    opt.ns = {1, 1000};
    opt.min_time = 0.02;
    opt.reps = 3;
  } else {
    opt.ns = {1, 1000, 100000, 1000000};
  }
  if (!ns.empty()) opt.ns = ns;
  if (min_time > 0) opt.min_time = min_time;
  if (reps > 0) opt.reps = reps;
  return true;
}

std::vector<const ImplInfo*> SelectedImpls(const Options& opt) {
  std::vector<const ImplInfo*> impls;
  for (const ImplInfo* info : brawler::AllImpls()) {
    if (opt.impls.empty() ||
        std::find(opt.impls.begin(), opt.impls.end(), info->name) != opt.impls.end()) {
      impls.push_back(info);
    }
  }
  return impls;
}

double Seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }

std::int64_t Signed(std::uint64_t v) { return static_cast<std::int64_t>(v); }

// Whole batches of ticks until at least min_time has passed; returns seconds.
double RunFor(Impl& impl, std::uint64_t batch, double min_time, std::uint64_t& ticks) {
  const Clock::time_point start = Clock::now();
  Clock::time_point now;
  ticks = 0;
  do {
    impl.Run(batch);
    ticks += batch;
    now = Clock::now();
  } while (Seconds(now - start) < min_time);
  return Seconds(now - start);
}

// Doubles the batch until one batch takes `target` seconds, so that reading the
// clock costs nothing next to the work even at N = 1. Also serves as warm-up.
std::uint64_t Calibrate(Impl& impl, double target) {
  std::uint64_t batch = 1;
  for (;;) {
    const Clock::time_point start = Clock::now();
    impl.Run(batch);
    if (Seconds(Clock::now() - start) >= target || batch >= (std::uint64_t{1} << 30)) break;
    batch *= 2;
  }
  return batch;
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t m = v.size() / 2;
  return v.size() % 2 == 1 ? v[m] : (v[m - 1] + v[m]) / 2;
}

// Returns false on a checksum mismatch (already reported).
bool RunN(std::size_t n, const Options& opt, std::vector<Row>& rows) {
  const std::vector<const ImplInfo*> impls = SelectedImpls(opt);
  std::vector<Entry> entries(impls.size());

  // Correctness: every implementation, fresh, the same kCheckTicks ticks.
  for (std::size_t k = 0; k < impls.size(); ++k) {
    Entry& e = entries[k];
    e.info = impls[k];
    std::fprintf(stderr, "n=%zu %s: build + %" PRIu64 " check ticks\n", n, e.info->name,
                 kCheckTicks);
    e.impl = e.info->make(n);
    e.bytes = e.impl->MachineBytesPerAgent();
    const std::size_t allocs = HeapCounter::count();
    e.impl->Run(kCheckTicks);
    e.check_allocs = HeapCounter::count() - allocs;
    e.sum = e.impl->Sum();
  }
  bool same = true;
  for (const Entry& e : entries) same = same && e.sum == entries[0].sum;
  if (!same) {
    std::printf("CHECKSUM MISMATCH at n=%zu after %" PRIu64 " ticks:\n", n, kCheckTicks);
    for (const Entry& e : entries) {
      std::printf("  impl=%-14s sum=%" PRId64 " hash=%016" PRIx64 "%s\n", e.info->name,
                  Signed(e.sum.sum), e.sum.hash, e.sum == entries[0].sum ? "" : "  <-- differs");
    }
    std::fflush(stdout);
    return false;
  }
  if (n >= 1000) brawler::CheckCoverage(n, kCheckTicks);

  // Warm-up, then interleaved measurements: rep 1 runs every impl, then rep 2, ...
  const double target = std::min(1e-3, opt.min_time / 20);
  for (Entry& e : entries) {
    std::uint64_t ticks = 0;
    e.batch = Calibrate(*e.impl, target);
    RunFor(*e.impl, e.batch, opt.min_time / 4, ticks);
  }
  for (int rep = 0; rep < opt.reps; ++rep) {
    for (Entry& e : entries) {
      std::fprintf(stderr, "n=%zu rep %d/%d %s\n", n, rep + 1, opt.reps, e.info->name);
      std::uint64_t ticks = 0;
      const std::size_t allocs = HeapCounter::count();
      const double seconds = RunFor(*e.impl, e.batch, opt.min_time, ticks);
      e.timed_allocs += HeapCounter::count() - allocs;
      const double agent_ticks = static_cast<double>(ticks) * static_cast<double>(n);
      e.timed_agent_ticks += agent_ticks;
      e.ns.push_back(seconds * 1e9 / agent_ticks);
    }
  }

  double base = 0;
  for (const Entry& e : entries) {
    if (std::strcmp(e.info->name, brawler::BaselineImpl()) == 0) base = Median(e.ns);
  }
  for (const Entry& e : entries) {
    Row r;
    r.impl = e.info->name;
    r.n = n;
    r.median_ns = Median(e.ns);
    r.min_ns = *std::min_element(e.ns.begin(), e.ns.end());
    r.ratio = base > 0 ? r.median_ns / base : 0;
    r.bytes = e.bytes;
    r.allocs_per_agent_tick = static_cast<double>(e.timed_allocs) / e.timed_agent_ticks;
    r.sum = e.sum;
    r.allocated_illegally = e.info->must_not_allocate && e.check_allocs + e.timed_allocs > 0;
    if (r.allocated_illegally) {
      std::printf("ALLOCATION: impl=%s n=%zu allocated %zu times while ticking\n", e.info->name,
                  n, e.check_allocs + e.timed_allocs);
    }
    rows.push_back(r);
  }
  return true;
}

// --ticks: exactly one impl->Run(ticks) per implementation and N, nothing else
// ticks, so that a profiler collecting inside ImplBase<...>::Run sees only them.
void RunTicks(const Options& opt) {
  for (const std::size_t n : opt.ns) {
    for (const ImplInfo* info : SelectedImpls(opt)) {
      std::unique_ptr<Impl> impl = info->make(n);
      impl->Run(opt.ticks);
      const Checksum sum = impl->Sum();
      std::printf("TICKS impl=%s n=%zu ticks=%" PRIu64 " sum=%" PRId64 " hash=%016" PRIx64 "\n",
                  info->name, n, opt.ticks, Signed(sum.sum), sum.hash);
      std::fflush(stdout);
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  Options opt;
  if (!ParseOptions(argc, argv, opt)) {
    PrintUsage(argv[0]);
    return 2;
  }
  for (const std::string& name : opt.impls) {
    const auto all = brawler::AllImpls();
    if (std::none_of(all.begin(), all.end(), [&](const ImplInfo* i) { return name == i->name; })) {
      std::fprintf(stderr, "unknown implementation '%s'; known:", name.c_str());
      for (const ImplInfo* i : all) std::fprintf(stderr, " %s", i->name);
      std::fprintf(stderr, "\n");
      return 2;
    }
  }

  if (opt.ticks > 0) {
#ifndef __OPTIMIZE__
    std::fprintf(stderr, "WARNING: built without optimization; instruction counts are meaningless\n");
#endif
    RunTicks(opt);
    return 0;
  }

#ifndef __OPTIMIZE__
  std::printf("WARNING: built without optimization; timings are meaningless\n");
#endif
  std::printf("%s: %s, reps=%d, min-time=%.3gs, checksum after %" PRIu64 " ticks\n",
              brawler::BenchmarkName(), __VERSION__, opt.reps, opt.min_time, kCheckTicks);

  std::vector<Row> rows;
  for (const std::size_t n : opt.ns) {
    if (!RunN(n, opt, rows)) return 1;
  }

  bool allocated = false;
  std::printf("\n%-14s %8s %10s %10s %7s %7s %12s %22s %16s\n", "impl", "N", "median ns",
              "min ns", "ratio", "bytes", "allocs/a-t", "sum", "hash");
  for (const Row& r : rows) {
    allocated = allocated || r.allocated_illegally;
    std::printf("%-14s %8zu %10.2f %10.2f %7.2f %7zu %12.3g %22" PRId64 " %016" PRIx64 "\n",
                r.impl.c_str(), r.n, r.median_ns, r.min_ns, r.ratio, r.bytes,
                r.allocs_per_agent_tick, Signed(r.sum.sum),
                r.sum.hash);
  }
  std::printf("\n");
  for (const Row& r : rows) {
    std::printf("RESULT n=%zu impl=%s ns=%.2f ratio=%.2f bytes=%zu sum=%" PRId64
                " hash=%016" PRIx64 "\n",
                r.n, r.impl.c_str(), r.median_ns, r.ratio, r.bytes, Signed(r.sum.sum), r.sum.hash);
  }
  if (allocated) {
    std::printf("FAILED: an implementation that must not allocate did\n");
    return 1;
  }
  return 0;
}
