// `tickfsm-static`: one StaticStateManager per agent, on kBrawlerTransitions
// (the same machine as `tickfsm`, as a compile-time table).
// `tickfsm-static-crowd`: a StaticCrowd of that table, ticked by TickAll.
// Neither is one of the spec's four implementations: they show what the
// machine costs when its table is known at compile time.
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "brawler.hpp"
#include "impl.hpp"
#include "tickfsm_brawler.hpp"

namespace brawler {
namespace {

using tickfsm_impl::kBrawlerTransitions;
using StaticMachine = tickfsm::StaticStateManager<kBrawlerTransitions>;
using StaticCrowd = tickfsm::StaticCrowd<kBrawlerTransitions>;

class StaticImpl final : public ImplBase<StaticImpl> {
 public:
  explicit StaticImpl(std::size_t n) : fighters_(n), rng_(n) {
    for (std::size_t i = 0; i < n; ++i) rng_[i] = Seed(i);
    machines_.reserve(n);
    const std::size_t heap = HeapBytesDuring([&] {
      for (std::size_t i = 0; i < n; ++i) machines_.emplace_back(fighters_[i], DT);
    });
    bytes_ = sizeof(StaticMachine) + (n > 0 ? heap / n : 0);
  }

  void Tick() override {
    const std::size_t n = fighters_.size();
    Fighter* const fighters = fighters_.data();
    std::uint32_t* const rng = rng_.data();
    StaticMachine* const machines = machines_.data();
    for (std::size_t i = 0; i < n; ++i) {
      const Input in = DrawInput(rng[i]);
      Physics(fighters[i]);
      machines[i].Perform(in);
    }
  }

  Checksum Sum() const override {
    Checksum c;
    for (std::size_t i = 0; i < fighters_.size(); ++i) {
      const StaticMachine& m = machines_[i];
      Accumulate(c, tickfsm_impl::StateIndexOf([&](auto s) { return m.IsIn<decltype(s)>(); }), fighters_[i]);
    }
    return c;
  }

  std::size_t MachineBytesPerAgent() const override { return bytes_; }

 private:
  std::vector<Fighter> fighters_;
  std::vector<std::uint32_t> rng_;
  std::vector<StaticMachine> machines_;
  std::size_t bytes_ = 0;
};

class StaticCrowdImpl final : public ImplBase<StaticCrowdImpl> {
 public:
  explicit StaticCrowdImpl(std::size_t n) : fighters_(n), rng_(n) {
    for (std::size_t i = 0; i < n; ++i) rng_[i] = Seed(i);
    const std::size_t heap = HeapBytesDuring([&] { crowd_.emplace(n, DT); });
    bytes_ = n > 0 ? (sizeof(StaticCrowd) + heap) / n : 0;
  }

  void Tick() override {
    std::uint32_t* const rng = rng_.data();
    crowd_->TickAll(std::span<Fighter>(fighters_), [rng](std::size_t i, Fighter& f) {
      const Input in = DrawInput(rng[i]);
      Physics(f);
      return in;
    });
  }

  Checksum Sum() const override {
    Checksum c;
    const StaticCrowd& crowd = *crowd_;
    for (std::size_t i = 0; i < fighters_.size(); ++i)
      Accumulate(c, tickfsm_impl::StateIndexOf([&](auto s) { return crowd.IsIn<decltype(s)>(i); }), fighters_[i]);
    return c;
  }

  std::size_t MachineBytesPerAgent() const override { return bytes_; }

 private:
  std::vector<Fighter> fighters_;
  std::vector<std::uint32_t> rng_;
  std::optional<StaticCrowd> crowd_;
  std::size_t bytes_ = 0;
};

std::unique_ptr<Impl> MakeStatic(std::size_t n) { return std::make_unique<StaticImpl>(n); }
std::unique_ptr<Impl> MakeStaticCrowd(std::size_t n) { return std::make_unique<StaticCrowdImpl>(n); }

}  // namespace
}  // namespace brawler

extern const brawler::ImplInfo kTickfsmStaticImpl{"tickfsm-static", &brawler::MakeStatic, true};
extern const brawler::ImplInfo kTickfsmStaticCrowdImpl{"tickfsm-static-crowd", &brawler::MakeStaticCrowd, true};
