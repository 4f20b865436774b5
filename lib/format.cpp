// The one place that formats tickfsm's text (errors, names, traces) with fmt.

#include "format_text.hpp"
#include <tickfsm/event.hpp>

#include <fmt/args.h>
#include "fmt_text.hpp"

namespace tickfsm::detail {

Text KindMessage(std::string_view kind, std::string_view what) {
    return VFormat("tickfsm: {}: {}", {MessageArg(kind), MessageArg(what)});
}

std::string VFormat(std::string_view format, std::initializer_list<MessageArg> args) {
    fmt::dynamic_format_arg_store<fmt::format_context> store;
    store.reserve(args.size(), 0);
    for (const MessageArg& arg : args) {
        switch (arg.kind) {
        case MessageArg::Kind::Text: store.push_back(arg.text); break;
        case MessageArg::Kind::Signed: store.push_back(arg.signed_value); break;
        case MessageArg::Kind::Unsigned: store.push_back(arg.unsigned_value); break;
        case MessageArg::Kind::Real: store.push_back(arg.real_value); break;
        case MessageArg::Kind::Float: store.push_back(arg.float_value); break;
        }
    }
    return fmt::vformat(fmt::string_view(format.data(), format.size()), store);
}

Text EventText(const Event& event) {
    if (!event.is_enum) return event.name;
    if (!event.enumerator.empty()) return fmt::format("{}::{}", event.name, event.enumerator);
    if (event.value_is_unsigned) return fmt::format("{}({})", event.name, static_cast<std::uint64_t>(event.value));
    return fmt::format("{}({})", event.name, event.value);
}

} // namespace tickfsm::detail
