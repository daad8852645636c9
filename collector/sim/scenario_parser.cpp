#include "collector/sim/scenario_parser.hpp"

#include <algorithm>
#include <array>
#include <set>
#include <variant>

#include "collector/common/parse_number.hpp"
#include "collector/model/node_names.hpp"
#include "collector/model/pma_counters.hpp"
#include "collector/sim/fabric_state.hpp"
#include "collector/sim/line_tokens.hpp"
#include "collector/sim/timeline.hpp"

namespace rdmadiag::sim {

namespace {

class DiscardSink final : public sources::ObservationSink {
public:
    void emit(Observation) override {}
};

std::string upper(std::string_view s) {
    std::string out(s);
    for (auto& c : out) {
        if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
    }
    return out;
}

std::string_view strip_prefix(std::string_view s, std::string_view prefix) {
    if (s.size() > prefix.size() && upper(s.substr(0, prefix.size())) == prefix) {
        s.remove_prefix(prefix.size());
    }
    return s;
}

std::optional<uint64_t> parse_uint(std::string_view s, uint64_t max) {
    int base = 10;
    if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        s.remove_prefix(2);
        base = 16;
    }
    const auto v = common::parse_number<uint64_t>(s, base);
    if (!v || *v > max) return std::nullopt;
    return v;
}

// Kernel names (mlx5_0), or the MAD source's names of subnet nodes: "guid:0x" and 16 hex digits.
// Ports of the latter are named as usual (guid:0x0008f10400000001:1); steps that name only a
// device (event, mr, device-remove) cannot tell such a name from DEVICE:PORT.
bool valid_device_name(std::string_view s) {
    if (is_guid_name(s)) return is_exact_guid_name(s);
    if (s.empty() || s.size() > 64) return false;
    return std::all_of(s.begin(), s.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
               c == '_' || c == '-' || c == '.';
    });
}

// One line being read: its words split into positional arguments and key=value options, each
// option to be taken once; whatever is left over is an error.
class Line {
public:
    Line(size_t number, std::vector<Token> tokens, size_t length)
        : number_(number), tokens_(std::move(tokens)), length_(length) {
        for (size_t i = 1; i < tokens_.size(); ++i) {
            (tokens_[i].is_option() ? options_ : positional_).push_back(i);
        }
    }

    const Token& directive() const { return tokens_[0]; }
    size_t number() const { return number_; }

    Error error_at(size_t column, const std::string& message) const {
        return make_error(std::to_string(number_) + ":" + std::to_string(column) + ": " + message);
    }
    Error error(const Token& t, const std::string& message) const {
        return error_at(t.column, message);
    }
    // Where a missing word would have been.
    size_t end_column() const {
        const auto& last = tokens_.back();
        return std::max(last.column + last.text.size() + 1, length_ + 1);
    }

    size_t positional_count() const { return positional_.size(); }
    const Token& positional(size_t i) const { return tokens_[positional_[i]]; }

    Result<const Token*> need(size_t i, std::string_view what) const {
        if (i >= positional_.size()) {
            return error_at(end_column(),
                            "missing " + std::string(what) + " after '" + directive().text + "'");
        }
        return &positional(i);
    }

    Result<void> no_more_positional(size_t count) const {
        if (positional_.size() > count) {
            return error(positional(count), "unexpected '" + positional(count).text + "'");
        }
        return {};
    }

    // The option's token, or nullptr when absent. A repeated option is an error unless `many`.
    Result<const Token*> option(std::string_view key) {
        const Token* found = nullptr;
        for (size_t i : options_) {
            if (tokens_[i].key() != key) continue;
            if (found != nullptr)
                return error(tokens_[i], "option '" + std::string(key) + "' given twice");
            found = &tokens_[i];
            taken_.insert(i);
        }
        return found;
    }
    std::vector<const Token*> options_named(std::string_view key) {
        std::vector<const Token*> out;
        for (size_t i : options_) {
            if (tokens_[i].key() != key) continue;
            out.push_back(&tokens_[i]);
            taken_.insert(i);
        }
        return out;
    }

    Result<void> no_unknown_options() const {
        for (size_t i : options_) {
            if (taken_.count(i) == 0) {
                return error(tokens_[i], "unknown option '" + std::string(tokens_[i].key()) +
                                             "' for '" + directive().text + "'");
            }
        }
        return {};
    }

private:
    size_t number_;
    std::vector<Token> tokens_;
    size_t length_;
    std::vector<size_t> positional_;
    std::vector<size_t> options_;
    std::set<size_t> taken_;
};

// The positional arguments of a P_Key edit after its port, in the order they are read.
enum class PKeyArg : uint8_t {
    index,              // a table slot
    key,                // any P_Key, the empty one included
    named_key,          // a P_Key that names a key: not the empty one
    destination_index,  // the slot a key moves to
};

// What a P_Key edit verb reads after its port: `arity` of `args`, or (table) INDEX:KEY entries.
struct PKeyVerb {
    PKeyOp op;
    uint8_t arity = 0;
    std::array<PKeyArg, 2> args{};
};
struct PortVerb {
    bool up = false;
};
struct DeviceVerb {
    bool present = false;
};
// What a step's row tells its parser about the verb, beyond the verb's name.
using StepVerbDetail = std::variant<std::monostate, PKeyVerb, CounterOp, PortVerb, DeviceVerb>;

// The directions a switch port checks P_Keys in, as `enforce=` and `port-enforce` name them.
struct Enforcement {
    std::string_view name;
    bool inbound = false;
    bool outbound = false;
};
constexpr Enforcement kEnforcements[] = {
    {"both", true, true}, {"in", true, false}, {"out", false, true}, {"off", false, false}};

// A link a port declared (`peer=DEV:N`): joined to its other end once every port is declared.
struct PendingLink {
    PortRef port;
    PortRef peer;
    size_t line = 0;
    size_t column = 0;
};

class Parser {
public:
    Result<Scenario> run(std::string_view text);

private:
    // A line's first word and what reads the rest of the line.
    struct Directive {
        std::string_view name;
        Result<void> (Parser::*parse)(Line& l);
    };
    // A step's verb (the word after `at TIME`) and what reads the rest of the line.
    struct StepVerb {
        std::string_view name;
        Result<StepAction> (Parser::*parse)(Line& l, const StepVerb& verb);
        StepVerbDetail detail;
    };
    static const Directive kDirectives[];
    static const StepVerb kStepVerbs[];

    Result<void> line(Line& l);
    Result<void> title(Line& l);
    Result<void> end(Line& l);
    Result<void> loop(Line& l);
    Result<void> device(Line& l);
    Result<void> port(Line& l);
    Result<void> pkeys(Line& l);
    Result<void> counter(Line& l);
    Result<void> mr(Line& l);
    Result<void> mr_holder(Line& l);
    Result<void> ipoib(Line& l);
    Result<void> partitions_conf(Line& l);
    Result<void> at(Line& l);

