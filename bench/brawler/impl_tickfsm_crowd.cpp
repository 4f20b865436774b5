// `tickfsm-crowd`: the same BrawlerStateManager configuration, one shared table,
// 8 bytes per agent.
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "brawler.hpp"
#include "impl.hpp"
#include "tickfsm_brawler.hpp"

namespace brawler {
namespace {

using Crowd = tickfsm::Crowd<tickfsm_impl::BrawlerStateManager>;

class TickfsmCrowdImpl final : public ImplBase<TickfsmCrowdImpl> {
 public:
  explicit TickfsmCrowdImpl(std::size_t n) : fighters_(n), rng_(n) {
    for (std::size_t i = 0; i < n; ++i) rng_[i] = Seed(i);
    Fighter prototype;
    const std::size_t heap = HeapBytesDuring([&] { crowd_.emplace(n, prototype); });
    bytes_ = n > 0 ? (sizeof(Crowd) + heap) / n : 0;
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

std::unique_ptr<Impl> Make(std::size_t n) { return std::make_unique<TickfsmCrowdImpl>(n); }

}  // namespace
}  // namespace brawler

extern const brawler::ImplInfo kTickfsmCrowdImpl{"tickfsm-crowd", &brawler::Make, true};
