// `tickfsm-crowd`: the same BrawlerStateManager configuration, one shared table,
// 8 bytes per agent, ticked by TickAll.
// `tickfsm-crowd-perform`: that crowd ticked one character at a time by
// Crowd::Perform in the harness's own loop (as a game that interleaves other
// per-character work would). Not one of the spec's four implementations: it
// shows what the per-character entry costs.
// `tickfsm-crowd-by-state`: that crowd ticked by TickAll(..., TickOrder::ByState): each block of
// 256 agents has its inputs drawn and its physics run in index order, then
// ticks grouped by state. The checksum is the same, as agents do not read
// each other. Not one of the spec's four either.
// `tickfsm-static-crowd`: a StaticCrowd of kBrawlerTransitions (the same
// machine as a compile-time table), ticked by TickAll. Not one of the spec's
// four either: it shows what a crowd costs when its table is known at compile
// time.
// `tickfsm-static-crowd-by-state`: that StaticCrowd ticked by TickAll(..., TickOrder::ByState).
#include <memory>
#include <optional>
#include <span>
#include <type_traits>
#include <vector>

#include "brawler.hpp"
#include "impl.hpp"
#include "tickfsm_brawler.hpp"

namespace brawler {
namespace {

using Crowd = tickfsm::Crowd<tickfsm_impl::BrawlerStateManager>;
using StaticCrowd = tickfsm_impl::BrawlerStaticCrowd;

// How the harness ticks the crowd.
enum class Loop { kTickAll, kPerformEach, kByState };

template <class CrowdType, Loop kLoop>
class TickfsmCrowdImpl final : public ImplBase<TickfsmCrowdImpl<CrowdType, kLoop>> {
 public:
  explicit TickfsmCrowdImpl(std::size_t n) : fighters_(n), rng_(n) {
    for (std::size_t i = 0; i < n; ++i) rng_[i] = Seed(i);
    tickfsm_impl::BuildSharedTable();  // the kind's, not this implementation's
    const std::size_t heap = HeapBytesDuring([&] {
      if constexpr (std::is_same_v<CrowdType, Crowd>) {
        Fighter prototype;
        crowd_.emplace(n, prototype);
      } else {
        crowd_.emplace(n, DT);
      }
    });
    bytes_ = n > 0 ? (sizeof(CrowdType) + heap) / n : 0;
  }

  void Tick() override {
    std::uint32_t* const rng = rng_.data();
    if constexpr (kLoop == Loop::kPerformEach) {
      const std::size_t n = fighters_.size();
      Fighter* const fighters = fighters_.data();
      CrowdType& crowd = *crowd_;
      for (std::size_t i = 0; i < n; ++i) {
        const Input in = DrawInput(rng[i]);
        Physics(fighters[i]);
        crowd.Perform(i, fighters[i], in);
      }
    } else if constexpr (kLoop == Loop::kByState) {
      crowd_->TickAll(std::span<Fighter>(fighters_), [rng](std::size_t i, Fighter& f) {
        const Input in = DrawInput(rng[i]);
        Physics(f);
        return in;
      }, tickfsm::TickOrder::ByState);
    } else {
      crowd_->TickAll(std::span<Fighter>(fighters_), [rng](std::size_t i, Fighter& f) {
        const Input in = DrawInput(rng[i]);
        Physics(f);
        return in;
      });
    }
  }

  Checksum Sum() const override {
    Checksum c;
    const CrowdType& crowd = *crowd_;
    for (std::size_t i = 0; i < fighters_.size(); ++i)
      Accumulate(c, tickfsm_impl::StateIndexOf([&](auto s) { return crowd.template IsIn<decltype(s)>(i); }),
                 fighters_[i]);
    return c;
  }

  std::size_t MachineBytesPerAgent() const override { return bytes_; }

 private:
  std::vector<Fighter> fighters_;
  std::vector<std::uint32_t> rng_;
  std::optional<CrowdType> crowd_;
  std::size_t bytes_ = 0;
};

template <class CrowdType, Loop kLoop>
std::unique_ptr<Impl> Make(std::size_t n) {
  return std::make_unique<TickfsmCrowdImpl<CrowdType, kLoop>>(n);
}

}  // namespace
}  // namespace brawler

extern const brawler::ImplInfo kTickfsmCrowdImpl{"tickfsm-crowd", &brawler::Make<brawler::Crowd, brawler::Loop::kTickAll>,
                                                 true};
extern const brawler::ImplInfo kTickfsmCrowdPerformImpl{"tickfsm-crowd-perform",
                                                        &brawler::Make<brawler::Crowd, brawler::Loop::kPerformEach>, true};
extern const brawler::ImplInfo kTickfsmCrowdByStateImpl{"tickfsm-crowd-by-state",
                                                        &brawler::Make<brawler::Crowd, brawler::Loop::kByState>, true};
extern const brawler::ImplInfo kTickfsmStaticCrowdImpl{"tickfsm-static-crowd",
                                                       &brawler::Make<brawler::StaticCrowd, brawler::Loop::kTickAll>,
                                                       true};
extern const brawler::ImplInfo kTickfsmStaticCrowdByStateImpl{
    "tickfsm-static-crowd-by-state", &brawler::Make<brawler::StaticCrowd, brawler::Loop::kByState>, true};