    Result<StepAction> pkey_step(Line& l, const StepVerb& verb);
    Result<StepAction> counter_step(Line& l, const StepVerb& verb);
    Result<StepAction> port_step(Line& l, const StepVerb& verb);
    Result<StepAction> event_step(Line& l, const StepVerb& verb);
    Result<StepAction> mr_step(Line& l, const StepVerb& verb);
    Result<StepAction> device_step(Line& l, const StepVerb& verb);
    Result<StepAction> enforce_step(Line& l, const StepVerb& verb);
    Result<StepAction> gid_prefix_step(Line& l, const StepVerb& verb);
    Result<StepAction> address_step(Line& l, const StepVerb& verb);
    Result<StepAction> holder_exit_step(Line& l, const StepVerb& verb);
    Result<StepAction> holder_rate_step(Line& l, const StepVerb& verb);
    Result<void> pkey_argument(const Line& l, const Token& t, PKeyArg arg, PKeyEdit& e) const;

    Result<void> finish();
    Result<void> link_ports();

    // Word parsers: the value or an error at the token.
    Result<Duration> duration(const Line& l, const Token& t, std::string_view text) const;
    Result<uint64_t> number(const Line& l, const Token& t, std::string_view text, uint64_t max,
                            std::string_view what) const;
    // "125000/s": a rate per second, at most `max`.
    Result<uint64_t> per_second(const Line& l, const Token& t, std::string_view text,
                                uint64_t max) const;
    Result<uint16_t> pkey(const Line& l, const Token& t, std::string_view text) const;
    Result<PortRef> port_ref(const Line& l, const Token& t, bool declared) const;
    Result<ViewMask> views(const Line& l, const Token& t) const;
    Result<std::pair<uint16_t, uint16_t>> entry(const Line& l, const Token& t) const;
    Result<Enforcement> enforcement(const Line& l, const Token& t, std::string_view text) const;
    Result<void> switch_port(const Line& l, const Token& t, const PortRef& ref,
                             std::string_view what) const;

    ScenarioPort* find_port(const PortRef& ref);
    const DeviceInfo* find_device(std::string_view name) const;
    bool has_device(std::string_view name) const;

    Scenario sc_;
    bool end_set_ = false;
    size_t end_line_ = 0;
    size_t loop_line_ = 0;
    size_t sm_port_guid_line_ = 0;
    Duration last_at_{};
    std::vector<PendingLink> links_;
};

// Adding a directive or a step verb is adding its row here.
const Parser::Directive Parser::kDirectives[] = {
    {"title", &Parser::title},
    {"end", &Parser::end},
    {"loop", &Parser::loop},
    {"device", &Parser::device},
    {"port", &Parser::port},
    {"pkeys", &Parser::pkeys},
    {"counter", &Parser::counter},
    {"mr", &Parser::mr},
    {"at", &Parser::at},
    {"partitions.conf", &Parser::partitions_conf},
    {"mr-holder", &Parser::mr_holder},
    {"ipoib", &Parser::ipoib},
};

const Parser::StepVerb Parser::kStepVerbs[] = {
    {"pkey-set", &Parser::pkey_step, PKeyVerb{PKeyOp::set, 2, {PKeyArg::index, PKeyArg::key}}},
    {"pkey-clear", &Parser::pkey_step, PKeyVerb{PKeyOp::clear, 1, {PKeyArg::index}}},
    {"pkey-move", &Parser::pkey_step,
     PKeyVerb{PKeyOp::move, 2, {PKeyArg::named_key, PKeyArg::destination_index}}},
    {"pkey-flip", &Parser::pkey_step, PKeyVerb{PKeyOp::flip, 1, {PKeyArg::named_key}}},
    {"pkey-table", &Parser::pkey_step, PKeyVerb{PKeyOp::table}},
    {"counter-add", &Parser::counter_step, CounterOp::add},
    {"counter-set", &Parser::counter_step, CounterOp::set},
    {"counter-reset", &Parser::counter_step, CounterOp::reset},
    {"port-down", &Parser::port_step, PortVerb{false}},
    {"port-up", &Parser::port_step, PortVerb{true}},
    {"event", &Parser::event_step, std::monostate{}},
    {"mr", &Parser::mr_step, std::monostate{}},
    {"device-remove", &Parser::device_step, DeviceVerb{false}},
    {"device-add", &Parser::device_step, DeviceVerb{true}},
    {"port-enforce", &Parser::enforce_step, std::monostate{}},
    {"gid-prefix", &Parser::gid_prefix_step, std::monostate{}},
    {"address-add", &Parser::address_step, DeviceVerb{true}},
    {"address-del", &Parser::address_step, DeviceVerb{false}},
    {"holder-exit", &Parser::holder_exit_step, std::monostate{}},
    {"holder-rate", &Parser::holder_rate_step, std::monostate{}},
};

// The row named `name`, or nullptr.
template <typename Row, size_t N>
const Row* find_row(const Row (&table)[N], std::string_view name) {
    for (const Row& row : table) {
        if (row.name == name) return &row;
    }
    return nullptr;
}

Result<Duration> Parser::duration(const Line& l, const Token& t, std::string_view text) const {
    auto d = parse_duration(text);
    if (!d) return l.error(t, "not a duration: '" + std::string(text) + "' (use 500ms, 2s, 1m)");
    return *d;
}

Result<uint64_t> Parser::number(const Line& l, const Token& t, std::string_view text, uint64_t max,
                                std::string_view what) const {
    auto v = parse_uint(text, max);
    if (!v) {
        return l.error(t, "not a valid " + std::string(what) + ": '" + std::string(text) +
                              "' (at most " + std::to_string(max) + ")");
    }
    return *v;
}

Result<uint64_t> Parser::per_second(const Line& l, const Token& t, std::string_view text,
                                    uint64_t max) const {
    if (text.size() < 3 || text.substr(text.size() - 2) != "/s") {
        return l.error(t, "rate is a count per second such as 2/s or 125000/s, not '" +
                              std::string(text) + "'");
    }
    return number(l, t, text.substr(0, text.size() - 2), max, "rate");
}

Result<uint16_t> Parser::pkey(const Line& l, const Token& t, std::string_view text) const {
    auto k = parse_pkey(text);
    if (!k) return l.error(t, "not a P_Key: '" + std::string(text) + "' (use 0x8001)");
    return *k;
}

Result<PortRef> Parser::port_ref(const Line& l, const Token& t, bool declared) const {
    auto ref = parse_port_ref(t.text);
    if (!ref || ref->port == 0) {
        return l.error(t, "not a port: '" + t.text + "' (use DEVICE:PORT, e.g. mlx5_0:1)");
    }
    if (declared) {
        bool found = false;
        for (const auto& p : sc_.ports) found = found || p.state.port == *ref;
        if (!found) return l.error(t, "port " + t.text + " is not declared");
    }
    return *ref;
}

Result<ViewMask> Parser::views(const Line& l, const Token& t) const {
    ViewMask mask = 0;
    std::string_view rest = t.value();
    if (rest == "all") return kFabricViews;
    while (true) {
        const auto comma = rest.find(',');
        const auto word = rest.substr(0, comma);
        auto v = parse_pkey_view(word);
        if (!v || *v == PKeyView::cache) {
            return l.error(t, "not a view: '" + std::string(word) +
                                  "' (device, sma, sm; the cache view is the engine's)");
        }
        mask |= view_bit(*v);
        if (comma == std::string_view::npos) break;
        rest.remove_prefix(comma + 1);
    }
    return mask;
}

