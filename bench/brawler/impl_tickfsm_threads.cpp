// `tickfsm-crowd-threads`: the agents split into one Crowd per hardware thread
// (contiguous slices), each ticked by TickAll on its own thread, as a game's
// job system would; the harness's thread is the first worker. Not one of the
// spec's four: it shows what the cores of the machine add, against
// `tickfsm-crowd` on one core in the same run (docs/crowds.md, Threads).
#include <algorithm>
#include <barrier>
#include <cstddef>
#include <deque>
#include <memory>
#include <span>
#include <thread>
#include <vector>

#include "brawler.hpp"
#include "impl.hpp"
#include "tickfsm_brawler.hpp"

namespace brawler {
namespace {

using Crowd = tickfsm::Crowd<tickfsm_impl::BrawlerStateManager>;

class TickfsmThreadsImpl final : public ImplBase<TickfsmThreadsImpl> {
 public:
  explicit TickfsmThreadsImpl(std::size_t n)
      : fighters_(n),
        rng_(n),
        workers_(std::clamp<std::size_t>(std::thread::hardware_concurrency(), 1, std::max<std::size_t>(n, 1))),
        start_(static_cast<std::ptrdiff_t>(workers_)),
        done_(static_cast<std::ptrdiff_t>(workers_)) {
    for (std::size_t i = 0; i < n; ++i) rng_[i] = Seed(i);
    for (std::size_t w = 0; w <= workers_; ++w) first_.push_back(n * w / workers_);
    tickfsm_impl::BuildSharedTable();  // the kind's, not this implementation's
    const std::size_t heap = HeapBytesDuring([&] {
      Fighter prototype;
      for (std::size_t w = 0; w < workers_; ++w) crowds_.emplace_back(first_[w + 1] - first_[w], prototype);
    });
    bytes_ = n > 0 ? (workers_ * sizeof(Crowd) + heap) / n : 0;
    for (std::size_t w = 1; w < workers_; ++w)
      threads_.emplace_back([this, w] {
        for (;;) {
          start_.arrive_and_wait();
          if (stop_) return;
          TickSlice(w);
          done_.arrive_and_wait();
        }
      });
  }

  ~TickfsmThreadsImpl() override {
    stop_ = true; // read by the workers after the barrier, which orders it
    if (workers_ > 1) start_.arrive_and_wait();
    threads_.clear(); // joins
  }

  void Tick() override {
    if (workers_ == 1) return TickSlice(0);  // fewer agents than threads: no one to wait for
    start_.arrive_and_wait();
    TickSlice(0);
    done_.arrive_and_wait();
  }

  Checksum Sum() const override {
    Checksum c;
    for (std::size_t w = 0; w < workers_; ++w) {
      const Crowd& crowd = crowds_[w];
      for (std::size_t i = 0; i < crowd.Size(); ++i)
        Accumulate(c, tickfsm_impl::StateIndexOf([&](auto s) { return crowd.template IsIn<decltype(s)>(i); }),
                   fighters_[first_[w] + i]);
    }
    return c;
  }

  std::size_t MachineBytesPerAgent() const override { return bytes_; }

 private:
  void TickSlice(std::size_t w) {
    const std::size_t first = first_[w];
    std::uint32_t* const rng = rng_.data() + first;
    crowds_[w].TickAll(std::span<Fighter>(fighters_).subspan(first, first_[w + 1] - first),
                       [rng](std::size_t i, Fighter& f) {
                         const Input in = DrawInput(rng[i]);
                         Physics(f);
                         return in;
                       });
  }

  std::vector<Fighter> fighters_;
  std::vector<std::uint32_t> rng_;
  std::size_t workers_;
  std::vector<std::size_t> first_;  // worker w ticks agents [first_[w], first_[w + 1])
  std::deque<Crowd> crowds_;        // a Crowd does not move
  std::barrier<> start_, done_;
  bool stop_ = false;
  std::vector<std::jthread> threads_;
  std::size_t bytes_ = 0;
};

std::unique_ptr<Impl> Make(std::size_t n) { return std::make_unique<TickfsmThreadsImpl>(n); }

}  // namespace
}  // namespace brawler

extern const brawler::ImplInfo kTickfsmCrowdThreadsImpl{"tickfsm-crowd-threads", &brawler::Make, true};
