// `tickfsm-crowd-perform`: the crowd of `tickfsm-crowd`, ticked one character at
// a time by Crowd::Perform in the user's own loop (as a game that interleaves
// other per-character work would), rather than by TickAll. Not one of the
// spec's four implementations: it shows what the per-character entry costs.
#include <memory>
#include <optional>
#include <vector>

#include "brawler.hpp"
#include "impl.hpp"
#include "tickfsm_brawler.hpp"

namespace brawler {
namespace {

using Crowd = tickfsm::Crowd<tickfsm_impl::BrawlerStateManager>;

class TickfsmCrowdPerformImpl final : public ImplBase<TickfsmCrowdPerformImpl> {
 public:
  explicit TickfsmCrowdPerformImpl(std::size_t n) : fighters_(n), rng_(n) {
    for (std::size_t i = 0; i < n; ++i) rng_[i] = Seed(i);
    Fighter prototype;
    const std::size_t heap = HeapBytesDuring([&] { crowd_.emplace(n, prototype); });
    bytes_ = n > 0 ? (sizeof(Crowd) + heap) / n : 0;
  }

  void Tick() override {
    const std::size_t n = fighters_.size();
    Fighter* const fighters = fighters_.data();
    std::uint32_t* const rng = rng_.data();
    Crowd& crowd = *crowd_;
    for (std::size_t i = 0; i < n; ++i) {
      const Input in = DrawInput(rng[i]);
      Physics(fighters[i]);
      crowd.Perform(i, fighters[i], in);
    }
  }

  Checksum Sum() const override {
    Checksum c;
    const Crowd& crowd = *crowd_;
    for (std::size_t i = 0; i < fighters_.size(); ++i)
      Accumulate(c, tickfsm_impl::StateIndexOf([&](auto s) { return crowd.IsIn<decltype(s)>(i); }), fighters_[i]);
    return c;
  }

  std::size_t MachineBytesPerAgent() const override { return bytes_; }

 private:
  std::vector<Fighter> fighters_;
  std::vector<std::uint32_t> rng_;
  std::optional<Crowd> crowd_;
  std::size_t bytes_ = 0;
};

std::unique_ptr<Impl> Make(std::size_t n) { return std::make_unique<TickfsmCrowdPerformImpl>(n); }

}  // namespace
}  // namespace brawler

extern const brawler::ImplInfo kTickfsmCrowdPerformImpl{"tickfsm-crowd-perform", &brawler::Make, true};