Result<std::pair<uint16_t, uint16_t>> Parser::entry(const Line& l, const Token& t) const {
    const auto colon = t.text.find(':');
    if (colon == std::string::npos) {
        return l.error(t, "not an INDEX:KEY entry: '" + t.text + "'");
    }
    auto idx = RDMADIAG_TRY(
        number(l, t, std::string_view(t.text).substr(0, colon), 0x7fff, "P_Key index"));
    auto key = RDMADIAG_TRY(pkey(l, t, std::string_view(t.text).substr(colon + 1)));
    return std::make_pair(static_cast<uint16_t>(idx), key);
}

Result<Enforcement> Parser::enforcement(const Line& l, const Token& t,
                                        std::string_view text) const {
    for (const Enforcement& e : kEnforcements) {
        if (e.name == text) return e;
    }
    return l.error(t, "not a direction to enforce partitions in: '" + std::string(text) +
                          "' (both, in, out, off)");
}

// Only a switch's external ports enforce partitions on their links.
Result<void> Parser::switch_port(const Line& l, const Token& t, const PortRef& ref,
                                 std::string_view what) const {
    const DeviceInfo* dev = find_device(ref.device);
    if (dev == nullptr || dev->node_type != "switch") {
        return l.error(t, std::string(what) + ": " + ref.to_string() +
                              " is not a switch's port (declare its device node_type=switch)");
    }
    return {};
}

ScenarioPort* Parser::find_port(const PortRef& ref) {
    for (auto& p : sc_.ports) {
        if (p.state.port == ref) return &p;
    }
    return nullptr;
}

const DeviceInfo* Parser::find_device(std::string_view name) const {
    for (const auto& d : sc_.devices) {
        if (d.device == name) return &d;
    }
    return nullptr;
}

bool Parser::has_device(std::string_view name) const {
    return find_device(name) != nullptr;
}

Result<Scenario> Parser::run(std::string_view text) {
    size_t number = 0;
    size_t pos = 0;
    while (pos <= text.size()) {
        const auto nl = text.find('\n', pos);
        const auto raw =
            text.substr(pos, nl == std::string_view::npos ? text.size() - pos : nl - pos);
        ++number;
        if (raw.find('\0') != std::string_view::npos) {
            return make_error(std::to_string(number) + ":" + std::to_string(raw.find('\0') + 1) +
                              ": NUL byte in scenario text");
        }
        auto tokens = tokenize_line(raw);
        if (!tokens) return make_error(std::to_string(number) + ":" + tokens.error().message);
        if (!tokens->empty()) {
            Line l(number, std::move(*tokens), raw.size());
            RDMADIAG_TRY(line(l));
        }
        if (nl == std::string_view::npos) break;
        pos = nl + 1;
    }
    RDMADIAG_TRY(finish());
    return std::move(sc_);
}

Result<void> Parser::line(Line& l) {
    const auto& d = l.directive().text;
    if (l.directive().is_option())
        return l.error(l.directive(), "a line starts with a directive, not an option");
    const Directive* directive = find_row(kDirectives, d);
    if (directive == nullptr) return l.error(l.directive(), "unknown directive '" + d + "'");
    return (this->*directive->parse)(l);
}

Result<void> Parser::title(Line& l) {
    if (l.positional_count() == 0) return l.error_at(l.end_column(), "missing text after 'title'");
    std::string t;
    for (size_t i = 0; i < l.positional_count(); ++i) {
        if (i) t += ' ';
        t += l.positional(i).text;
    }
    sc_.title = std::move(t);
    return l.no_unknown_options();
}

Result<void> Parser::end(Line& l) {
    const Token* t = RDMADIAG_TRY(l.need(0, "duration"));
    auto d = RDMADIAG_TRY(duration(l, *t, t->text));
    RDMADIAG_TRY(l.no_more_positional(1));
    RDMADIAG_TRY(l.no_unknown_options());
    if (end_set_)
        return l.error(l.directive(),
                       "'end' given twice (first on line " + std::to_string(end_line_) + ")");
    sc_.end = d;
    end_set_ = true;
    end_line_ = l.number();
    return {};
}

Result<void> Parser::loop(Line& l) {
    RDMADIAG_TRY(l.no_more_positional(0));
    RDMADIAG_TRY(l.no_unknown_options());
    sc_.loop = true;
    loop_line_ = l.number();
    return {};
}

// A device's free-text options, taken as they are, and its GUIDs, in this order.
struct DeviceTextOption {
    std::string_view key;
    std::optional<std::string> DeviceInfo::*field;
};
constexpr DeviceTextOption kDeviceTextOptions[] = {
    {"fw", &DeviceInfo::fw_ver},
    {"board_id", &DeviceInfo::board_id},
    {"hca_type", &DeviceInfo::hca_type},
    {"desc", &DeviceInfo::node_desc},
};
struct DeviceGuidOption {
    std::string_view key;
    std::optional<uint64_t> DeviceInfo::*field;
};
constexpr DeviceGuidOption kDeviceGuidOptions[] = {
    {"guid", &DeviceInfo::node_guid},
    {"sys_guid", &DeviceInfo::sys_image_guid},
};

Result<void> Parser::device(Line& l) {
    const Token* name = RDMADIAG_TRY(l.need(0, "device name"));
    if (!valid_device_name(name->text)) {
        return l.error(*name, "not a device name: '" + name->text + "' (letters, digits, _ - .)");
    }
    if (has_device(name->text)) return l.error(*name, "device " + name->text + " declared twice");
    RDMADIAG_TRY(l.no_more_positional(1));
    DeviceInfo info;
    info.device = name->text;
    info.transport = Transport::ib;
    const Token* tr = RDMADIAG_TRY(l.option("transport"));
    if (tr) {
        auto t = parse_transport(tr->value());
        if (!t || *t == Transport::unknown) {
            return l.error(*tr,
                           "not a transport: '" + std::string(tr->value()) + "' (ib, roce, iwarp)");
        }
        info.transport = *t;
    }
    info.node_type = info.transport == Transport::iwarp ? "RNIC" : "CA";
    const Token* node_type = RDMADIAG_TRY(l.option("node_type"));
    if (node_type) {
        std::string v(node_type->value());
        if (v != "CA" && v != "switch" && v != "router" && v != "RNIC") {
            return l.error(*node_type, "not a node type: '" + v + "' (CA, switch, router, RNIC)");
        }
        info.node_type = v;
    }
    for (const DeviceTextOption& t : kDeviceTextOptions) {
        const Token* o = RDMADIAG_TRY(l.option(t.key));
        if (o) info.*t.field = std::string(o->value());
    }
    for (const DeviceGuidOption& g : kDeviceGuidOptions) {
        const Token* o = RDMADIAG_TRY(l.option(g.key));
        if (!o) continue;
        info.*g.field = RDMADIAG_TRY(number(l, *o, o->value(), ~uint64_t{0}, "GUID"));
    }
    const Token* m = RDMADIAG_TRY(l.option("max_mr"));
    if (m) {
        sc_.max_mr[info.device] = RDMADIAG_TRY(number(l, *m, m->value(), ~uint64_t{0}, "max_mr"));
    }
    RDMADIAG_TRY(l.no_unknown_options());
    sc_.devices.push_back(std::move(info));
    return {};
}

// A port's numeric options, read in this order. Each value is checked against `max` before it
// is stored, so the narrowing casts keep it whole.
struct PortNumberOption {
    std::string_view key;
    uint64_t max;
    std::string_view what;
    void (*store)(ScenarioPort& p, uint64_t& table_size, uint64_t v);
};
constexpr PortNumberOption kPortNumberOptions[] = {
    {"phys_state", 7, "physical state",
     [](ScenarioPort& p, uint64_t&, uint64_t v) { p.state.phys_state = static_cast<uint8_t>(v); }},
    {"lid", 0xffff, "LID",
     [](ScenarioPort& p, uint64_t&, uint64_t v) { p.state.lid = static_cast<uint32_t>(v); }},
    {"sm_lid", 0xffff, "LID",
     [](ScenarioPort& p, uint64_t&, uint64_t v) { p.state.sm_lid = static_cast<uint32_t>(v); }},
    {"lmc", 7, "LMC",
     [](ScenarioPort& p, uint64_t&, uint64_t v) { p.state.lmc = static_cast<uint8_t>(v); }},
    {"cap_mask", 0xffffffff, "capability mask",
     [](ScenarioPort& p, uint64_t&, uint64_t v) { p.state.cap_mask = static_cast<uint32_t>(v); }},
    {"port_guid", ~uint64_t{0}, "GUID",
     [](ScenarioPort& p, uint64_t&, uint64_t v) { p.state.port_guid = v; }},
    {"pkeys", 32768, "P_Key table size",
     [](ScenarioPort&, uint64_t& table_size, uint64_t v) { table_size = v; }},
};

Result<void> Parser::port(Line& l) {
    const Token* t = RDMADIAG_TRY(l.need(0, "port (DEVICE:PORT)"));
    auto ref = RDMADIAG_TRY(port_ref(l, *t, false));
    if (!has_device(ref.device)) return l.error(*t, "device " + ref.device + " is not declared");
    if (find_port(ref) != nullptr) return l.error(*t, "port " + t->text + " declared twice");
    RDMADIAG_TRY(l.no_more_positional(1));
    const DeviceInfo* dev = nullptr;
    for (const auto& d : sc_.devices) {
        if (d.device == ref.device) dev = &d;
    }
    ScenarioPort p;
    p.state.port = ref;
    p.state.state = PortState::active;
    p.state.link_layer =
        dev->transport == Transport::ib ? LinkLayer::infiniband : LinkLayer::ethernet;

    const Token* st = RDMADIAG_TRY(l.option("state"));
    if (st) {
        auto s = parse_port_state(st->value());
        if (!s)
            return l.error(*st, "not a port state: '" + std::string(st->value()) +
                                    "' (DOWN, INIT, ARMED, ACTIVE)");
        p.state.state = *s;
    }
    p.state.phys_state = p.state.state == PortState::down ? 2 : 5;
    const Token* ll = RDMADIAG_TRY(l.option("link_layer"));
    if (ll) {
        auto v = parse_link_layer(ll->value());
        if (!v || *v == LinkLayer::unknown) {
            return l.error(
                *ll, "not a link layer: '" + std::string(ll->value()) + "' (InfiniBand, Ethernet)");
        }
        p.state.link_layer = *v;
    }
    const bool ib = p.state.link_layer == LinkLayer::infiniband;
    p.views = ib ? kFabricViews : kDeviceView;
    uint64_t size = ib ? 128 : 1;

    for (const PortNumberOption& n : kPortNumberOptions) {
        const Token* o = RDMADIAG_TRY(l.option(n.key));
        if (!o) continue;
        auto v = RDMADIAG_TRY(number(l, *o, o->value(), n.max, n.what));
        n.store(p, size, v);
    }
    const Token* rate = RDMADIAG_TRY(l.option("rate"));
    if (rate) p.state.rate = std::string(rate->value());
    const Token* netdev = RDMADIAG_TRY(l.option("netdev"));
    if (netdev) {
        if (ib) return l.error(*netdev, "netdev is for Ethernet (RoCE) ports");
        if (netdev->value().empty() || netdev->value().size() > 15) {
            return l.error(*netdev, "not a netdev name: '" + std::string(netdev->value()) + "'");
        }
        p.netdev = std::string(netdev->value());
    }
    const Token* mac = RDMADIAG_TRY(l.option("mac"));
    if (mac) {
        auto m = parse_mac(mac->value());
        if (!m) return l.error(*mac, m.error().message);
        p.mac = *m;
    }
    for (const Token* a : l.options_named("address")) {
        auto g = gid_from_address(a->value());
        if (!g) return l.error(*a, g.error().message);
        p.addresses.push_back(*g);
    }
    if ((mac || !p.addresses.empty()) && p.netdev.empty()) {
        return l.error(*t, "mac= and address= need netdev=NAME");
    }
    const Token* prefix = RDMADIAG_TRY(l.option("gid_prefix"));
    if (prefix) {
        if (!ib) return l.error(*prefix, "gid_prefix is for InfiniBand ports");
        auto v = parse_subnet_prefix(prefix->value());
        if (!v) return l.error(*prefix, v.error().message);
        p.gid_prefix = *v;
    }
    for (const Token* g : l.options_named("gid")) p.state.gids.emplace_back(g->value());
    const Token* vw = RDMADIAG_TRY(l.option("views"));
    if (vw) {
        auto m = RDMADIAG_TRY(views(l, *vw));
        if ((m & kDeviceView) == 0) return l.error(*vw, "every port has the device view");
        p.views = m;
    }
    const Token* peer = RDMADIAG_TRY(l.option("peer"));
    if (peer) {
        auto other = parse_port_ref(peer->value());
        if (!other || other->port == 0) {
            return l.error(*peer, "not a port: '" + std::string(peer->value()) +
                                      "' (peer=DEVICE:PORT, the other end of the link)");
        }
        if (*other == ref) return l.error(*peer, "a port is not linked to itself");
        links_.push_back(PendingLink{ref, *other, l.number(), peer->column});
    }
    const Token* enforce = RDMADIAG_TRY(l.option("enforce"));
    if (enforce) {
        RDMADIAG_TRY(switch_port(l, *enforce, ref, "enforce"));
        const Enforcement e = RDMADIAG_TRY(enforcement(l, *enforce, enforce->value()));
        p.state.partition_enforcement_inbound = e.inbound;
        p.state.partition_enforcement_outbound = e.outbound;
    }
    RDMADIAG_TRY(l.no_unknown_options());
    if (size == 0) {
        // iWARP has no partitions: such a port shows no P_Key table in any view.
        if (vw) return l.error(*vw, "a port with pkeys=0 has no P_Key views");
        p.views = 0;
    } else {
        p.device_table.keys.assign(size, 0);
        p.device_table.keys[0] = kDefaultPKey;
    }
    sc_.ports.push_back(std::move(p));
    return {};
}

Result<void> Parser::pkeys(Line& l) {
    const Token* t = RDMADIAG_TRY(l.need(0, "port (DEVICE:PORT)"));
    auto ref = RDMADIAG_TRY(port_ref(l, *t, true));
    auto* p = find_port(ref);
    RDMADIAG_TRY(l.no_unknown_options());
    if (l.positional_count() < 2) return l.error_at(l.end_column(), "missing INDEX:KEY entries");
    for (size_t i = 1; i < l.positional_count(); ++i) {
        auto e = RDMADIAG_TRY(entry(l, l.positional(i)));
        if (e.first >= p->device_table.keys.size()) {
            return l.error(l.positional(i), "index " + std::to_string(e.first) +
                                                " is outside the table (pkeys=" +
                                                std::to_string(p->device_table.keys.size()) + ")");
        }
        p->device_table.keys[e.first] = e.second;
    }
    return {};
}

Result<void> Parser::counter(Line& l) {
    const Token* t = RDMADIAG_TRY(l.need(0, "port (DEVICE:PORT)"));
    auto ref = RDMADIAG_TRY(port_ref(l, *t, true));
    const Token* name = RDMADIAG_TRY(l.need(1, "counter name"));
    const Token* val = RDMADIAG_TRY(l.need(2, "initial value"));
    RDMADIAG_TRY(l.no_more_positional(3));
    auto* p = find_port(ref);
    ScenarioCounter c;
    c.name = name->text;
    for (const auto& existing : p->counters) {
        if (existing.name == c.name)
            return l.error(*name, "counter " + c.name + " declared twice on " + t->text);
    }
    const bool portinfo = find_pma_counter(CounterKind::portinfo, c.name) != nullptr;
    c.kind = portinfo ? CounterKind::portinfo : CounterKind::pma;
    const Token* kind = RDMADIAG_TRY(l.option("kind"));
    if (kind) {
        auto k = parse_counter_kind(kind->value());
        if (!k)
            return l.error(*kind, "not a counter kind: '" + std::string(kind->value()) +
                                      "' (pma, hw, portinfo)");
        c.kind = *k;
    }
    c.width = counter_width(c.kind, c.name);
    const Token* width = RDMADIAG_TRY(l.option("width"));
    if (width) {
        auto w = RDMADIAG_TRY(number(l, *width, width->value(), 64, "width"));
        if (w == 0) return l.error(*width, "a counter is at least 1 bit wide");
        c.width = static_cast<uint8_t>(w);
    }
    c.overflow = c.kind == CounterKind::pma && c.width < 64 ? CounterOverflow::saturate
                                                            : CounterOverflow::wrap;
    const Token* ov = RDMADIAG_TRY(l.option("overflow"));
    if (ov) {
        if (ov->value() == "saturate") {
            c.overflow = CounterOverflow::saturate;
        } else if (ov->value() == "wrap") {
            c.overflow = CounterOverflow::wrap;
        } else {
            return l.error(
                *ov, "overflow is 'saturate' or 'wrap', not '" + std::string(ov->value()) + "'");
        }
    }
    c.value = RDMADIAG_TRY(number(l, *val, val->text, counter_max(c.width), "value"));
    const Token* rate = RDMADIAG_TRY(l.option("rate"));
    if (rate)
        c.per_second = RDMADIAG_TRY(per_second(l, *rate, rate->value(), 1'000'000'000'000ULL));
    RDMADIAG_TRY(l.no_unknown_options());
    p->counters.push_back(std::move(c));
    return {};
}

Result<void> Parser::mr(Line& l) {
    const Token* dev = RDMADIAG_TRY(l.need(0, "device"));
    if (!has_device(dev->text)) return l.error(*dev, "device " + dev->text + " is not declared");
    const Token* id = RDMADIAG_TRY(l.need(1, "MR id"));
    auto v = RDMADIAG_TRY(number(l, *id, id->text, ~uint64_t{0}, "MR id"));
    RDMADIAG_TRY(l.no_more_positional(2));
    ScenarioMr m;
    m.device = dev->text;
    m.id = v;
    for (const auto& existing : sc_.mrs) {
        if (existing.device == m.device && existing.id == m.id) {
            return l.error(*id, "MR " + id->text + " declared twice on " + m.device);
        }
    }
    const Token* owner = RDMADIAG_TRY(l.option("owner"));
    if (owner) m.owner.name = std::string(owner->value());
    const Token* pid = RDMADIAG_TRY(l.option("pid"));
    if (pid) {
        auto p = RDMADIAG_TRY(number(l, *pid, pid->value(), 0x7fffffff, "pid"));
        m.owner.pid = static_cast<uint32_t>(p);
    }
    const Token* key = RDMADIAG_TRY(l.option("key"));
    if (key) {
        auto k = RDMADIAG_TRY(number(l, *key, key->value(), 0xffffffff, "MR key"));
        m.key = static_cast<uint32_t>(k);
    }
    RDMADIAG_TRY(l.no_unknown_options());
    sc_.mrs.push_back(std::move(m));
    return {};
}

// `ipoib NAME DEV:PORT [parent=NAME pkey=KEY] [mode=datagram|connected]`
Result<void> Parser::ipoib(Line& l) {
    const Token* name = RDMADIAG_TRY(l.need(0, "interface name"));
    const Token* t = RDMADIAG_TRY(l.need(1, "port (DEVICE:PORT)"));
    RDMADIAG_TRY(l.no_more_positional(2));
    auto ref = RDMADIAG_TRY(port_ref(l, *t, true));
    const auto* port = find_port(ref);
    if (port->state.link_layer != LinkLayer::infiniband || (port->views & kDeviceView) == 0)
        return l.error(*t, "IPoIB runs on an InfiniBand port with a P_Key table");
    ScenarioIpoib i;
    i.name = name->text;
    i.port = ref;
    for (const auto& existing : sc_.ipoib) {
        if (existing.name == i.name)
            return l.error(*name, "interface " + i.name + " declared twice");
    }
    const Token* parent = RDMADIAG_TRY(l.option("parent"));
    const Token* key = RDMADIAG_TRY(l.option("pkey"));
    const Token* mode = RDMADIAG_TRY(l.option("mode"));
    if (parent) {
        i.parent = std::string(parent->value());
        auto p = std::find_if(sc_.ipoib.begin(), sc_.ipoib.end(),
                              [&](const ScenarioIpoib& x) { return x.name == i.parent; });
        if (p == sc_.ipoib.end())
            return l.error(*parent, "parent " + i.parent + " is not declared (declare it first)");
        if (!p->parent.empty()) return l.error(*parent, i.parent + " is itself a child");
        if (p->port != ref)
            return l.error(*t, "a child is on its parent's port, " + p->port.to_string());
        if (!key) return l.error_at(l.end_column(), "a child interface needs pkey=");
        i.pkey = RDMADIAG_TRY(pkey(l, *key, key->value()));
        if (pkey_is_empty(i.pkey)) return l.error(*key, "the empty P_Key names no partition");
        // The kernel always gives a child the full-membership bit (ipoib_vlan.c).
        i.pkey |= kPKeyMembershipBit;
    } else if (key) {
        return l.error(*key, "a parent interface takes the key at index 0 of its port: no pkey=");
    }
    if (mode) {
        if (mode->value() == "connected") {
            i.connected = true;
        } else if (mode->value() != "datagram") {
            return l.error(*mode, "mode is datagram or connected");
        }
    }
    RDMADIAG_TRY(l.no_unknown_options());
    sc_.ipoib.push_back(std::move(i));
    return {};
}

// `mr-holder DEV PID|kernel COMM [mrs=N] [size=BYTES] [rate=N/s]`
Result<void> Parser::mr_holder(Line& l) {
    const Token* dev = RDMADIAG_TRY(l.need(0, "device"));
    if (!has_device(dev->text)) return l.error(*dev, "device " + dev->text + " is not declared");
    const Token* pid = RDMADIAG_TRY(l.need(1, "pid (or kernel)"));
    const Token* comm = RDMADIAG_TRY(l.need(2, "process name"));
    RDMADIAG_TRY(l.no_more_positional(3));
    ScenarioMrHolder h;
    h.device = dev->text;
    h.comm = comm->text;
    if (pid->text != "kernel") {
        auto p = RDMADIAG_TRY(number(l, *pid, pid->text, 0x7fffffff, "pid"));
        if (p == 0) return l.error(*pid, "pid 0 is no process");
        h.pid = static_cast<uint32_t>(p);
    }
    for (const auto& existing : sc_.mr_holders) {
        if (existing.device == h.device && existing.pid == h.pid && existing.comm == h.comm)
            return l.error(*pid, "holder declared twice on " + h.device);
    }
    // Every MR is one listing entry a poll makes: keep scenarios to what a host could hold.
    constexpr uint64_t kMaxMrs = 1'000'000;
    const Token* m = RDMADIAG_TRY(l.option("mrs"));
    if (m) h.mrs = RDMADIAG_TRY(number(l, *m, m->value(), kMaxMrs, "MR count"));
    const Token* z = RDMADIAG_TRY(l.option("size"));
    if (z) h.size = RDMADIAG_TRY(number(l, *z, z->value(), uint64_t{1} << 48, "MR size"));
    const Token* rate = RDMADIAG_TRY(l.option("rate"));
    if (rate) h.per_second = RDMADIAG_TRY(per_second(l, *rate, rate->value(), 10'000));
    RDMADIAG_TRY(l.no_unknown_options());
    sc_.mr_holders.push_back(std::move(h));
    return {};
}

// `at T holder-exit PID [linger=DURATION]`
Result<StepAction> Parser::holder_exit_step(Line& l, const StepVerb&) {
    const Token* pid = RDMADIAG_TRY(l.need(2, "pid"));
    RDMADIAG_TRY(l.no_more_positional(3));
    HolderExitStep e;
    e.pid = static_cast<uint32_t>(RDMADIAG_TRY(number(l, *pid, pid->text, 0x7fffffff, "pid")));
    bool declared = false;
    for (const auto& h : sc_.mr_holders) declared = declared || (h.pid && *h.pid == e.pid);
    if (!declared) return l.error(*pid, "no mr-holder with pid " + pid->text);
    const Token* linger = RDMADIAG_TRY(l.option("linger"));
    if (linger && linger->value() == "forever") {
        e.linger.reset();
    } else if (linger) {
        e.linger = RDMADIAG_TRY(duration(l, *linger, linger->value()));
    }
    RDMADIAG_TRY(l.no_unknown_options());
    return StepAction{std::move(e)};
}

// `at T holder-rate PID N/s`
Result<StepAction> Parser::holder_rate_step(Line& l, const StepVerb&) {
    const Token* pid = RDMADIAG_TRY(l.need(2, "pid"));
    const Token* rate = RDMADIAG_TRY(l.need(3, "rate (N/s)"));
    RDMADIAG_TRY(l.no_more_positional(4));
    HolderRateStep r;
    r.pid = static_cast<uint32_t>(RDMADIAG_TRY(number(l, *pid, pid->text, 0x7fffffff, "pid")));
    bool declared = false;
    for (const auto& h : sc_.mr_holders) declared = declared || (h.pid && *h.pid == r.pid);
    if (!declared) return l.error(*pid, "no mr-holder with pid " + pid->text);
    r.per_second = RDMADIAG_TRY(per_second(l, *rate, rate->text, 10'000));
    RDMADIAG_TRY(l.no_unknown_options());
    return StepAction{r};
}

// One line of the SM's partitions.conf, quoted whole: unquoted, its `Name=PKey` and `GUID=full`
// would read as options.
Result<void> Parser::partitions_conf(Line& l) {
    const Token* guid = RDMADIAG_TRY(l.option("sm_port_guid"));
    if (l.positional_count() > 1 || !l.no_unknown_options()) {
        return l.error(l.directive(),
                       "quote the line of partitions.conf as one word: partitions.conf \"...\"");
    }
    if (!sc_.partitions_conf) sc_.partitions_conf = PartitionsConfText{};
    PartitionsConfText& conf = *sc_.partitions_conf;
    if (guid) {
        if (sm_port_guid_line_ != 0) {
            return l.error(*guid, "sm_port_guid given twice (first on line " +
                                      std::to_string(sm_port_guid_line_) + ")");
        }
        const uint64_t v = RDMADIAG_TRY(number(l, *guid, guid->value(), ~uint64_t{0}, "GUID"));
        if (v == 0) return l.error(*guid, "the SM's port GUID is not 0");
        conf.sm_port_guid = v;
        sm_port_guid_line_ = l.number();
    }
    // Every directive line is a line of the file, so the engine's line numbers count them.
    if (l.positional_count() == 1) conf.text += l.positional(0).text;
    conf.text += '\n';
    return {};
}

Result<void> Parser::at(Line& l) {
    const Token* t = RDMADIAG_TRY(l.need(0, "time"));
    std::string_view text = t->text;
    const bool relative = !text.empty() && text.front() == '+';
    if (relative) text.remove_prefix(1);
    auto d = RDMADIAG_TRY(duration(l, *t, text));
    const Duration when = relative ? last_at_ + d : d;
    if (when < last_at_) {
        return l.error(*t, "time goes backwards: " + format_duration(when) +
                               " comes before the previous step at " + format_duration(last_at_));
    }
    const Token* verb =
        RDMADIAG_TRY(l.need(1, "step (pkey-set, counter-add, port-down, event, mr, ...)"));
    const StepVerb* step = find_row(kStepVerbs, verb->text);
    if (step == nullptr) return l.error(*verb, "unknown step '" + verb->text + "'");
    auto action = RDMADIAG_TRY((this->*step->parse)(l, *step));
    RDMADIAG_TRY(l.no_unknown_options());
    last_at_ = when;
    sc_.steps.push_back(Step{when, l.number(), verb->column, std::move(action)});
    return {};
}

Result<StepAction> Parser::pkey_step(Line& l, const StepVerb& verb) {
    const auto& pv = std::get<PKeyVerb>(verb.detail);
    PKeyEdit e;
    e.op = pv.op;
    const Token* t = RDMADIAG_TRY(l.need(2, "port (DEVICE:PORT)"));
    e.port = RDMADIAG_TRY(port_ref(l, *t, true));
    if (e.op == PKeyOp::table) {
        for (size_t i = 3; i < l.positional_count(); ++i) {
            auto en = RDMADIAG_TRY(entry(l, l.positional(i)));
            e.entries.push_back(en);
        }
    } else {
        // Every argument must be there before any is read.
        std::vector<const Token*> a;
        for (size_t i = 0; i < pv.arity; ++i) {
            const PKeyArg arg = pv.args[i];
            const char* what = arg == PKeyArg::index               ? "index"
                               : arg == PKeyArg::destination_index ? "destination index"
                                                                   : "key";
            const Token* tok = RDMADIAG_TRY(l.need(3 + i, what));
            a.push_back(tok);
        }
        RDMADIAG_TRY(l.no_more_positional(3 + pv.arity));
        for (size_t i = 0; i < pv.arity; ++i) RDMADIAG_TRY(pkey_argument(l, *a[i], pv.args[i], e));
    }
    const Token* vw = RDMADIAG_TRY(l.option("views"));
    if (vw) {
        e.views = RDMADIAG_TRY(views(l, *vw));
    }
    const Token* delay = RDMADIAG_TRY(l.option("delay"));
    if (delay) {
        e.delay = RDMADIAG_TRY(duration(l, *delay, delay->value()));
    }
    const Token* ev = RDMADIAG_TRY(l.option("event"));
    if (ev) {
        if (ev->value() == "none") {
            e.event_delay.reset();
        } else {
            auto d = duration(l, *ev, ev->value());
            if (!d)
                return l.error(*ev, "event is 'none' or a delay such as 5s, not '" +
                                        std::string(ev->value()) + "'");
            e.event_delay = *d;
        }
    }
    return StepAction{std::move(e)};
}

Result<void> Parser::pkey_argument(const Line& l, const Token& t, PKeyArg arg, PKeyEdit& e) const {
    if (arg == PKeyArg::index || arg == PKeyArg::destination_index) {
        auto idx = RDMADIAG_TRY(number(l, t, t.text, 0x7fff, "P_Key index"));
        e.index = static_cast<uint16_t>(idx);
        return {};
    }
    auto k = RDMADIAG_TRY(pkey(l, t, t.text));
    if (arg == PKeyArg::named_key && pkey_is_empty(k)) {
        return l.error(t, "an empty P_Key names no key");
    }
    e.key = k;
    return {};
}

Result<StepAction> Parser::counter_step(Line& l, const StepVerb& verb) {
    CounterStep c;
    c.op = std::get<CounterOp>(verb.detail);
    const Token* t = RDMADIAG_TRY(l.need(2, "port (DEVICE:PORT)"));
    c.port = RDMADIAG_TRY(port_ref(l, *t, true));
    if (c.op == CounterOp::reset) {
        if (l.positional_count() > 3) c.name = l.positional(3).text;
        RDMADIAG_TRY(l.no_more_positional(4));
    } else {
        const Token* name = RDMADIAG_TRY(l.need(3, "counter name"));
        c.name = name->text;
        const Token* amount = RDMADIAG_TRY(l.need(4, c.op == CounterOp::add ? "amount" : "value"));
        c.amount = RDMADIAG_TRY(number(l, *amount, amount->text, ~uint64_t{0}, "number"));
        RDMADIAG_TRY(l.no_more_positional(5));
    }
    return StepAction{std::move(c)};
}

Result<StepAction> Parser::port_step(Line& l, const StepVerb& verb) {
    PortStep p;
    p.up = std::get<PortVerb>(verb.detail).up;
    const Token* t = RDMADIAG_TRY(l.need(2, "port (DEVICE:PORT)"));
    auto ref = RDMADIAG_TRY(port_ref(l, *t, true));
    RDMADIAG_TRY(l.no_more_positional(3));
    p.port = ref;
    p.state = p.up ? PortState::active : PortState::down;
    p.phys_state = p.up ? 5 : 2;
    p.event = p.up ? AsyncEventType::port_active : AsyncEventType::port_err;
    const Token* st = RDMADIAG_TRY(l.option("state"));
    if (st) {
        auto s = parse_port_state(st->value());
        if (!s || (p.up == (*s == PortState::down))) {
            return l.error(*st, "not a state for '" + std::string(verb.name) + "': '" +
                                    std::string(st->value()) + "'");
        }
        p.state = *s;
    }
    const Token* ph = RDMADIAG_TRY(l.option("phys_state"));
    if (ph) {
        auto v = RDMADIAG_TRY(number(l, *ph, ph->value(), 7, "physical state"));
        p.phys_state = static_cast<uint8_t>(v);
    }
    const Token* ev = RDMADIAG_TRY(l.option("event"));
    if (ev) {
        if (ev->value() == "none") {
            p.event.reset();
        } else {
            auto type = parse_async_event_type(strip_prefix(ev->value(), "IBV_EVENT_"));
            if (!type || !is_port_event(*type)) {
                return l.error(*ev, "not a port event: '" + std::string(ev->value()) + "'");
            }
            p.event = *type;
        }
    }
    return StepAction{std::move(p)};
}

Result<StepAction> Parser::event_step(Line& l, const StepVerb&) {
    const Token* target = RDMADIAG_TRY(l.need(2, "DEVICE or DEVICE:PORT"));
    const Token* type_tok = RDMADIAG_TRY(l.need(3, "event type (PKEY_CHANGE, PORT_ERR, ...)"));
    RDMADIAG_TRY(l.no_more_positional(4));
    auto ref = parse_port_ref(target->text);
    if (!ref) return l.error(*target, "not DEVICE or DEVICE:PORT: '" + target->text + "'");
    auto type = parse_async_event_type(strip_prefix(type_tok->text, "IBV_EVENT_"));
    if (!type) return l.error(*type_tok, "unknown async event '" + type_tok->text + "'");
    EventStep e;
    e.event.device = ref->device;
    e.event.type = *type;
    if (is_port_event(*type)) {
        if (ref->port == 0)
            return l.error(*target, std::string(to_string(*type)) +
                                        " is a port event: name the port (DEVICE:PORT)");
        RDMADIAG_TRY(port_ref(l, *target, true));
        e.event.port = ref->port;
    } else {
        if (ref->port != 0)
            return l.error(*target, std::string(to_string(*type)) +
                                        " is not a port event: name the device only");
        if (!has_device(ref->device))
            return l.error(*target, "device " + ref->device + " is not declared");
    }
    const Token* el = RDMADIAG_TRY(l.option("element"));
    if (el) {
        auto v = RDMADIAG_TRY(number(l, *el, el->value(), 0xffffffff, "element number"));
        e.event.element = static_cast<uint32_t>(v);
    }
    return StepAction{std::move(e)};
}

Result<StepAction> Parser::mr_step(Line& l, const StepVerb&) {
    const Token* dev = RDMADIAG_TRY(l.need(2, "device"));
    const Token* id = RDMADIAG_TRY(l.need(3, "MR id"));
    const Token* op = RDMADIAG_TRY(
        l.need(4, "operation (ALLOC, REG, FASTREG, LOCAL_INV, BIND_MW, SEND_WITH_INV, DEREG)"));
    RDMADIAG_TRY(l.no_more_positional(5));
    MrStep m;
    m.device = dev->text;
    m.id = RDMADIAG_TRY(number(l, *id, id->text, ~uint64_t{0}, "MR id"));
    bool declared = false;
    for (const auto& d : sc_.mrs) declared = declared || (d.device == m.device && d.id == m.id);
    if (!declared)
        return l.error(*id, "MR " + id->text + " on " + m.device + " is not declared (add: mr " +
                                m.device + " " + id->text + " owner=...)");
    auto o = parse_mr_op(op->text);
    if (!o) return l.error(*op, "unknown MR operation '" + op->text + "'");
    m.op = *o;
    const Token* st = RDMADIAG_TRY(l.option("status"));
    if (st) {
        auto name = strip_prefix(strip_prefix(st->value(), "IBV_WC_"), "IB_WC_");
        auto s = parse_wc_status(name);
        if (!s) {
            auto code = parse_uint(name, 255);
            if (code) s = wc_status_from_code(static_cast<unsigned>(*code));
        }
        if (!s) return l.error(*st, "unknown completion status '" + std::string(st->value()) + "'");
        m.status = *s;
    }
    const Token* rc = RDMADIAG_TRY(l.option("rc"));
    if (rc) {
        std::string_view text = rc->value();
        const bool neg = !text.empty() && text.front() == '-';
        if (neg) text.remove_prefix(1);
        auto v2 = RDMADIAG_TRY(number(l, *rc, text, 0x7fffffff, "return code"));
        m.rc = neg ? -static_cast<int>(v2) : static_cast<int>(v2);
    }
    return StepAction{std::move(m)};
}

Result<StepAction> Parser::device_step(Line& l, const StepVerb& verb) {
    const Token* dev = RDMADIAG_TRY(l.need(2, "device"));
    RDMADIAG_TRY(l.no_more_positional(3));
    if (!has_device(dev->text)) return l.error(*dev, "device " + dev->text + " is not declared");
    return StepAction{DeviceStep{dev->text, std::get<DeviceVerb>(verb.detail).present}};
}

Result<StepAction> Parser::enforce_step(Line& l, const StepVerb&) {
    const Token* t = RDMADIAG_TRY(l.need(2, "port (DEVICE:PORT)"));
    const Token* dir = RDMADIAG_TRY(l.need(3, "directions (both, in, out, off)"));
    RDMADIAG_TRY(l.no_more_positional(4));
    EnforcementStep e;
    e.port = RDMADIAG_TRY(port_ref(l, *t, true));
    RDMADIAG_TRY(switch_port(l, *t, e.port, "port-enforce"));
    const Enforcement how = RDMADIAG_TRY(enforcement(l, *dir, dir->text));
    e.inbound = how.inbound;
    e.outbound = how.outbound;
    return StepAction{std::move(e)};
}

Result<StepAction> Parser::gid_prefix_step(Line& l, const StepVerb&) {
    const Token* t = RDMADIAG_TRY(l.need(2, "port (DEVICE:PORT)"));
    const Token* pre = RDMADIAG_TRY(l.need(3, "subnet prefix (fec0:0000:0000:0000 or fec0::)"));
    RDMADIAG_TRY(l.no_more_positional(4));
    GidPrefixStep g;
    g.port = RDMADIAG_TRY(port_ref(l, *t, true));
    const ScenarioPort* port = find_port(g.port);
    if (port->state.link_layer != LinkLayer::infiniband || !port->state.port_guid) {
        return l.error(*t, "gid-prefix needs an InfiniBand port with a port_guid");
    }
    auto prefix = parse_subnet_prefix(pre->text);
    if (!prefix) return l.error(*pre, prefix.error().message);
    g.prefix = *prefix;
    const Token* delay = RDMADIAG_TRY(l.option("delay"));
    if (delay) g.delay = RDMADIAG_TRY(duration(l, *delay, delay->value()));
    const Token* ev = RDMADIAG_TRY(l.option("event"));
    if (ev) {
        if (ev->value() == "none") {
            g.event_delay.reset();
        } else {
            auto d = duration(l, *ev, ev->value());
            if (!d)
                return l.error(*ev, "event is 'none' or a delay such as 5s, not '" +
                                        std::string(ev->value()) + "'");
            g.event_delay = *d;
        }
    }
    return StepAction{std::move(g)};
}

Result<StepAction> Parser::address_step(Line& l, const StepVerb& verb) {
    const Token* t = RDMADIAG_TRY(l.need(2, "port (DEVICE:PORT)"));
    const Token* addr = RDMADIAG_TRY(l.need(3, "address (192.0.2.1 or 2001:db8::1)"));
    RDMADIAG_TRY(l.no_more_positional(4));
    AddressStep a;
    a.add = std::get<DeviceVerb>(verb.detail).present;
    a.port = RDMADIAG_TRY(port_ref(l, *t, true));
    if (find_port(a.port)->netdev.empty()) {
        return l.error(*t, std::string(verb.name) + " needs a port with a netdev (netdev=NAME)");
    }
    auto g = gid_from_address(addr->text);
    if (!g) return l.error(*addr, g.error().message);
    a.address = *g;
    const Token* ev = RDMADIAG_TRY(l.option("event"));
    if (ev) {
        if (ev->value() == "none") {
            a.event_delay.reset();
        } else {
            auto d = duration(l, *ev, ev->value());
            if (!d)
                return l.error(*ev, "event is 'none' or a delay such as 5s, not '" +
                                        std::string(ev->value()) + "'");
            a.event_delay = *d;
        }
    }
    return StepAction{std::move(a)};
}

// Each `peer=` names the other end of a link, as a subnet sweep finds it: the peer's node GUID
// and port number, on both ends (the other end may say so too, but not otherwise).
Result<void> Parser::link_ports() {
    auto at = [](const PendingLink& link, const std::string& message) {
        return make_error(std::to_string(link.line) + ":" + std::to_string(link.column) + ": " +
                          message);
    };
    for (const PendingLink& link : links_) {
        ScenarioPort* other = find_port(link.peer);
        if (other == nullptr) return at(link, "peer " + link.peer.to_string() + " is not declared");
        for (const PortRef& end : {link.port, link.peer}) {
            if (!find_device(end.device)->node_guid) {
                return at(link, "a link names its ends by node GUID: declare " + end.device +
                                    " with guid=");
            }
        }
        ScenarioPort* self = find_port(link.port);
        for (auto [from, to] : {std::pair{self, link.peer}, std::pair{other, link.port}}) {
            const uint64_t guid = *find_device(to.device)->node_guid;
            PortStateSample& s = from->state;
            if (s.peer_node_guid && (*s.peer_node_guid != guid || *s.peer_port != to.port)) {
                return at(link, from->state.port.to_string() + " is linked to another port");
            }
            s.peer_node_guid = guid;
            s.peer_port = to.port;
        }
    }
    return {};
}

Result<void> Parser::finish() {
    if (sc_.devices.empty()) return make_error("1:1: the scenario declares no device");
    RDMADIAG_TRY(link_ports());
    const auto effects = compile_timeline(sc_);
    const Duration last = last_effect_time(effects);
    if (!end_set_) {
        sc_.end = last + kDefaultTail;
    } else {
        for (const auto& e : effects) {
            if (e.at > sc_.end) {
                return make_error(std::to_string(e.line) + ":" + std::to_string(e.column) +
                                  ": this step takes effect at " + format_duration(e.at) +
                                  ", after the scenario's end (" + format_duration(sc_.end) +
                                  ", line " + std::to_string(end_line_) + ")");
            }
        }
    }
    if (sc_.loop && sc_.end <= Duration::zero()) {
        return make_error(std::to_string(loop_line_) +
                          ":1: a looping scenario needs an end after 0s");
    }
    // Play the timeline once so a step that cannot apply is reported with its line.
    FabricState state(sc_, "check");
    DiscardSink discard;
    for (const auto& e : effects) {
        auto r = state.apply(e.action, TimePoint{} + e.at, discard);
        if (!r) {
            return make_error(std::to_string(e.line) + ":" + std::to_string(e.column) + ": at " +
                              format_duration(e.at) + ": " + r.error().message);
        }
    }
    return {};
}

}  // namespace

Result<Scenario> parse_scenario(std::string_view text) {
    return Parser{}.run(text);
}

}  // namespace rdmadiag::sim
